/**
 * What the panels show of the MCP draft extensions (Nov 2025): the seed and PRNG fields a tool
 * declares (§2), what a result or a stream says of its seed (§2), and a stream's job events by phase
 * (§4). Sent by the host; the webviews render them.
 */

/** §2: the fields the Run Tool form puts under its advanced options, when the tool declares them. */
export const SEED_FIELD_NAMES = ['seed', 'prng'] as const;
export type SeedFieldName = (typeof SEED_FIELD_NAMES)[number];

/** §2: the PRNGs the draft names (advisory). */
export const PRNG_NAMES = ['lcg', 'xoroshiro'] as const;

/** §4: the phases, in the order a job goes through them. */
export const PHASE_NAMES = ['observe', 'abstract', 'decide', 'act', 'verify'] as const;

/** §2: the server's word on the seed it used and how far a repeat may be trusted. */
export interface DeterminismView {
  /** null: the server says it used no seed. */
  seedUsed: number | null;
  /** `best_effort` or `strict`. */
  level?: string;
}

/** §4: one job event as a panel shows it. */
export interface JobEventView {
  id?: string | number;
  /** One of PHASE_NAMES, or absent. */
  phase?: string;
  eventType: string;
  /** The payload in one line (its text content, or its JSON), cut short: written by the server. */
  text: string;
}

/** §4: a stream's job events: counted by phase, the newest kept, replays dropped. */
export interface JobsView {
  /** Events per phase (and `none`). */
  phases: Record<string, number>;
  /** The newest events, oldest first. */
  events: JobEventView[];
  /** Events a resumed stream brought again, dropped. */
  duplicates: number;
}
