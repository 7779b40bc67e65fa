/**
 * Verification of a whole log: every line, every link of the chain across files, and both ends
 * against chain.json (see anchor.ts for what each end proves). The first problem is reported with
 * the seq where the chain stops being right, the file, the 1-based line, and why.
 *
 * `verify` only reads: it never repairs. An incomplete last line is a problem unless a live writer
 * holds the log (then it is a record being written).
 */
import { ANCHOR_FILE, ChainAnchor, readAnchor } from './anchor';
import { checkLine, GENESIS_HASH, type ChainLink } from './chain';
import { headPins, missingPin, Pin, PinProblemKind, SealReport, VerifyOptions } from './headPins';
import { isCode } from '../store/atomicFile';
import { FileLine, readLines } from './lines';
import { lockHolder } from './lock';
import { listSegments, Segment, segmentName } from './segments';

export type ChainProblemKind =
  | 'unreadable_anchor'
  | 'unparseable'
  | 'malformed'
  | 'hash_mismatch'
  | 'not_canonical'
  | 'torn_line'
  | 'missing_start'
  | 'seq_gap'
  | 'seq_out_of_order'
  | 'chain_break'
  | 'truncated'
  | 'checkpoint_mismatch'
  | 'missing_anchor'
  | 'anchor_lost'
  | PinProblemKind;

export interface ChainProblem {
  kind: ChainProblemKind;
  /** The first seq at which the chain is not what it should be. */
  seq: number | null;
  /** The file's name (in the log's directory), and the 1-based line in it. */
  file: string | null;
  line: number | null;
  reason: string;
}

export interface VerifyReport {
  ok: boolean;
  directory: string;
  files: string[];
  records: number;
  firstSeq: number | null;
  lastSeq: number | null;
  /** The hash of the last record: copy it elsewhere to pin the log's current state. */
  headHash: string | null;
  problem: ChainProblem | null;
  notes: string[];
  /** This host's seal of chain.json, when a key was looked up (headPins.ts). */
  seal: SealReport | null;
}

class ChainWalk {
  last: ChainLink | undefined;
  firstSeq: number | null = null;
  records = 0;
  problem: ChainProblem | null = null;
  checkpointSeen = false;
  lastPlace: { file: string; line: number } | undefined;
  readonly notes: string[] = [];
  private readonly pinsSeen = new Set<Pin>();
  /** A loss the checked seal carries, when chain.json itself no longer does. */
  sealedLoss: ChainAnchor['lost'];

  constructor(
    private readonly anchor: ChainAnchor,
    private readonly writerLive: boolean,
    private readonly pins: readonly Pin[] = [],
  ) {}

  private fail(
    kind: ChainProblemKind,
    seq: number | null,
    file: string | null,
    line: number | null,
    reason: string,
  ): void {
    this.problem ??= { kind, seq, file, line, reason };
  }

  private get next(): number {
    return (this.last?.seq ?? (this.anchor.start ? this.anchor.start.seq - 1 : 0)) + 1;
  }

  visit(line: FileLine, segment: Segment, missingBefore: string, isLastLine: boolean): void {
    const at = [segment.name, line.number] as const;
    if (!line.complete) {
      if (isLastLine && this.writerLive)
        return void this.notes.push(`${segment.name}:${line.number}: a record is being written`);
      const why = isLastLine
        ? 'a write was interrupted (it held no acknowledged record: opening the log cuts it off) or the file was truncated'
        : 'the file was truncated in the middle of the log';
      return this.fail(
        'torn_line',
        this.next,
        ...at,
        `line ${line.number} is incomplete (${Buffer.byteLength(line.text)} bytes without a newline): ${why}`,
      );
    }
    const check = checkLine(line.text);
    if (!check.ok) return this.fail(check.kind, check.seq ?? this.next, ...at, check.reason);
    const record = check.record;
    if (this.last === undefined)
      this.checkFirst(record.seq, record.prev_hash, segment, line.number);
    else this.checkLink(record.seq, record.prev_hash, segment, line.number, missingBefore);
    this.checkAnchor(record.seq, record.prev_hash, record.hash, segment, line.number);
    if (this.problem) return;
    this.firstSeq ??= record.seq;
    this.last = { seq: record.seq, hash: record.hash };
    this.records++;
    this.lastPlace = { file: segment.name, line: line.number };
  }

  private checkFirst(seq: number, prevHash: string, segment: Segment, line: number): void {
    const start = this.anchor.start;
    if (!start) {
      if (seq !== 1)
        this.fail(
          'missing_start',
          1,
          segment.name,
          line,
          `the log starts at seq ${seq} and ${ANCHOR_FILE} records no retention pass: records 1–${seq - 1} are missing (an old file deleted by hand?)`,
        );
      else if (prevHash !== GENESIS_HASH)
        this.fail('chain_break', 1, segment.name, line, 'seq 1 does not chain to the genesis hash');
    } else if (seq > start.seq) {
      this.fail(
        'missing_start',
        start.seq,
        segment.name,
        line,
        `${ANCHOR_FILE} says retention kept the log from seq ${start.seq} (${start.file}), but it starts at seq ${seq}: records ${start.seq}–${seq - 1} are missing (a file deleted by hand?)`,
      );
    } else if (seq < start.seq) {
      this.notes.push(
        `records before seq ${start.seq} are left from an interrupted retention pass; the next open deletes them`,
      );
    }
  }

  private checkLink(
    seq: number,
    prevHash: string,
    segment: Segment,
    line: number,
    missingBefore: string,
  ): void {
    const expected = (this.last as ChainLink).seq + 1;
    const missing = missingBefore ? ` (${missingBefore} is missing)` : '';
    if (seq > expected) {
      const range =
        seq - 1 > expected ? `records ${expected}–${seq - 1} are` : `record ${expected} is`;
      this.fail(
        'seq_gap',
        expected,
        segment.name,
        line,
        `expected seq ${expected}, found seq ${seq}: ${range} missing or moved${missing}`,
      );
    } else if (seq < expected) {
      this.fail(
        'seq_out_of_order',
        expected,
        segment.name,
        line,
        `expected seq ${expected}, found seq ${seq} again: records were moved or duplicated`,
      );
    } else if (prevHash !== (this.last as ChainLink).hash) {
      this.fail(
        'chain_break',
        seq,
        segment.name,
        line,
        `prev_hash does not match the hash of seq ${seq - 1}: a record before this one was replaced or re-hashed`,
      );
    }
  }

  private checkAnchor(
    seq: number,
    prevHash: string,
    hash: string,
    segment: Segment,
    line: number,
  ): void {
    const { start, head } = this.anchor;
    if (start && seq === start.seq && prevHash !== start.prev_hash) {
      this.fail(
        'chain_break',
        seq,
        segment.name,
        line,
        `seq ${seq} does not chain to the prev_hash that ${ANCHOR_FILE} recorded when older files were pruned`,
      );
    }
    if (head && seq === head.seq) {
      this.checkpointSeen = true;
      if (hash !== head.hash)
        this.fail(
          'checkpoint_mismatch',
          seq,
          segment.name,
          line,
          `seq ${seq} is not the record checkpointed in ${ANCHOR_FILE} (hash ${head.hash.slice(0, 12)}…): it was replaced`,
        );
    }
    for (const pin of this.pins) {
      if (pin.seq === undefined ? hash === pin.hash : seq === pin.seq) this.pinsSeen.add(pin);
      if (pin.seq === seq && hash !== pin.hash)
        this.fail(
          'checkpoint_mismatch',
          seq,
          segment.name,
          line,
          `seq ${seq} is not ${pin.what} (hash ${pin.hash.slice(0, 12)}…): it was replaced`,
        );
    }
  }

  finish(lastSegment: Segment | undefined, anchorPresent: boolean): void {
    this.checkTail(lastSegment);
    this.checkPins();
    this.checkAnchorKept(anchorPresent);
  }

  /** Pinned records that the log no longer holds. */
  private checkPins(): void {
    if (this.problem) return;
    const lastSeq = this.last?.seq ?? 0;
    const missing = missingPin(this.pins, this.pinsSeen, this.firstSeq, lastSeq);
    const place = this.lastPlace;
    if (missing)
      this.fail(
        missing.kind,
        missing.seq,
        place?.file ?? null,
        place && missing.seq ? place.line + 1 : null,
        missing.reason,
      );
  }

  /** Records cut off the end, back to the head checkpoint. */
  private checkTail(lastSegment: Segment | undefined): void {
    const head = this.anchor.head;
    if (this.problem || !head || head.seq <= 0 || this.checkpointSeen) return;
    const lastSeq = this.last?.seq ?? 0;
    if (this.firstSeq !== null && head.seq < this.firstSeq) return;
    const file = this.lastPlace?.file ?? lastSegment?.name ?? head.file;
    const line = this.lastPlace && this.lastPlace.file === file ? this.lastPlace.line + 1 : 1;
    const range =
      head.seq > lastSeq + 1 ? `records ${lastSeq + 1}–${head.seq} were` : `record ${head.seq} was`;
    this.fail(
      'truncated',
      lastSeq + 1,
      file,
      line,
      `the log ends at seq ${lastSeq}, but ${ANCHOR_FILE} checkpointed seq ${head.seq} (${head.file}): ${range} cut off the end`,
    );
  }

  /**
   * A log with records has chain.json with a head checkpoint, or records cut off its end could not
   * be seen (anchor.ts); and a loss found when the log was opened stays reported.
   */
  private checkAnchorKept(present: boolean): void {
    if (this.problem || this.records === 0) return;
    const missing = !present
      ? `${ANCHOR_FILE} is missing`
      : !this.anchor.head
        ? `${ANCHOR_FILE} has no head checkpoint`
        : undefined;
    if (missing)
      return this.fail(
        'missing_anchor',
        null,
        ANCHOR_FILE,
        null,
        `${missing}: records cut off the end of the log cannot be detected without it (deleted by hand?)`,
      );
    const lost = this.anchor.lost ?? this.sealedLoss;
    if (lost)
      this.fail(
        'anchor_lost',
        lost.seq,
        ANCHOR_FILE,
        null,
        `${lost.why ?? `${ANCHOR_FILE} was missing`} when the log was opened at ${lost.at}, with records up to seq ${lost.seq}: records cut off the end before then cannot be detected`,
      );
  }
}

function missingNames(previous: Segment | undefined, segment: Segment): string {
  if (!previous || segment.index === previous.index + 1) return '';
  const names = [];
  for (let i = previous.index + 1; i < segment.index && names.length < 3; i++)
    names.push(segmentName(i));
  return segment.index - previous.index - 1 > 3 ? `${names.join(', ')}, …` : names.join(', ');
}

async function walk(dir: string, options: VerifyOptions): Promise<VerifyReport> {
  const report: VerifyReport = {
    ok: false,
    directory: dir,
    files: [],
    records: 0,
    firstSeq: null,
    lastSeq: null,
    headHash: null,
    problem: null,
    notes: [],
    seal: null,
  };
  const anchorRead = await readAnchor(dir);
  if (!anchorRead.ok)
    return {
      ...report,
      problem: {
        kind: 'unreadable_anchor',
        seq: null,
        file: ANCHOR_FILE,
        line: null,
        reason: anchorRead.reason,
      },
    };
  const pinned = headPins(anchorRead.anchor, options);
  if (pinned.problem)
    return {
      ...report,
      notes: pinned.notes,
      seal: pinned.seal,
      problem: { ...pinned.problem, seq: null, file: ANCHOR_FILE, line: null },
    };
  const segments = await listSegments(dir);
  const live = (await lockHolder(dir)) !== undefined;
  const chain = new ChainWalk(anchorRead.anchor, live, pinned.pins);
  chain.sealedLoss = pinned.lost;
  for (let i = 0; i < segments.length && !chain.problem; i++) {
    const segment = segments[i];
    const missing = missingNames(segments[i - 1], segment);
    let pendingLine: FileLine | undefined;
    for await (const line of readLines(segment.path)) {
      if (pendingLine)
        chain.visit(pendingLine, segment, pendingLine.number === 1 ? missing : '', false);
      if (chain.problem) break;
      pendingLine = line;
    }
    if (pendingLine && !chain.problem)
      chain.visit(
        pendingLine,
        segment,
        pendingLine.number === 1 ? missing : '',
        i === segments.length - 1,
      );
  }
  chain.finish(segments[segments.length - 1], anchorRead.present);
  return {
    ...report,
    ok: chain.problem === null,
    files: segments.map((s) => s.name),
    records: chain.records,
    firstSeq: chain.firstSeq,
    lastSeq: chain.last?.seq ?? null,
    headHash: chain.last?.hash ?? null,
    problem: chain.problem,
    notes: [...pinned.notes, ...chain.notes],
    seal: pinned.seal,
  };
}

/**
 * Verifies the log in `dir`, and its end against this host's seal and a pinned head when `options`
 * give them (headPins.ts). A file pruned while it is being read restarts the pass (at most 3 times).
 */
export async function verifyAuditLog(
  dir: string,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await walk(dir, options);
    } catch (error) {
      if (!isCode(error, 'ENOENT') || attempt === 3) throw error;
    }
  }
}
