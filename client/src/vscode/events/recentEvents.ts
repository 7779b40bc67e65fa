/**
 * The Events view's rows kept across window reloads, as the audit log is: the newest 200, in the
 * workspace's state. What comes back is checked row by row (a row of another shape is dropped), and
 * a row too large to keep (an event with a big payload) is left out rather than stored.
 */
import type { PushEvent, ServerEvent } from '../../kernel';

export type EventRow = { kind: 'mgp'; event: ServerEvent } | { kind: 'push'; event: PushEvent };

/** Where rows are kept (the workspace's `Memento`). */
export interface RowStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY = 'mgp.events.recent';
export const KEPT_ACROSS_RELOADS = 200;
const MAX_ROW_CHARS = 32 * 1024;
const SEVERITIES = new Set(['info', 'warning', 'error']);
const STATUSES = new Set(['queued', 'delivered', 'rejected']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isRow(value: unknown): value is EventRow {
  if (!isRecord(value) || !isRecord(value.event)) return false;
  const event = value.event;
  if (value.kind === 'mgp')
    return (
      typeof event.server_id === 'string' &&
      typeof event.channel === 'string' &&
      typeof event.timestamp === 'string' &&
      SEVERITIES.has(event.severity as string)
    );
  return (
    value.kind === 'push' &&
    typeof event.serverId === 'string' &&
    typeof event.featureSet === 'string' &&
    typeof event.receivedAt === 'string' &&
    Array.isArray(event.content) &&
    STATUSES.has(event.status as string)
  );
}

/** The rows the last window kept, newest first. */
export function restoredRows(store: RowStore): EventRow[] {
  const kept = store.get<unknown>(KEY);
  return Array.isArray(kept) ? kept.filter(isRow).slice(0, KEPT_ACROSS_RELOADS) : [];
}

/** Keeps the newest rows for the next window. */
export function keepRows(store: RowStore, rows: readonly EventRow[]): Thenable<void> {
  const kept: EventRow[] = [];
  for (const row of rows) {
    if (kept.length === KEPT_ACROSS_RELOADS) break;
    if (JSON.stringify(row).length <= MAX_ROW_CHARS) kept.push(row);
  }
  return store.update(KEY, kept);
}
