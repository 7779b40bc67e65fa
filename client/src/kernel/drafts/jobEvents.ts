/**
 * MCP draft §4, async jobs with phased events: `{ id, ts, phase, event_type, payload, meta }`, the
 * phase one of observe, abstract, decide, act, verify. The draft names no MCP message for them; the
 * kernel takes them as the notification `notifications/job/event` whose params are the event, with the
 * call's `progressToken` (MCP's way of tying a notification to its request; `request_id`, MGP's, is
 * read too). A stream that resumes after a dropped connection (Streamable HTTP's `Last-Event-ID`) may
 * bring an event again: the log of a call keeps each event id once.
 */
import { type Determinism, determinismIn } from './determinism';

export const JOB_EVENT_METHOD = 'notifications/job/event';

export const PHASES = ['observe', 'abstract', 'decide', 'act', 'verify'] as const;
export type Phase = (typeof PHASES)[number];

export interface JobEvent {
  /** The server's id of the event: what a duplicate is told by. Absent: not numbered. */
  id?: string | number;
  /** When it happened, as the server wrote it. */
  ts?: string | number;
  phase?: Phase;
  eventType: string;
  payload?: unknown;
  /** §2 in the event's `meta`. */
  determinism?: Determinism;
}

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const MAX_ID_CHARS = 200;
const MAX_TYPE_CHARS = 200;

function eventId(value: unknown): string | number | undefined {
  if (Number.isSafeInteger(value)) return value as number;
  if (typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_CHARS) return value;
  return undefined;
}

/** The request a job event belongs to: its progress token, or MGP's `request_id`. */
export function jobEventRequest(params: Loose): string | number | undefined {
  const token = params.progressToken ?? params.request_id;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/** The event in a notification's params; a string saying what is wrong with it otherwise. */
export function parseJobEvent(params: unknown): JobEvent | string {
  if (!isObject(params)) return 'the event is not an object';
  const { phase, event_type: type } = params;
  if (phase !== undefined && !PHASES.includes(phase as Phase))
    return `its phase is not one of ${PHASES.join(', ')}`;
  if (type !== undefined && (typeof type !== 'string' || type.length > MAX_TYPE_CHARS))
    return 'its event_type is not a short string';
  if (params.id !== undefined && eventId(params.id) === undefined)
    return 'its id is neither a whole number nor a short string';
  const ts = typeof params.ts === 'string' || typeof params.ts === 'number' ? params.ts : undefined;
  const determinism = determinismIn(params.meta);
  return {
    ...(params.id !== undefined ? { id: eventId(params.id) } : {}),
    ...(ts !== undefined ? { ts } : {}),
    ...(phase !== undefined ? { phase: phase as Phase } : {}),
    eventType: typeof type === 'string' && type ? type : 'event',
    ...(params.payload !== undefined ? { payload: params.payload } : {}),
    ...(determinism ? { determinism } : {}),
  };
}

/** Events a call's log keeps (the newest); the counts cover them all. */
const KEPT_EVENTS = 1_000;
/** Event ids remembered to tell duplicates by; past it, the oldest are forgotten. */
const REMEMBERED_IDS = 50_000;

/** One call's job events: each id once, counted by phase, the newest kept. */
export class JobEventLog {
  private readonly seen = new Set<string>();
  readonly events: JobEvent[] = [];
  readonly byPhase: Record<Phase | 'none', number> = {
    observe: 0,
    abstract: 0,
    decide: 0,
    act: 0,
    verify: 0,
    none: 0,
  };
  accepted = 0;
  duplicates = 0;
  /** The newest §2 metadata an event carried. */
  determinism?: Determinism;

  /** Takes an event; false for one whose id was already taken (a resumed stream's replay). */
  accept(event: JobEvent): boolean {
    if (event.id !== undefined) {
      const key = `${typeof event.id}:${event.id}`;
      if (this.seen.has(key)) {
        this.duplicates += 1;
        return false;
      }
      this.seen.add(key);
      if (this.seen.size > REMEMBERED_IDS) this.seen.delete(this.seen.values().next().value!);
    }
    this.accepted += 1;
    this.byPhase[event.phase ?? 'none'] += 1;
    if (event.determinism) this.determinism = event.determinism;
    this.events.push(event);
    if (this.events.length > KEPT_EVENTS) this.events.shift();
    return true;
  }

  /** The id of the last event taken, as a resumed stream would continue after. */
  get lastId(): string | number | undefined {
    for (let i = this.events.length - 1; i >= 0; i--)
      if (this.events[i].id !== undefined) return this.events[i].id;
    return undefined;
  }
}

/** A line of text for an event's payload: its `content` when that is text, else its JSON. */
export function payloadSummary(payload: unknown, max = 200): string {
  const text =
    isObject(payload) && typeof payload.content === 'string'
      ? payload.content
      : payload === undefined
        ? ''
        : (JSON.stringify(payload) ?? '');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
