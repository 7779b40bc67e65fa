/**
 * How long a server may take to connect (MGP §11.2's `connecting` state): `connect_timeout_secs`
 * without a sign of life, where a sign of life is a line on stderr or CPU time spent by the
 * server's processes (a first `npx -y` downloading its package works silently). A server that
 * keeps working gets more periods, up to a cap; one that does nothing fails after one, saying so.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { KernelError, TIMEOUT } from '../domain/errors';

/** Periods with signs of life a server may use to connect before it is given up on. */
export const CONNECT_PERIODS_CAP = 10;
/** CPU time in a period (in clock ticks, 1/100 s on Linux) that counts as working. */
const WORKING_TICKS = 10;

/** What a stdio server still starting showed in its last period: it works, so it waits longer. */
export interface StartProgress {
  /** Since the deadline began. */
  elapsedMs: number;
  /** The signs of life it gave in the last period. */
  signs: ('stderr' | 'cpu')[];
  /** The longest it may take: CONNECT_PERIODS_CAP periods. */
  capMs: number;
}

/** A straggler's state in words: still starting, working, and how long it may take. */
export function describeProgress(progress: StartProgress): string {
  const signs = progress.signs
    .map((sign) => (sign === 'stderr' ? 'writing to stderr' : 'using CPU time'))
    .join(' and ');
  return `still starting after ${Math.round(progress.elapsedMs / 1000)} s, ${signs} (a first download?); it may take up to ${progress.capMs / 1000} s`;
}

export class ConnectDeadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private periods = 0;
  private stderrLines = 0;
  private lastTicks: number | undefined;

  constructor(
    private readonly periodMs: number,
    /** The server's process, whose CPU time (and its descendants') counts, once it runs. */
    private readonly process: () => number | undefined = () => undefined,
    /** Told at the end of each period in which the server worked, as it gets another. */
    private readonly onProgress: (progress: StartProgress) => void = () => undefined,
  ) {
    this.timer = setTimeout(() => this.check(), periodMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The longest the connection may take. */
  get capMs(): number {
    return this.periodMs * CONNECT_PERIODS_CAP;
  }

  /** A line the server wrote to stderr. */
  stderrLine(): void {
    this.stderrLines++;
  }

  done(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private check(): void {
    this.periods++;
    const signs: StartProgress['signs'] = [];
    if (this.stderrLines > 0) signs.push('stderr');
    if (this.spentCpu()) signs.push('cpu');
    const working = signs.length > 0;
    this.stderrLines = 0;
    const seconds = (this.periodMs * this.periods) / 1000;
    if (working && this.periods < CONNECT_PERIODS_CAP) {
      this.timer = setTimeout(() => this.check(), this.periodMs);
      this.onProgress({ elapsedMs: this.periodMs * this.periods, signs, capMs: this.capMs });
      return;
    }
    const why = working
      ? `still starting after ${seconds} s, working all along (a first download?); the limit is ${CONNECT_PERIODS_CAP} × connect_timeout_secs`
      : `no answer to initialize, and no sign of work (no output, no CPU time) for ${this.periodMs / 1000} s (connect_timeout_secs)`;
    this.controller.abort(new KernelError('Timeout', why, TIMEOUT));
  }

  private spentCpu(): boolean {
    const pid = this.process();
    if (pid === undefined) return false;
    const ticks = treeCpuTicks(pid);
    if (ticks === undefined) return false;
    const before = this.lastTicks ?? 0;
    this.lastTicks = ticks;
    return ticks - before >= WORKING_TICKS;
  }
}

/**
 * CPU ticks (user and system, with those of reaped children) of a process and its descendants, from
 * Linux's `/proc` (proc(5)); undefined elsewhere. Descendants rather than the process group: inside
 * a sandbox the server runs in a session of its own.
 */
export function treeCpuTicks(root: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // The fields after the command's closing parenthesis, from the 3rd (state): ppid is the 4th,
    // utime, stime, cutime and cstime the 14th to 17th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(entry);
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), pid]);
    ticks.set(
      pid,
      fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0),
    );
  }
  if (!ticks.has(root)) return undefined;
  let total = 0;
  const pending = [root];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    total += ticks.get(pid) ?? 0;
    pending.push(...(children.get(pid) ?? []));
  }
  return total;
}
