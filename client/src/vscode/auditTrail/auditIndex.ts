/**
 * A compact, columnar index of an audit log for the Audit Trail panel: for each record, what its
 * table row shows (seq, time, its sentence, permission, type, server, tool, result, actor, trace) and where the record lies on
 * disk (file and byte offset), so the full record is read back only when the detail pane asks for it.
 * Strings repeat (types, servers, tools, results, actors; the trace id of a trace's several events):
 * each distinct string is kept once and rows hold numbers in typed arrays. About 60 bytes per record
 * plus the distinct strings; no record object is kept.
 */
import type { LogPosition } from '../../kernel';
import type { AuditFacets, AuditRowItem } from '@shared/auditMessages';
import { auditPermission, auditSentence } from '@shared/auditSentence';

/** Each distinct string once; id 0 is the empty string. */
export class StringTable {
  private readonly ids = new Map<string, number>([['', 0]]);
  readonly values: string[] = [''];
  private chars = 0;

  intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
      this.chars += value.length;
    }
    return id;
  }

  idOf(value: string): number | undefined {
    return this.ids.get(value);
  }

  get size(): number {
    return this.values.length;
  }

  /** Estimated heap bytes: string bodies and headers, the array slot, and the map entry. */
  get bytes(): number {
    return this.chars + this.values.length * (16 + 8 + 28);
  }
}

/** The fields of a record the index reads (a parsed log line). */
export interface IndexedFields {
  seq: number;
  timestamp: string;
  event_type: string;
  trace_id: string;
  result: string;
  actor?: { type?: string; id?: string };
  target?: { server_id?: string; tool_name?: string };
  details?: Record<string, unknown>;
}

/** Where a record's line is in the log. */
export type RecordPosition = LogPosition;

type Column = 'type' | 'server' | 'tool' | 'result' | 'actor' | 'trace' | 'sentence' | 'permission';
const COLUMNS: Column[] = [
  'type',
  'server',
  'tool',
  'result',
  'actor',
  'trace',
  'sentence',
  'permission',
];

/** The row's sentence and permission, made once from the whole record (its details are not kept). */
function described(record: IndexedFields): { sentence: string; permission: string } {
  const fields = {
    event_type: String(record.event_type ?? ''),
    actor: record.actor,
    target: record.target,
    result: String(record.result ?? ''),
    details:
      record.details && typeof record.details === 'object' && !Array.isArray(record.details)
        ? record.details
        : {},
  };
  try {
    return { sentence: auditSentence(fields), permission: auditPermission(fields) };
  } catch {
    return { sentence: fields.event_type, permission: '' };
  }
}

function grow<T extends Float64Array | Uint32Array>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (n: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}

export class AuditIndex {
  readonly strings = new StringTable();
  private count = 0;
  private seqs = new Float64Array(1024);
  private times = new Float64Array(1024);
  private offsets = new Float64Array(1024);
  private segments = new Uint32Array(1024);
  private readonly ids: Record<Column, Uint32Array> = Object.fromEntries(
    COLUMNS.map((c) => [c, new Uint32Array(1024)]),
  ) as Record<Column, Uint32Array>;
  private readonly facetIds = {
    types: new Set<number>(),
    servers: new Set<number>(),
    tools: new Set<number>(),
    results: new Set<number>(),
  };
  private ordered = true;

  get length(): number {
    return this.count;
  }

  get lastSeq(): number {
    return this.count ? this.seqs[this.count - 1] : 0;
  }

  private ensure(capacity: number): void {
    if (capacity <= this.seqs.length) return;
    const next = Math.max(capacity, this.seqs.length * 2);
    this.seqs = grow(this.seqs, next);
    this.times = grow(this.times, next);
    this.offsets = grow(this.offsets, next);
    this.segments = grow(this.segments, next);
    for (const column of COLUMNS) this.ids[column] = grow(this.ids[column], next);
  }

  add(record: IndexedFields, position: RecordPosition): void {
    const i = this.count;
    this.ensure(i + 1);
    if (i > 0 && record.seq <= this.seqs[i - 1]) this.ordered = false;
    this.seqs[i] = record.seq;
    const time = Date.parse(record.timestamp);
    this.times[i] = Number.isNaN(time) ? 0 : time;
    this.offsets[i] = position.offset;
    this.segments[i] = position.segment;
    const s = this.strings;
    const values: Record<Column, string> = {
      type: String(record.event_type ?? ''),
      server: String(record.target?.server_id ?? ''),
      tool: String(record.target?.tool_name ?? ''),
      result: String(record.result ?? ''),
      actor: record.actor ? `${record.actor.type ?? ''}:${record.actor.id ?? ''}` : '',
      trace: String(record.trace_id ?? ''),
      ...described(record),
    };
    for (const column of COLUMNS) this.ids[column][i] = s.intern(values[column]);
    this.facetIds.types.add(this.ids.type[i]);
    this.facetIds.servers.add(this.ids.server[i]);
    this.facetIds.tools.add(this.ids.tool[i]);
    this.facetIds.results.add(this.ids.result[i]);
    this.count = i + 1;
  }

  seq(i: number): number {
    return this.seqs[i];
  }

  time(i: number): number {
    return this.times[i];
  }

  /** The string id of a column of row i. */
  id(column: Column, i: number): number {
    return this.ids[column][i];
  }

  text(column: Column, i: number): string {
    return this.strings.values[this.ids[column][i]];
  }

  position(i: number): RecordPosition {
    return { segment: this.segments[i], offset: this.offsets[i] };
  }

  /** The row holding `seq`, or -1. */
  find(seq: number): number {
    if (!this.ordered) return this.seqs.subarray(0, this.count).indexOf(seq);
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const value = this.seqs[mid];
      if (value === seq) return mid;
      if (value < seq) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  row(i: number, inGroup: boolean): AuditRowItem {
    return {
      kind: 'row',
      seq: this.seqs[i],
      time: this.times[i],
      type: this.text('type', i),
      server: this.text('server', i),
      tool: this.text('tool', i),
      result: this.text('result', i),
      actor: this.text('actor', i),
      trace: this.text('trace', i),
      sentence: this.text('sentence', i),
      permission: this.text('permission', i),
      inGroup,
    };
  }

  facets(): AuditFacets {
    const sorted = (ids: Set<number>) =>
      [...ids]
        .map((id) => this.strings.values[id])
        .filter((v) => v !== '')
        .sort((a, b) => a.localeCompare(b));
    return {
      types: sorted(this.facetIds.types),
      servers: sorted(this.facetIds.servers),
      tools: sorted(this.facetIds.tools),
      results: sorted(this.facetIds.results),
    };
  }

  /** How many distinct values the facets hold: a cheap way to see whether they changed. */
  get facetSize(): number {
    const f = this.facetIds;
    return f.types.size + f.servers.size + f.tools.size + f.results.size;
  }

  /** Estimated heap bytes of the index: its typed arrays (with their spare capacity) and strings. */
  get bytes(): number {
    const arrays = [
      this.seqs,
      this.times,
      this.offsets,
      this.segments,
      ...COLUMNS.map((c) => this.ids[c]),
    ];
    return arrays.reduce((sum, a) => sum + a.byteLength, 0) + this.strings.bytes;
  }
}
