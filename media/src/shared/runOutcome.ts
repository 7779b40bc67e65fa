/**
 * How a run ended, as the Run Tool panel shows it (after a run and for a run from its history): the
 * result, the server's error or the kernel's block; then Copy, Re-run, the trace with its link to the
 * Audit Trail, and the raw tools/call exchange.
 */
import type {
  ErrorView,
  ExchangeView,
  ResultView,
  RunFromWebview,
} from '@shared/toolPanelMessages';
import { button, el } from './dom';
import { blockNode, errorNode, resultNode, type OpenLink } from './toolParts';

export interface EndedView {
  result?: ResultView;
  error?: ErrorView;
  traceId?: string;
  exchange?: ExchangeView;
}

export interface OutcomeActions {
  post(message: RunFromWebview): void;
  /** Runs the tool again with the same arguments. */
  rerun(): void;
  /** Runs it again with the seed the server said it used (MCP draft §2); absent: the tool takes none. */
  rerunWithSeed?(seed: number): void;
  /** Opens a resource_link of the result. */
  openLink?: OpenLink;
}

/** What "Copy" puts on the clipboard: the result's text and structured content, or the error. */
export function copyText(ended: EndedView): string {
  const { result, error } = ended;
  if (result) {
    const texts = result.items.map((item) =>
      item.kind === 'text'
        ? item.text
        : item.kind === 'resource' && item.text !== undefined
          ? item.text
          : item.kind === 'other'
            ? item.json
            : `[${item.kind}]`,
    );
    return [...texts, ...(result.structured !== undefined ? [result.structured] : [])].join('\n\n');
  }
  if (!error) return '';
  const code = [error.code, error.name].filter((part) => part !== undefined).join(' ');
  return error.block
    ? `Blocked by MGP Kernel (${error.block.check}): ${error.block.why}${code ? ` [${code}]` : ''}`
    : `${code ? `${code}: ` : ''}${error.message}`;
}

function mainNode(ended: EndedView, openLink?: OpenLink): HTMLElement {
  if (ended.result?.block) return blockNode(ended.result.block);
  if (ended.result) return resultNode(ended.result, openLink);
  return errorNode(ended.error ?? { message: 'no result' });
}

function rawNode(exchange: ExchangeView): HTMLElement {
  return el(
    'details',
    { class: 'raw-exchange' },
    el('summary', {}, 'Raw JSON (request and response)'),
    el('div', { class: 'label' }, 'Request: tools/call params, as the kernel sent them'),
    exchange.request !== undefined
      ? el(
          'pre',
          { class: 'raw-request', tabindex: '0', 'aria-label': 'Request JSON' },
          exchange.request,
        )
      : el('p', { class: 'muted raw-request-none' }, 'Nothing was sent to the server.'),
    el('div', { class: 'label' }, 'Response: the result, or the error, as the kernel returned it'),
    el(
      'pre',
      { class: 'raw-response', tabindex: '0', 'aria-label': 'Response JSON' },
      exchange.response,
    ),
  );
}

export function outcomeNode(ended: EndedView, actions: OutcomeActions): HTMLElement {
  const copy = button('Copy', () => actions.post({ type: 'copy', text: copyText(ended) }), {
    class: 'secondary small copy-result',
    title: 'Copy the result (or the error) to the clipboard',
  });
  const rerun = button('Re-run', () => actions.rerun(), {
    class: 'secondary small rerun',
    title: 'Run the tool again with these arguments',
  });
  const seedUsed = ended.result?.determinism?.seedUsed;
  const sameSeed =
    typeof seedUsed === 'number' && actions.rerunWithSeed
      ? button('Run again with the same seed', () => actions.rerunWithSeed?.(seedUsed), {
          class: 'secondary small rerun-seed',
          title: `Run the tool again with these arguments and seed ${seedUsed}, the one the server said it used`,
          'data-seed': String(seedUsed),
        })
      : '';
  const traceId = ended.traceId ?? ended.result?.traceId;
  const trace = traceId
    ? el(
        'span',
        { class: 'trace' },
        el('span', { class: 'muted' }, 'Trace '),
        button(traceId, () => actions.post({ type: 'showAudit', traceId }), {
          class: 'link trace-link',
          title: 'Show this call in the Audit Trail',
          'aria-label': `Trace ${traceId}: show in the Audit Trail`,
        }),
      )
    : '';
  return el(
    'div',
    { class: 'run-outcome' },
    mainNode(ended, actions.openLink),
    el('div', { class: 'outcome-actions' }, copy, rerun, sameSeed, trace),
    ...(ended.exchange ? [rawNode(ended.exchange)] : []),
  );
}
