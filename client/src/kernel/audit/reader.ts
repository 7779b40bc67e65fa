/**
 * Reading a log: forwards with a filter, the last n records, and following new records as a writer
 * (in this process or another) appends them. Readers are lenient: a line that is not a record (or
 * an incomplete last line being written) is skipped; `verify` is the strict one. A file pruned by
 * retention while it is read is simply over.
 */
import type { AuditRecord } from './auditEvent';
import { isCode } from '../store/atomicFile';
import { AuditFilter, compileFilter, CompiledFilter } from './filter';
import { readLines } from './lines';
import { listSegments, Segment } from './segments';

export interface ReadOptions {
  /** Only records with a seq above this. */
  afterSeq?: number;
  /** Only records up to this seq (e.g. the last durable one). */
  maxSeq?: number;
}

function parse(text: string): AuditRecord | undefined {
  try {
    const value = JSON.parse(text) as AuditRecord;
    return typeof value === 'object' && value !== null && Number.isSafeInteger(value.seq)
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/** The records of one file that pass `filter`, with the end of the last complete line. */
async function* fileRecords(
  segment: Segment,
  filter: CompiledFilter,
  options: ReadOptions,
  from = 0,
): AsyncGenerator<{ record?: AuditRecord; end: number }> {
  try {
    for await (const line of readLines(segment.path, from)) {
      if (!line.complete) return;
      const end = line.end;
      if (!filter.line(line.text)) {
        yield { end };
        continue;
      }
      const record = parse(line.text);
      const wanted =
        record &&
        record.seq > (options.afterSeq ?? 0) &&
        record.seq <= (options.maxSeq ?? Infinity) &&
        filter.record(record);
      yield { record: wanted ? record : undefined, end };
    }
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
}

/** Every record of the log in `dir` that passes `filter`, oldest first. */
export async function* readRecords(
  dir: string,
  filter: AuditFilter = {},
  options: ReadOptions = {},
): AsyncGenerator<AuditRecord> {
  const compiled = compileFilter(filter);
  for (const segment of await listSegments(dir)) {
    for await (const { record } of fileRecords(segment, compiled, options))
      if (record) yield record;
  }
}

/** The last `n` records that pass `filter`, oldest first. */
export async function tailRecords(
  dir: string,
  n: number,
  filter: AuditFilter = {},
  options: ReadOptions = {},
): Promise<AuditRecord[]> {
  const compiled = compileFilter(filter);
  let found: AuditRecord[] = [];
  const segments = await listSegments(dir);
  for (let i = segments.length - 1; i >= 0 && found.length < n && n > 0; i--) {
    const inFile: AuditRecord[] = [];
    for await (const { record } of fileRecords(segments[i], compiled, options)) {
      if (!record) continue;
      inFile.push(record);
      if (inFile.length >= 2 * n) inFile.splice(0, inFile.length - n);
    }
    found = inFile.concat(found).slice(-n);
  }
  return found;
}

export interface FollowOptions extends ReadOptions {
  /** Stops following (the iteration then ends). */
  signal?: AbortSignal;
  /** How often to look for new records; 250 ms by default. */
  pollMs?: number;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Records appended from now on (or after `afterSeq`), as they reach the files, until `signal` aborts.
 * Works across processes: it polls the files, reading only what is new.
 */
export async function* followRecords(
  dir: string,
  filter: AuditFilter = {},
  options: FollowOptions = {},
): AsyncGenerator<AuditRecord> {
  const compiled = compileFilter(filter);
  let afterSeq = options.afterSeq ?? (await tailRecords(dir, 1))[0]?.seq ?? 0;
  let position: { index: number; offset: number } = { index: 0, offset: 0 };
  while (!options.signal?.aborted) {
    for (const segment of await listSegments(dir)) {
      if (segment.index < position.index) continue;
      if (segment.index > position.index) position = { index: segment.index, offset: 0 };
      for await (const { record, end } of fileRecords(
        segment,
        compiled,
        { ...options, afterSeq },
        position.offset,
      )) {
        if (options.signal?.aborted) return;
        position.offset = end;
        if (!record) continue;
        afterSeq = record.seq;
        yield record;
      }
    }
    await sleep(options.pollMs ?? 250, options.signal);
  }
}
