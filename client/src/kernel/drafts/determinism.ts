/**
 * MCP draft §2, the response side: a result or an event may say which seed the server used
 * (`seed_used`, a number, or null when it used none) and how far it vouches for a repeat
 * (`determinism`: `best_effort` or `strict`). The draft puts them in an event's `meta`; on a result
 * the kernel reads them from MCP's own metadata field, `_meta`, or from a `meta` field like an
 * event's. What the server says is its word, shown as such; a value of another type is ignored.
 */
export const DETERMINISM_LEVELS = ['best_effort', 'strict'] as const;
export type DeterminismLevel = (typeof DETERMINISM_LEVELS)[number];

export interface Determinism {
  /** The seed the server says it used; null when it says it used none. */
  seedUsed: number | null;
  determinism?: DeterminismLevel;
}

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The draft's fields in one metadata object (an event's `meta`, a result's `_meta`). */
export function determinismIn(meta: unknown): Determinism | undefined {
  if (!isObject(meta) || !('seed_used' in meta || 'determinism' in meta)) return undefined;
  const seed = meta.seed_used;
  const seedUsed = seed === null ? null : Number.isSafeInteger(seed) ? (seed as number) : undefined;
  const level = DETERMINISM_LEVELS.find((l) => l === meta.determinism);
  if (seedUsed === undefined && level === undefined) return undefined;
  return { seedUsed: seedUsed ?? null, ...(level ? { determinism: level } : {}) };
}

/** What a tool result says of its seed and determinism, if anything. */
export function determinismOf(result: unknown): Determinism | undefined {
  if (!isObject(result)) return undefined;
  return determinismIn(result._meta) ?? determinismIn(result.meta);
}

/** The audit record's fields for it (MGP §6: details of TOOL_EXECUTED). */
export function determinismDetails(
  result: unknown,
): { seed_used: number | null; determinism?: DeterminismLevel } | undefined {
  const found = determinismOf(result);
  if (!found) return undefined;
  return {
    seed_used: found.seedUsed,
    ...(found.determinism ? { determinism: found.determinism } : {}),
  };
}
