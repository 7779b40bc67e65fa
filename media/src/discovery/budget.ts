/**
 * The session tool cache against its context budget (MGP §16.7–16.8): one bar as wide as max_tokens,
 * split into the pinned area (its reserve, or more when pinned tools take more), the cache's limit, the
 * discovery reserve, and what is left unused; the pinned and cached tokens fill their areas.
 */
import type { SessionToolView, SessionView } from '@shared/discoveryMessages';
import { button, el, formatCount } from '../shared/dom';

export interface BudgetSegment {
  key: 'pinned' | 'cache' | 'discovery' | 'free';
  /** Share of max_tokens, 0..1. */
  width: number;
  /** Share of the segment that is used, 0..1. */
  fill: number;
}

/** The bar's segments (pure: tested with the panel's other arithmetic). */
export function budgetSegments(s: SessionView): BudgetSegment[] {
  const max = Math.max(1, s.maxTokens);
  const pinnedArea = Math.max(s.pinnedReserve, s.pinnedTokens);
  const discovery = Math.min(s.discoveryReserve, max);
  const cache = Math.max(0, Math.min(s.cacheLimit, max - discovery - pinnedArea));
  const free = Math.max(0, max - pinnedArea - cache - discovery);
  const share = (n: number) => Math.max(0, Math.min(1, n / max));
  return [
    {
      key: 'pinned',
      width: share(pinnedArea),
      fill: pinnedArea ? Math.min(1, s.pinnedTokens / pinnedArea) : 0,
    },
    { key: 'cache', width: share(cache), fill: cache ? Math.min(1, s.cachedTokens / cache) : 0 },
    { key: 'discovery', width: share(discovery), fill: 0 },
    { key: 'free', width: share(free), fill: 0 },
  ].filter((segment) => segment.width > 0) as BudgetSegment[];
}

const LABELS: Record<BudgetSegment['key'], string> = {
  pinned: 'Kept for agents',
  cache: 'Cache',
  discovery: 'Discovery reserve',
  free: 'Unused',
};

function toolList(
  title: string,
  tools: SessionToolView[],
  unpin?: (toolId: string) => void,
): HTMLElement {
  if (!tools.length)
    return el('div', {}, el('h3', {}, title), el('p', { class: 'empty' }, 'None.'));
  return el(
    'div',
    {},
    el('h3', {}, `${title} (${tools.length})`),
    el(
      'ul',
      { class: 'session-tools' },
      ...tools.map((t) =>
        el(
          'li',
          { 'data-tool-id': t.toolId },
          el('span', { class: 'name' }, t.toolName),
          el('span', { class: 'muted' }, ` · ${t.serverId} · ${formatCount(t.tokens)} tokens`),
          ...(unpin
            ? [
                ' ',
                button('Stop keeping', () => unpin(t.toolId), {
                  class: 'link',
                  'aria-label': `Stop keeping ${t.toolName} in agents' context`,
                }),
              ]
            : []),
        ),
      ),
    ),
  );
}

export function sessionNode(s: SessionView, unpin: (toolId: string) => void): HTMLElement {
  const total = s.pinnedTokens + s.cachedTokens;
  const bar = el('div', {
    class: 'budget-bar',
    role: 'img',
    'aria-label': `${formatCount(total)} of ${formatCount(s.maxTokens)} tokens used: kept ${formatCount(s.pinnedTokens)}, cached ${formatCount(s.cachedTokens)}, discovery reserve ${formatCount(s.discoveryReserve)}`,
  });
  for (const segment of budgetSegments(s)) {
    const fill = el('div', { class: 'budget-fill' });
    fill.style.width = `${(segment.fill * 100).toFixed(2)}%`;
    const part = el(
      'div',
      {
        class: `budget-segment budget-${segment.key}`,
        title: LABELS[segment.key],
        'data-segment': segment.key,
      },
      fill,
    );
    part.style.flexBasis = `${(segment.width * 100).toFixed(2)}%`;
    bar.append(part);
  }
  const legend = el(
    'dl',
    { class: 'budget-legend' },
    el('dt', {}, el('span', { class: 'swatch budget-pinned', 'aria-hidden': 'true' }), 'Kept'),
    el('dd', {}, `${formatCount(s.pinnedTokens)} tokens (reserve ${formatCount(s.pinnedReserve)})`),
    el('dt', {}, el('span', { class: 'swatch budget-cache', 'aria-hidden': 'true' }), 'Cached'),
    el('dd', {}, `${formatCount(s.cachedTokens)} of ${formatCount(s.cacheLimit)} tokens`),
    el(
      'dt',
      {},
      el('span', { class: 'swatch budget-discovery', 'aria-hidden': 'true' }),
      'Discovery reserve',
    ),
    el('dd', {}, `${formatCount(s.discoveryReserve)} tokens`),
    el('dt', {}, 'Total'),
    el(
      'dd',
      { 'data-total': String(total) },
      `${formatCount(total)} of ${formatCount(s.maxTokens)} tokens`,
    ),
  );
  return el(
    'div',
    { class: 'session' },
    bar,
    legend,
    toolList('Kept for agents', s.pinned, unpin),
    toolList('Cached (most recent first)', s.cached),
  );
}
