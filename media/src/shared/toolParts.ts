/**
 * Pieces the tool panels share: the risk badge and security facts with their sources, the server's
 * untrusted description, a call's result (text, images, resources, links, structured content, isError,
 * truncation), an MGP error, and a progress bar. Meaning never rests on colour alone: a mark and a word too.
 */
import type {
  BlockView,
  ErrorView,
  ProgressView,
  ResultItemView,
  ResultView,
  SecurityView,
} from '@shared/toolPanelMessages';
import { button, el, formatBytes, formatCount, formatDuration, type Child } from './dom';
import { determinismNode } from './draftParts';

const RISK_MARK: Record<string, string> = { safe: '●', moderate: '◆', dangerous: '▲' };

export function riskBadge(risk: string, source?: string): HTMLElement {
  return el(
    'span',
    {
      class: `risk risk-${risk}`,
      'data-risk': risk,
      title: source ? `Effective risk, decided by ${source}` : undefined,
    },
    `${RISK_MARK[risk] ?? '◆'} ${risk}${source ? ` · from ${source}` : ''}`,
  );
}

function fact(term: string, ...value: Child[]): Node[] {
  return [el('dt', {}, term), el('dd', {}, ...value)];
}

/** Risk with its source, side effects, permissions, reversibility, validator; a warning when the server claims otherwise. */
export function securityFacts(security: SecurityView): HTMLElement {
  const effects = security.sideEffects.length ? security.sideEffects.join(', ') : 'none declared';
  const list = el(
    'dl',
    { class: 'facts security-facts' },
    ...fact('Risk', riskBadge(security.risk, security.riskSource)),
    ...fact(
      'Side effects',
      effects,
      ...(security.sideEffectsSource
        ? [el('span', { class: 'muted' }, ` · from ${security.sideEffectsSource}`)]
        : []),
    ),
    ...fact('Permissions', security.permissions.length ? security.permissions.join(', ') : 'none'),
    ...(security.reversible !== undefined
      ? fact('Reversible', security.reversible ? 'yes' : 'no')
      : []),
    ...(security.confirmationRequired ? fact('Confirmation', 'required before each call') : []),
    ...(security.validator ? fact('Validator', security.validator) : []),
  );
  const claim = security.serverClaim
    ? el(
        'div',
        { class: 'notice warning claim', role: 'note', 'data-claim': security.serverClaim },
        el('strong', {}, 'The server claims otherwise: '),
        `it declares this tool "${security.serverClaim}", but the kernel treats it as "${security.risk}" (from ${security.riskSource}). The server's claim is not trusted.`,
      )
    : '';
  return el('div', { class: 'security' }, list, claim);
}

export function untrustedDescription(description: string | undefined): HTMLElement {
  return el(
    'div',
    { class: 'untrusted', role: 'note' },
    el('strong', {}, 'From the server — untrusted: '),
    description
      ? el('span', { class: 'description' }, description)
      : el('span', { class: 'muted' }, 'no description given.'),
  );
}

/** A resource_link block of a result (MCP 2025-11-25). */
export type ResourceLinkView = Extract<ResultItemView, { kind: 'resource_link' }>;
/** Opens a linked resource (read through the kernel from the server that ran the tool). */
export type OpenLink = (link: ResourceLinkView) => void;

function linkNode(item: ResourceLinkView, openLink: OpenLink | undefined): HTMLElement {
  const name = openLink
    ? button(item.name, () => openLink(item), {
        class: 'link resource-link',
        title: `Open ${item.uri} as a read-only document`,
        'aria-label': `Open resource ${item.name} (${item.uri})`,
      })
    : el('span', {}, item.name);
  return el(
    'div',
    { class: 'result-link' },
    el('strong', {}, 'Resource link '),
    name,
    ' ',
    el('code', {}, item.uri),
    item.mimeType ? el('span', { class: 'muted' }, ` · ${item.mimeType}`) : '',
    item.description ? el('div', { class: 'muted' }, item.description) : '',
  );
}

function itemNode(item: ResultItemView, index: number, openLink?: OpenLink): HTMLElement {
  switch (item.kind) {
    case 'text':
      return el(
        'pre',
        { class: 'result-text', tabindex: '0', 'aria-label': `Text ${index + 1}` },
        item.text,
      );
    case 'image':
      return el(
        'figure',
        { class: 'result-image' },
        item.data
          ? el('img', {
              src: `data:${item.mimeType};base64,${item.data}`,
              alt: `Image from the tool (${item.mimeType})`,
            })
          : el(
              'div',
              { class: 'muted' },
              'Not shown here (open the tool in the Run Tool panel to see images).',
            ),
        el(
          'figcaption',
          { class: 'muted' },
          `Image · ${item.mimeType} · ${formatBytes(item.bytes)}`,
        ),
      );
    case 'audio':
      return el(
        'div',
        { class: 'result-note' },
        `Audio · ${item.mimeType} · ${formatBytes(item.bytes)} (not played here)`,
      );
    case 'resource':
      return el(
        'div',
        { class: 'result-resource' },
        el(
          'div',
          {},
          el('strong', {}, 'Resource '),
          el('code', {}, item.uri),
          item.mimeType ? el('span', { class: 'muted' }, ` · ${item.mimeType}`) : '',
        ),
        item.text !== undefined
          ? el('pre', { tabindex: '0' }, item.text)
          : el('div', { class: 'muted' }, `Binary content, ${formatBytes(item.bytes ?? 0)}`),
      );
    case 'resource_link':
      return linkNode(item, openLink);
    case 'other':
      return el('pre', { class: 'result-other', tabindex: '0' }, item.json);
  }
}

/** A call's result; `isError` and cancellation are stated first, in words. */
export function resultNode(result: ResultView, openLink?: OpenLink): HTMLElement {
  const state = result.cancelled ? 'cancelled' : result.isError ? 'error' : 'ok';
  const headline = result.cancelled
    ? '⊘ Cancelled — the partial output is kept'
    : result.isError
      ? '✗ The tool reported an error'
      : '✓ Succeeded';
  const items = result.items.map((item, index) => itemNode(item, index, openLink));
  return el(
    'section',
    { class: `result result-${state}`, 'data-state': state, 'aria-label': 'Result' },
    el(
      'div',
      { class: 'result-head' },
      el(
        'strong',
        {
          class: 'result-state',
          // The protocol's word stays out of the sentence, for those who look for it.
          title: result.isError ? 'The result came back with isError: true (MCP)' : undefined,
        },
        headline,
      ),
      el(
        'span',
        { class: 'muted' },
        ` · ${formatDuration(result.durationMs)}${result.streamed ? ' · streamed' : ''} · trace `,
      ),
      el('code', {}, result.traceId),
    ),
    ...(result.determinism ? [determinismNode(result.determinism)] : []),
    ...(items.length ? items : [el('div', { class: 'muted' }, 'No content.')]),
    ...(result.structured !== undefined
      ? [
          el('div', { class: 'label' }, 'Structured content'),
          el(
            'pre',
            { class: 'result-structured', tabindex: '0', 'aria-label': 'Structured content' },
            result.structured,
          ),
        ]
      : []),
    ...(result.outputSchemaMismatch !== undefined
      ? [
          el(
            'div',
            { class: 'notice warning output-schema-mismatch', role: 'status' },
            `The structured content does not match the tool's output schema: ${result.outputSchemaMismatch}`,
          ),
        ]
      : []),
    ...(result.truncated
      ? [
          el(
            'div',
            { class: 'notice warning' },
            `The text was cut to ${formatCount(result.truncated.keptChars)} of ${formatCount(result.truncated.originalChars)} characters (the server's tool_result_max_chars).`,
          ),
        ]
      : []),
  );
}

/** "1000 PERMISSION_DENIED — message", or a local error's name. */
export function errorNode(error: ErrorView): HTMLElement {
  const code = [error.code !== undefined ? String(error.code) : '', error.name ?? '']
    .filter(Boolean)
    .join(' ');
  const codeNode = code
    ? el('code', { class: 'error-code', 'data-code': String(error.code ?? '') }, code)
    : undefined;
  if (error.block) return blockNode(error.block, codeNode);
  return el(
    'section',
    { class: 'result result-failed', 'data-state': 'failed', role: 'alert' },
    el('div', { class: 'result-head' }, el('strong', {}, '✗ The call failed')),
    el(
      'div',
      { class: 'mgp-error' },
      ...(codeNode ? [codeNode, ' '] : []),
      el('span', {}, error.message),
    ),
  );
}

/**
 * A call the kernel refused, by which check and why: set apart from a server's own error (a red
 * "failed"), with its own mark, words and border, because nothing reached the server.
 */
export function blockNode(block: BlockView, code?: HTMLElement): HTMLElement {
  return el(
    'section',
    { class: 'result result-blocked', 'data-state': 'blocked', role: 'alert' },
    el(
      'div',
      { class: 'result-head' },
      el('span', { class: 'badge block-badge' }, 'Kernel'),
      ' ',
      el('strong', { class: 'result-state' }, 'Blocked by MGP Kernel — not run by the server'),
    ),
    el(
      'dl',
      { class: 'facts block-facts' },
      el('dt', {}, 'Check'),
      el(
        'dd',
        {
          class: 'block-check',
          ...(block.section ? { title: `Specified in ${block.section}` } : {}),
        },
        block.check,
      ),
      el('dt', {}, 'Why'),
      el('dd', { class: 'block-why' }, block.why),
      ...(code ? [el('dt', {}, 'Code'), el('dd', { class: 'mgp-error' }, code)] : []),
    ),
  );
}

export interface ProgressBar {
  element: HTMLElement;
  update(progress: ProgressView | undefined, receivedAt: number, now: number): void;
}

/** A bar with its message and time left (counted down between reports). */
export function progressBar(label: string): ProgressBar {
  const fill = el('div', { class: 'progress-fill' });
  const track = el(
    'div',
    {
      class: 'progress-track',
      role: 'progressbar',
      'aria-label': label,
      'aria-valuemin': '0',
      'aria-valuemax': '100',
    },
    fill,
  );
  const text = el('span', { class: 'progress-text' });
  const eta = el('span', { class: 'progress-eta muted' });
  const element = el(
    'div',
    { class: 'progress', hidden: 'true' },
    track,
    el('div', { class: 'progress-line' }, text, eta),
  );
  return {
    element,
    update(progress, receivedAt, now) {
      element.hidden = !progress;
      if (!progress) return;
      const known = progress.fraction !== undefined;
      track.classList.toggle('indeterminate', !known);
      if (known) {
        const percent = Math.round((progress.fraction as number) * 100);
        fill.style.width = `${percent}%`;
        track.setAttribute('aria-valuenow', String(percent));
      } else track.removeAttribute('aria-valuenow');
      text.textContent = `${known ? `${Math.round((progress.fraction as number) * 100)}%` : 'Working'}${progress.message ? ` · ${progress.message}` : ''}`;
      const left =
        progress.estimatedRemainingMs !== undefined
          ? Math.max(0, progress.estimatedRemainingMs - (now - receivedAt))
          : undefined;
      eta.textContent = left !== undefined ? ` · about ${formatDuration(left)} left` : '';
      eta.dataset.remainingMs = left !== undefined ? String(Math.round(left)) : '';
    },
  };
}
