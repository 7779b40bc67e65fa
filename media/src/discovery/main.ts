/**
 * The Tool Discovery panel: search as you type (debounced) with strategy, max results and filters;
 * results as cards (resultCard.ts); the session cache with its token budget (budget.ts).
 */
import type {
  CategoryView,
  DiscoveryFromWebview,
  DiscoveryResultView,
  DiscoveryToWebview,
  SearchFilterView,
  SearchStrategyName,
  SessionView,
} from '@shared/discoveryMessages';
import { button, debounce, el, focusedHere, formatCount } from '../shared/dom';
import { sessionNode } from './budget';
import { ResultCard } from './resultCard';

/** What the panel keeps across a reload of its webview (moved to another editor group, a window reload). */
interface SavedSearch {
  query: string;
  strategy: string;
  maxResults: string;
  risk: string;
  status: string;
  categories: string[];
}

declare function acquireVsCodeApi(): {
  postMessage(message: DiscoveryFromWebview): void;
  getState(): SavedSearch | undefined;
  setState(state: SavedSearch): void;
};

const vscode = acquireVsCodeApi();
const saved = vscode.getState();
const post = (message: DiscoveryFromWebview) => vscode.postMessage(message);
const app = document.getElementById('app') as HTMLElement;

const query = el('input', {
  type: 'search',
  id: 'query',
  placeholder: 'e.g. add numbers, read a file, send a message',
  autocomplete: 'off',
  spellcheck: 'false',
});
const strategy = el(
  'select',
  { id: 'strategy' },
  // Keyword first, so the default; semantic needs an embedding endpoint.
  ...['keyword', 'semantic', 'category'].map((s) => el('option', { value: s }, s)),
);
const maxResults = el('input', {
  type: 'number',
  id: 'max-results',
  min: '1',
  max: '50',
  value: '10',
});
const risk = el(
  'select',
  { id: 'risk' },
  el('option', { value: '' }, 'any'),
  ...['safe', 'moderate', 'dangerous'].map((r) => el('option', { value: r }, `up to ${r}`)),
);
const status = el(
  'select',
  { id: 'status' },
  el('option', { value: 'connected' }, 'connected servers'),
  el('option', { value: 'all' }, 'all servers'),
);
const categoryBox = el('div', { class: 'category-options' });
const categorySummary = el('summary', {}, 'Categories: any');
const meta = el('div', { class: 'search-meta', 'aria-live': 'polite' });
const fallback = el('div', { class: 'notice', role: 'status', hidden: 'true' });
const list = el('ol', { class: 'results', 'aria-label': 'Matching tools' });
const noMatchText = el('span', {}, '');
const noMatch = el(
  'div',
  { class: 'notice no-match', role: 'status', hidden: 'true' },
  el('strong', {}, 'No tool matches. '),
  noMatchText,
  ' ',
  button('Add Server…', () => post({ type: 'addServer' })),
);
const session = el('div', { id: 'session' });
const sessionState = el('span', { class: 'muted session-state' }, '');
const sessionBox = el(
  'details',
  { class: 'session-box' },
  el('summary', {}, el('h2', { id: 'session-heading' }, 'Session tool cache'), ' ', sessionState),
  el(
    'p',
    { class: 'muted', title: 'MGP §16.7' },
    'The tools an agent keeps in its context, against its token budget.',
  ),
  session,
);
/** The person opened or closed the box: from then on it stays as they left it. */
let sessionChosen = false;
sessionBox.querySelector('summary')?.addEventListener('click', () => (sessionChosen = true));
const cards = new Map<string, ResultCard>();
let seq = 0;

function field(label: string, control: HTMLElement): HTMLElement {
  return el('div', { class: 'control' }, el('label', { for: control.id }, label), control);
}

function chosenCategories(): string[] {
  return Array.from(
    categoryBox.querySelectorAll<HTMLInputElement>('input:checked'),
    (c) => c.value,
  );
}

function filter(): SearchFilterView {
  const categories = chosenCategories();
  return {
    ...(risk.value ? { risk_level_max: risk.value as SearchFilterView['risk_level_max'] } : {}),
    ...(categories.length ? { categories } : {}),
    status: status.value as 'connected' | 'all',
  };
}

function save(): void {
  vscode.setState({
    query: query.value,
    strategy: strategy.value,
    maxResults: maxResults.value,
    risk: risk.value,
    status: status.value,
    categories: chosenCategories(),
  });
}

/** Puts back the search the panel had before its webview was reloaded. */
function restore(state: SavedSearch | undefined): void {
  if (!state) return;
  query.value = state.query;
  strategy.value = state.strategy;
  maxResults.value = state.maxResults;
  risk.value = state.risk;
  status.value = state.status;
}

function search(): void {
  save();
  seq += 1;
  const max = Math.min(50, Math.max(1, Math.floor(Number(maxResults.value) || 10)));
  post({
    type: 'search',
    seq,
    query: query.value,
    strategy: strategy.value as SearchStrategyName,
    maxResults: max,
    filter: filter(),
  });
  app.dataset.searching = String(seq);
}

const searchSoon = debounce(search, 150);

function showCategories(categories: CategoryView[]): void {
  const chosen = new Set(chosenCategories().length ? chosenCategories() : saved?.categories);
  categoryBox.replaceChildren(
    ...categories.map((c) => {
      const id = `category-${c.name}`;
      const box = el('input', { type: 'checkbox', id, value: c.name });
      box.checked = chosen.has(c.name);
      box.addEventListener('change', () => {
        const chosen = chosenCategories();
        categorySummary.textContent = `Categories: ${chosen.length ? chosen.join(', ') : 'any'}`;
        search();
      });
      return el(
        'div',
        { class: `category-option${c.parent ? ' child' : ''}` },
        box,
        el('label', { for: id, title: c.description }, c.name),
      );
    }),
  );
}

function showResults(result: DiscoveryResultView): void {
  const focused = focusedHere();
  const next = result.tools.map((tool) => {
    const card = cards.get(tool.toolId) ?? new ResultCard(tool, post);
    card.update(tool);
    return card;
  });
  cards.clear();
  next.forEach((card) => cards.set(card.toolId, card));
  const sameOrder =
    list.children.length === next.length &&
    next.every((card, i) => list.children[i] === card.element);
  if (!sameOrder) list.replaceChildren(...next.map((card) => card.element));
  if (focused && focused !== document.activeElement && focused.isConnected) focused.focus();
  const shown = result.tools.length;
  meta.textContent = query.value.trim()
    ? `${shown} of ${formatCount(result.totalAvailable)} ${result.noMatch ? 'tools sharing a word' : 'matching tools'} · ${result.strategy} · ${result.queryTimeMs.toFixed(2)} ms${result.truncated ? ` · cut to ${result.truncated.returned} by the discovery reserve` : ''}`
    : `Type what you need. ${shown ? `${shown} tools shown` : ''}`;
  meta.dataset.queryTimeMs = String(result.queryTimeMs);
  fallback.hidden = !result.fallbackStrategy;
  fallback.textContent = result.fallbackStrategy
    ? `${result.strategy} search could not run here: answered with ${result.fallbackStrategy} search instead.`
    : '';
  fallback.title = result.fallbackStrategy ? 'fallback_strategy, MGP §16.4' : '';
  app.dataset.results = String(shown);
  app.dataset.noMatch = String(Boolean(result.noMatch));
  noMatch.hidden = !result.noMatch;
  noMatchText.textContent = shown
    ? 'None of the connected servers fits this well; the closest tools are below.'
    : 'None of the connected servers has a tool for this.';
  list.setAttribute('aria-label', result.noMatch ? 'Closest tools' : 'Matching tools');
  list.classList.toggle('closest', Boolean(result.noMatch));
  if (!shown && query.value.trim())
    list.replaceChildren(
      el('li', { class: 'empty' }, 'Try other words, another strategy, or fewer filters.'),
    );
}

/** The budget stays folded away until the session holds a tool (an agent's, or one tried or pinned here). */
function showSession(view: SessionView): void {
  session.replaceChildren(sessionNode(view, (toolId) => post({ type: 'unpin', toolId })));
  const used = view.pinned.length + view.cached.length > 0;
  const total = view.pinnedTokens + view.cachedTokens;
  sessionState.textContent = used
    ? `${formatCount(total)} of ${formatCount(view.maxTokens)} tokens`
    : 'not used yet';
  app.dataset.sessionUsed = String(used);
  if (used && !sessionChosen) sessionBox.open = true;
}

window.addEventListener('message', (event: MessageEvent<DiscoveryToWebview>) => {
  const message = event.data;
  switch (message?.type) {
    case 'init':
      showCategories(message.categories);
      if (chosenCategories().length) {
        categorySummary.textContent = `Categories: ${chosenCategories().join(', ')}`;
        search();
      }
      return;
    case 'results':
      if (message.seq === seq) {
        showResults(message.result);
        app.dataset.answered = String(seq);
      }
      return;
    case 'searchError':
      if (message.seq === seq) meta.textContent = `The search failed: ${message.message}`;
      return;
    case 'session':
      showSession(message.session);
      return;
    default:
      if (message) for (const card of cards.values()) if (card.runner?.handle(message)) return;
  }
});

query.addEventListener('input', searchSoon);
for (const control of [strategy, risk, status]) control.addEventListener('change', search);
maxResults.addEventListener('change', search);

app.replaceChildren(
  el(
    'header',
    {},
    el('h1', {}, 'Tool Discovery'),
    el(
      'p',
      { class: 'muted', title: 'The kernel answers mgp.tools.discover (MGP §16)' },
      "Search every connected server's tools by what you need.",
    ),
  ),
  el(
    'div',
    { class: 'layout' },
    el(
      'div',
      { class: 'main-column' },
      el(
        'div',
        { class: 'search', role: 'search' },
        el(
          'div',
          { class: 'control query' },
          el('label', { for: 'query' }, 'What do you need?'),
          query,
        ),
        el(
          'div',
          { class: 'controls' },
          field('Strategy', strategy),
          field('Max results', maxResults),
          field('Risk', risk),
          field('Servers', status),
          el('details', { class: 'categories-filter' }, categorySummary, categoryBox),
        ),
      ),
      meta,
      fallback,
      noMatch,
      list,
    ),
    el('aside', { class: 'side-column', 'aria-labelledby': 'session-heading' }, sessionBox),
  ),
);
restore(saved);
post({ type: 'ready' });
search();
query.focus();
