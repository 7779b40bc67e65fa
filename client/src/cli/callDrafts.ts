/**
 * `mgp call`'s part of the MCP draft extensions (Nov 2025): `--seed N` and `--prng lcg|xoroshiro`
 * (§2), given only to a tool whose input schema declares them; `--repeat N`, which runs the call N
 * times and says how many results were identical (the draft's same-seed reproducibility); the seed
 * and determinism a result reports (§2); and the job events of a streamed call, labelled by phase
 * (§4).
 */
import {
  canonicalJson,
  type Determinism,
  determinismOf,
  type JobEvent,
  type Kernel,
  payloadSummary,
  PRNGS,
  type Prng,
  type StreamSnapshot,
  seedRefusal,
  withSeed,
} from '../kernel';
import { type FlagValues, oneOf, UsageError, wholeNumber } from './flags';
import type { Io } from './io';

export const DRAFT_CALL_FLAGS = {
  seed: { type: 'string', value: 'N' },
  prng: { type: 'string', value: 'lcg|xoroshiro' },
  repeat: { type: 'string', value: 'N' },
} as const;

export interface DraftCallOptions {
  seed?: number;
  prng?: Prng;
  /** Run the call this many times and compare the results. */
  repeat?: number;
}

/** The most runs `--repeat` makes. */
export const MAX_REPEAT = 10_000;

export function draftCallOptions(
  values: FlagValues<typeof DRAFT_CALL_FLAGS>,
  args: Record<string, unknown>,
): DraftCallOptions {
  let seed: number | undefined;
  if (values.seed !== undefined) {
    seed = Number(values.seed);
    if (values.seed.trim() === '' || !Number.isSafeInteger(seed))
      throw new UsageError(`--seed takes a whole number, not "${values.seed}"`);
    if ('seed' in args) throw new UsageError('--seed and a seed in --args: give it once');
  }
  const prng = oneOf('prng', values.prng, PRNGS);
  if (prng !== undefined && 'prng' in args)
    throw new UsageError('--prng and a prng in --args: give it once');
  const repeat =
    values.repeat === undefined ? undefined : wholeNumber('repeat', values.repeat, 1, 1);
  if (repeat !== undefined && repeat > MAX_REPEAT)
    throw new UsageError(`--repeat takes at most ${MAX_REPEAT} runs`);
  return { seed, prng, repeat };
}

/**
 * The arguments with the seed asked for, for a tool that declares it; a UsageError naming why not
 * otherwise. A tool the kernel does not list keeps them as given: the call is refused as unknown.
 */
export function seededArguments(
  kernel: Kernel,
  target: { serverId: string; toolName: string },
  args: Record<string, unknown>,
  asked: DraftCallOptions,
): Record<string, unknown> {
  if (asked.seed === undefined && asked.prng === undefined) return args;
  const entry = kernel
    .tools()
    .find((t) => t.serverId === target.serverId && t.name === target.toolName);
  if (!entry) return { ...args, seed: asked.seed, prng: asked.prng };
  const refusal = seedRefusal(entry.tool.inputSchema, asked);
  if (refusal) throw new UsageError(`${target.serverId}.${target.toolName}: ${refusal}`);
  return withSeed(entry.tool.inputSchema, args, asked);
}

/** "seed_used 42, determinism strict (the server's word)". */
export function determinismLine(found: Determinism): string {
  const seed = found.seedUsed === null ? 'no seed used' : `seed_used ${found.seedUsed}`;
  return `${seed}${found.determinism ? `, determinism ${found.determinism}` : ''} (as the server says)`;
}

/** `_kernel`'s fields for a result that says its seed. */
export function determinismJson(result: unknown): Record<string, unknown> {
  const found = determinismOf(result);
  if (!found) return {};
  return {
    seed_used: found.seedUsed,
    ...(found.determinism ? { determinism: found.determinism } : {}),
  };
}

/** What two runs are compared by: content, structured content, the error flag (never `_meta`). */
export function resultFingerprint(result: {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}): string {
  return canonicalJson({
    content: result.content ?? [],
    structuredContent: result.structuredContent ?? null,
    isError: result.isError === true,
  });
}

/** How N runs compare: how many were identical to the first, how many distinct results. */
export interface RepeatReport {
  runs: number;
  identical: number;
  distinct: number;
  seedsUsed: (number | null)[];
}

export function compareRuns(results: unknown[]): RepeatReport {
  const prints = results.map((r) => resultFingerprint(r as Record<string, unknown>));
  return {
    runs: results.length,
    identical: prints.filter((p) => p === prints[0]).length,
    distinct: new Set(prints).size,
    seedsUsed: results.map((r) => determinismOf(r)?.seedUsed ?? null),
  };
}

export function repeatLine(report: RepeatReport, seed: number | undefined): string {
  const asked = seed === undefined ? 'no seed given' : `seed ${seed}`;
  const used = [...new Set(report.seedsUsed.filter((s) => s !== null))];
  const said = used.length ? `; seed_used ${used.join(', ')}` : '';
  return `repeat: ${report.identical} of ${report.runs} results identical to the first (${asked}${said}; ${report.distinct} distinct)`;
}

/** `[verify] synthesis_token #128: text`: one job event, labelled by its phase. */
export function jobEventLine(event: JobEvent): string {
  const phase = `[${event.phase ?? 'no phase'}]`;
  const id = event.id !== undefined ? ` #${event.id}` : '';
  const text = payloadSummary(event.payload);
  return `${phase} ${event.eventType}${id}${text ? `: ${text}` : ''}`;
}

/** The stream's job events in one line, for the summary at its end; empty when there were none. */
export function jobSummary(snapshot: StreamSnapshot | undefined): string {
  const jobs = snapshot?.jobs;
  if (!jobs) return '';
  const counts = Object.entries(jobs.phases)
    .filter(([, n]) => n > 0)
    .map(([phase, n]) => `${phase} ${n}`)
    .join(', ');
  const total = Object.values(jobs.phases).reduce((a, b) => a + b, 0);
  const replays = jobs.duplicates
    ? `; ${jobs.duplicates} replayed event${jobs.duplicates === 1 ? '' : 's'} dropped`
    : '';
  return `, ${total} job event${total === 1 ? '' : 's'} (${counts})${replays}`;
}

/** Prints the determinism line of a result on stderr, when it says one. */
export function sayDeterminism(io: Io, result: unknown): void {
  const found = determinismOf(result);
  if (found) io.err(determinismLine(found));
}
