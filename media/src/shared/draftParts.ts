/**
 * What the panels show of the MCP draft extensions (Nov 2025): the seed a result or a stream says it
 * used (§2), and a stream's job events in a lane per phase (§4). Both are the server's word: shown as
 * text, marked as what the server says.
 */
import {
  PHASE_NAMES,
  type DeterminismView,
  type JobEventView,
  type JobsView,
} from '@shared/draftViews';
import { el, formatCount } from './dom';

/** "Seed used 42 · determinism strict (as the server says)". */
export function determinismNode(view: DeterminismView): HTMLElement {
  return el(
    'div',
    {
      class: 'determinism',
      'data-seed-used': view.seedUsed === null ? 'none' : String(view.seedUsed),
      title: 'MCP draft §2: seed_used and determinism, as the server reported them',
    },
    ...(view.seedUsed === null
      ? ['No seed used']
      : ['Seed used ', el('code', { class: 'seed-used' }, String(view.seedUsed))]),
    ...(view.level
      ? [' · determinism ', el('strong', { class: 'determinism-level' }, view.level)]
      : []),
    el('span', { class: 'muted' }, ' (as the server says)'),
  );
}

/** Events a lane shows (the newest); the count covers them all. */
const LANE_EVENTS = 4;

function eventLine(event: JobEventView): HTMLElement {
  return el(
    'li',
    { class: 'job-event', 'data-event-id': event.id !== undefined ? String(event.id) : undefined },
    el('span', { class: 'event-type' }, event.eventType),
    event.id !== undefined ? el('span', { class: 'muted' }, ` #${event.id}`) : '',
    event.text ? `: ${event.text}` : '',
  );
}

/**
 * A lane per phase of the draft, in the order a job goes through them (and one for events with no
 * phase, when there are some): each with its label, how many events it had and its newest ones.
 */
export class PhaseLanes {
  readonly element = el('section', {
    class: 'phase-lanes',
    'aria-label': 'Job events by phase (MCP draft §4)',
    hidden: 'true',
  });
  private readonly summary = el('div', { class: 'jobs-summary muted' });
  private readonly lanes = el('div', { class: 'lanes' });
  private readonly events = new Map<string, JobEventView[]>();
  private readonly counts = new Map<string, number>();
  private duplicates = 0;
  private dirty = false;

  constructor(jobs?: JobsView) {
    this.element.append(el('h3', {}, 'Job events by phase'), this.summary, this.lanes);
    if (!jobs) return;
    for (const [phase, count] of Object.entries(jobs.phases)) this.counts.set(phase, count);
    for (const event of jobs.events) this.keep(event);
    this.duplicates = jobs.duplicates;
    this.dirty = true;
  }

  private keep(event: JobEventView): void {
    const phase = event.phase ?? 'none';
    const list = [...(this.events.get(phase) ?? []), event].slice(-LANE_EVENTS);
    this.events.set(phase, list);
  }

  add(event: JobEventView): void {
    const phase = event.phase ?? 'none';
    this.counts.set(phase, (this.counts.get(phase) ?? 0) + 1);
    this.keep(event);
    this.dirty = true;
  }

  /** At the end, the kernel's count of replays dropped. */
  setDuplicates(count: number): void {
    if (count !== this.duplicates) this.dirty = true;
    this.duplicates = count;
  }

  render(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const total = [...this.counts.values()].reduce((a, b) => a + b, 0);
    this.element.hidden = total === 0;
    this.summary.textContent = `${formatCount(total)} event${total === 1 ? '' : 's'}${
      this.duplicates ? ` · ${formatCount(this.duplicates)} replayed after a resume, dropped` : ''
    }`;
    const phases = [...PHASE_NAMES, ...((this.counts.get('none') ?? 0) > 0 ? ['none'] : [])];
    this.lanes.replaceChildren(
      ...phases.map((phase) => {
        const count = this.counts.get(phase) ?? 0;
        return el(
          'section',
          { class: 'phase-lane', 'data-phase': phase, 'data-count': String(count) },
          el(
            'div',
            { class: 'phase-head' },
            el('span', { class: 'phase-label' }, phase === 'none' ? 'no phase' : phase),
            el('span', { class: 'phase-count muted' }, ` ${formatCount(count)}`),
          ),
          el('ol', { class: 'phase-events' }, ...(this.events.get(phase) ?? []).map(eventLine)),
        );
      }),
    );
  }
}
