/**
 * The Audit Trail table's view of an AuditIndex: which rows pass the filter, how they are grouped by
 * trace, and the "display list" the webview scrolls through. Pure and fast: filtering compares
 * string ids, grouping is a counting sort on trace ids; 100,000 records take a few milliseconds.
 *
 * A display list entry ≥ 0 is a row of the index; an entry < 0 is the header of group -(entry + 1).
 * Newest first (the default) puts the last records, or the last traces to start, at the top; the
 * records inside a trace's group stay in the order they happened, as a trace reads as a story.
 */
import type { AuditItem, AuditViewFilter, AuditViewOptions } from '@shared/auditMessages';
import type { AuditFilter } from '../../kernel';
import type { AuditIndex } from './auditIndex';

export interface TraceGroups {
  /** Trace string id of each group, in order of first appearance. */
  trace: Uint32Array;
  /** Members of group g: rows[start[g] … start[g + 1]). */
  start: Uint32Array;
  rows: Uint32Array;
}

export interface DisplayList {
  items: Int32Array;
  /** Rows that pass the filter, oldest first. */
  matched: Uint32Array;
  groups?: TraceGroups;
}

/** Whether a trace's group is open: every group flips from the default when listed in `exceptions`. */
export interface Expansion {
  all: boolean;
  exceptions: ReadonlySet<string>;
}

export const COLLAPSED: Expansion = { all: false, exceptions: new Set() };

export function isExpanded(expansion: Expansion, trace: string): boolean {
  return expansion.all !== expansion.exceptions.has(trace);
}

/** Results that mark a trace group as having a problem. */
const PROBLEM_RESULTS = new Set([
  'denied',
  'blocked',
  'failure',
  'error',
  'rejected',
  'invalid',
  'not_found',
]);

/** The kernel's AuditFilter for an export with the panel's filter. */
export function toAuditFilter(filter: AuditViewFilter): AuditFilter {
  const out: AuditFilter = {};
  if (filter.types?.length) out.types = [...filter.types];
  if (filter.serverId) out.serverId = filter.serverId;
  if (filter.toolName) out.toolName = filter.toolName;
  if (filter.result) out.result = filter.result;
  if (filter.traceId) out.traceId = filter.traceId.trim();
  if (filter.since) out.since = filter.since;
  if (filter.until) out.until = filter.until;
  return out;
}

type RowTest = (i: number) => boolean;

/** One test per set field, on string ids (a value the index never saw matches nothing). */
function rowTests(index: AuditIndex, filter: AuditViewFilter): RowTest[] | undefined {
  const tests: RowTest[] = [];
  const strings = index.strings;
  const exact = (column: 'server' | 'tool' | 'trace', value: string | undefined): boolean => {
    if (!value) return true;
    const id = strings.idOf(value);
    if (id === undefined) return false;
    tests.push((i) => index.id(column, i) === id);
    return true;
  };
  if (
    !exact('server', filter.serverId) ||
    !exact('tool', filter.toolName) ||
    !exact('trace', filter.traceId?.trim())
  )
    return undefined;
  if (filter.types?.length) {
    const ids = new Set(
      filter.types.map((t) => strings.idOf(t)).filter((id): id is number => id !== undefined),
    );
    if (ids.size === 0) return undefined;
    tests.push((i) => ids.has(index.id('type', i)));
  }
  if (filter.result) {
    const wanted = filter.result.toLowerCase();
    const ids = new Set(
      strings.values.flatMap((v, id) => (v.toLowerCase() === wanted ? [id] : [])),
    );
    if (ids.size === 0) return undefined;
    tests.push((i) => ids.has(index.id('result', i)));
  }
  const since = filter.since ? Date.parse(filter.since) : NaN;
  const until = filter.until ? Date.parse(filter.until) : NaN;
  if (!Number.isNaN(since)) tests.push((i) => index.time(i) >= since);
  if (!Number.isNaN(until)) tests.push((i) => index.time(i) < until);
  return tests;
}

/** The rows that pass `filter`, oldest first; from row `from` on (for appends). */
export function matchingRows(index: AuditIndex, filter: AuditViewFilter, from = 0): Uint32Array {
  const tests = rowTests(index, filter);
  if (!tests) return new Uint32Array(0);
  const out = new Uint32Array(index.length - from);
  let n = 0;
  for (let i = from; i < index.length; i++) {
    let pass = true;
    for (const test of tests)
      if (!test(i)) {
        pass = false;
        break;
      }
    if (pass) out[n++] = i;
  }
  return out.subarray(0, n);
}

/** Groups `rows` by trace id: a counting sort, groups in order of first appearance. */
export function groupByTrace(index: AuditIndex, rows: Uint32Array): TraceGroups {
  const groupOf = new Int32Array(index.strings.size).fill(-1);
  const traces: number[] = [];
  const counts: number[] = [];
  for (const row of rows) {
    const trace = index.id('trace', row);
    let g = groupOf[trace];
    if (g === -1) {
      g = groupOf[trace] = traces.length;
      traces.push(trace);
      counts.push(0);
    }
    counts[g]++;
  }
  const start = new Uint32Array(traces.length + 1);
  for (let g = 0; g < traces.length; g++) start[g + 1] = start[g] + counts[g];
  const fill = start.slice(0, traces.length);
  const members = new Uint32Array(rows.length);
  for (const row of rows) members[fill[groupOf[index.id('trace', row)]]++] = row;
  return { trace: Uint32Array.from(traces), start, rows: members };
}

export function buildDisplay(
  index: AuditIndex,
  options: AuditViewOptions,
  expansion: Expansion = COLLAPSED,
): DisplayList {
  const matched = matchingRows(index, options.filter);
  if (!options.groupByTrace) return { items: flatItems(matched, options.newestFirst), matched };
  const groups = groupByTrace(index, matched);
  const open = (g: number) => isExpanded(expansion, index.strings.values[groups.trace[g]]);
  let total = groups.trace.length;
  for (let g = 0; g < groups.trace.length; g++)
    if (open(g)) total += groups.start[g + 1] - groups.start[g];
  const items = new Int32Array(total);
  let n = 0;
  const count = groups.trace.length;
  for (let k = 0; k < count; k++) {
    const g = options.newestFirst ? count - 1 - k : k;
    items[n++] = -(g + 1);
    if (open(g))
      for (let k = groups.start[g]; k < groups.start[g + 1]; k++) items[n++] = groups.rows[k];
  }
  return { items, matched, groups };
}

/** The display list of matching rows without groups: oldest first, or newest first. */
function flatItems(matched: Uint32Array, newestFirst: boolean): Int32Array {
  const items = Int32Array.from(matched);
  return newestFirst ? items.reverse() : items;
}

/**
 * A flat display list extended by the rows appended to the index since it was built (from row
 * `from`): the cheap path for a live tail when nothing is grouped. Newest first, they go on top.
 */
export function appendToFlat(
  index: AuditIndex,
  display: DisplayList,
  filter: AuditViewFilter,
  from: number,
  newestFirst = false,
): DisplayList {
  const added = matchingRows(index, filter, from);
  if (added.length === 0) return display;
  const matched = new Uint32Array(display.matched.length + added.length);
  matched.set(display.matched);
  matched.set(added, display.matched.length);
  return { items: flatItems(matched, newestFirst), matched };
}

/** How many leading entries two display lists share. */
export function commonPrefix(a: Int32Array, b: Int32Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

function groupItem(
  index: AuditIndex,
  groups: TraceGroups,
  g: number,
  expansion: Expansion,
): AuditItem {
  const from = groups.start[g];
  const to = groups.start[g + 1];
  const types: string[] = [];
  let server = '';
  let tool = '';
  let problem = false;
  for (let k = from; k < to; k++) {
    const row = groups.rows[k];
    const type = index.text('type', row);
    if (types.length < 4 && !types.includes(type)) types.push(type);
    server ||= index.text('server', row);
    tool ||= index.text('tool', row);
    problem ||= PROBLEM_RESULTS.has(index.text('result', row).toLowerCase());
  }
  const trace = index.strings.values[groups.trace[g]];
  const last = groups.rows[to - 1];
  return {
    kind: 'group',
    trace,
    count: to - from,
    first: index.time(groups.rows[from]),
    last: index.time(last),
    expanded: isExpanded(expansion, trace),
    types,
    server,
    tool,
    result: index.text('result', last),
    problem,
  };
}

/** Items [start, start + count) of the display list, ready to send. */
export function displayItems(
  index: AuditIndex,
  display: DisplayList,
  start: number,
  count: number,
  expansion: Expansion = COLLAPSED,
): AuditItem[] {
  const end = Math.min(display.items.length, start + count);
  const items: AuditItem[] = [];
  for (let i = start; i < end; i++) {
    const entry = display.items[i];
    items.push(
      entry >= 0
        ? index.row(entry, display.groups !== undefined)
        : groupItem(index, display.groups as TraceGroups, -entry - 1, expansion),
    );
  }
  return items;
}

/** Where the row holding `seq` is in the display list, or -1 (filtered out, or in a closed group). */
export function displayIndexOfSeq(index: AuditIndex, display: DisplayList, seq: number): number {
  const row = index.find(seq);
  return row === -1 ? -1 : display.items.indexOf(row);
}
