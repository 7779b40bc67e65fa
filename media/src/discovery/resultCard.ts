/**
 * One search result: name, relevance, server and risk badges, categories, description; expanding it
 * shows the security facts, the input schema and a "Try it" form. A card lives as long as its tool stays
 * in the answers, so a search refreshed after a pin or a use keeps what was typed and what runs.
 */
import type { DiscoveredToolView, DiscoveryFromWebview } from '@shared/discoveryMessages';
import { button, el, formatCount, uniqueId } from '../shared/dom';
import { ToolRun } from '../shared/toolRun';
import { riskBadge, securityFacts } from '../shared/toolParts';

export class ResultCard {
  readonly element: HTMLElement;
  private view: DiscoveredToolView;
  private readonly toggle: HTMLButtonElement;
  private readonly details: HTMLElement;
  private readonly summary = el('div', { class: 'card-summary' });
  private readonly pinButton: HTMLButtonElement;
  private run: ToolRun | undefined;
  private schemaKey = '';

  constructor(
    view: DiscoveredToolView,
    private readonly post: (message: DiscoveryFromWebview) => void,
  ) {
    this.view = view;
    const detailsId = uniqueId('details');
    this.toggle = el('button', {
      type: 'button',
      class: 'card-toggle',
      'aria-expanded': 'false',
      'aria-controls': detailsId,
    });
    this.toggle.addEventListener('click', () =>
      this.setExpanded(this.toggle.getAttribute('aria-expanded') !== 'true'),
    );
    this.pinButton = button(
      'Keep for agents',
      () => this.post({ type: this.view.pinned ? 'unpin' : 'pin', toolId: this.view.toolId }),
      { class: 'secondary small pin' },
    );
    this.details = el('div', { class: 'card-details', id: detailsId, hidden: 'true' });
    this.element = el(
      'li',
      { class: 'card', 'data-tool-id': view.toolId },
      el('div', { class: 'card-head' }, this.toggle, this.pinButton),
      this.summary,
      this.details,
    );
    this.update(view);
  }

  get toolId(): string {
    return this.view.toolId;
  }

  update(view: DiscoveredToolView): void {
    this.view = view;
    const t = view.tool;
    this.element.dataset.server = t.serverId;
    this.element.dataset.tool = t.toolName;
    this.element.dataset.pinned = String(view.pinned);
    const relevance = Math.round(view.relevance * 100);
    this.toggle.replaceChildren(
      el('span', { class: 'chevron', 'aria-hidden': 'true' }),
      el('span', { class: 'name' }, t.toolName),
      el(
        'span',
        {
          class: 'relevance',
          title: 'Relevance to the query',
          'data-relevance': String(view.relevance),
        },
        el('span', { class: 'meter', 'aria-hidden': 'true' }, el('span', { class: 'meter-fill' })),
        ` ${relevance}%`,
      ),
    );
    (this.toggle.querySelector('.meter-fill') as HTMLElement).style.width = `${relevance}%`;
    this.pinButton.textContent = view.pinned ? 'Stop keeping' : 'Keep for agents';
    this.pinButton.setAttribute('aria-pressed', String(view.pinned));
    this.pinButton.setAttribute(
      'aria-label',
      view.pinned
        ? `Stop keeping ${t.toolName} in agents' context`
        : `Keep ${t.toolName} in agents' context for this session`,
    );
    this.summary.replaceChildren(
      el(
        'div',
        { class: 'badges' },
        el('span', { class: 'badge server', title: 'Server' }, t.serverId),
        riskBadge(t.security.risk),
        ...(view.pinned
          ? [el('span', { class: 'badge state' }, 'kept for agents')]
          : view.cached
            ? [el('span', { class: 'badge state' }, 'in cache')]
            : []),
        ...(view.connected ? [] : [el('span', { class: 'badge state' }, 'server not connected')]),
        el(
          'span',
          { class: 'muted tokens', title: "What describing this tool takes of an agent's context" },
          `${formatCount(view.tokens)} tokens of context`,
        ),
      ),
      el(
        'div',
        { class: 'categories' },
        ...view.categories.map((c) => el('span', { class: 'category' }, c)),
      ),
      el(
        'p',
        { class: 'card-description' },
        el(
          'span',
          { class: 'untrusted-mark', title: 'Written by the server: untrusted, may be misleading' },
          'from the server (untrusted): ',
        ),
        t.description ?? 'no description.',
      ),
    );
    const key = JSON.stringify(t);
    if (key !== this.schemaKey) {
      this.schemaKey = key;
      if (this.toggle.getAttribute('aria-expanded') === 'true') this.renderDetails();
      else this.run = undefined;
    }
  }

  /** Messages for this card's "Try it". */
  get runner(): ToolRun | undefined {
    return this.run;
  }

  setExpanded(expanded: boolean): void {
    this.toggle.setAttribute('aria-expanded', String(expanded));
    this.details.hidden = !expanded;
    this.element.classList.toggle('expanded', expanded);
    if (expanded && !this.run) this.renderDetails();
  }

  private renderDetails(): void {
    const t = this.view.tool;
    this.run = new ToolRun(t, { post: (m) => this.post(m), stream: 'always', runLabel: 'Try it' });
    const properties = Object.keys(
      (t.inputSchema.properties as Record<string, unknown> | undefined) ?? {},
    );
    this.details.replaceChildren(
      securityFacts(t.security),
      el(
        'details',
        { class: 'schema-details', open: 'true' },
        el(
          'summary',
          {},
          el('strong', {}, 'Input schema'),
          el(
            'span',
            { class: 'muted' },
            properties.length ? ` · ${properties.join(', ')}` : ' · no arguments',
          ),
        ),
        el(
          'pre',
          { class: 'schema', tabindex: '0', 'aria-label': `Input schema of ${t.toolName}` },
          JSON.stringify(t.inputSchema, null, 2),
        ),
      ),
      el('h3', {}, 'Try it'),
      el(
        'p',
        { class: 'muted' },
        'Runs through the kernel like any call (access, approval, validators, audit), streamed: the output also shows in the Streaming panel. ',
        button(
          'Open in the Run Tool panel',
          () => this.post({ type: 'openRunTool', serverId: t.serverId, toolName: t.toolName }),
          { class: 'link' },
        ),
      ),
      this.run.element,
    );
  }
}
