/**
 * The request fields of the MCP draft extensions (Nov 2025) a tool call may carry in its arguments:
 * `agent_mode`, `algebra`, `resource_hints` (§1, implicit cognition) and `seed`, `prng` (§2,
 * determinism). The draft says a server that does not support them accepts them as no-ops; the kernel
 * makes sure of it: such a field reaches a tool only when the tool's input schema declares it. The
 * kernel adds none of its own accord: a seed is sent when a person or a caller asked for one.
 */

/** §1: passed through from the caller to a tool that declares them. */
export const COGNITION_FIELDS = ['agent_mode', 'algebra', 'resource_hints'] as const;
/** §2: the seed and the PRNG the caller asks for. */
export const SEED_FIELDS = ['seed', 'prng'] as const;
export const DRAFT_FIELDS: readonly string[] = [...COGNITION_FIELDS, ...SEED_FIELDS];

/** §2: the PRNGs the draft names (advisory). */
export const PRNGS = ['lcg', 'xoroshiro'] as const;
export type Prng = (typeof PRNGS)[number];

function propertiesOf(schema: unknown): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null) return {};
  const properties = (schema as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null && !Array.isArray(properties)
    ? (properties as Record<string, unknown>)
    : {};
}

/** Whether the tool's input schema declares `field` among its properties. */
export function declares(schema: unknown, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(propertiesOf(schema), field);
}

/** The draft fields the tool's input schema declares, in the draft's order. */
export function declaredDraftFields(schema: unknown): string[] {
  return DRAFT_FIELDS.filter((field) => declares(schema, field));
}

/**
 * The arguments as they may go to the tool: a draft field its schema does not declare is left out
 * (the draft's "no-op if unsupported"), and named in `dropped`. Arguments without any are returned as
 * they are, the same object.
 */
export function keepDeclaredDraftFields(
  schema: unknown,
  args: Record<string, unknown>,
): { args: Record<string, unknown>; dropped: string[] } {
  const dropped = DRAFT_FIELDS.filter(
    (field) => Object.prototype.hasOwnProperty.call(args, field) && !declares(schema, field),
  );
  if (dropped.length === 0) return { args, dropped };
  const kept = { ...args };
  for (const field of dropped) delete kept[field];
  return { args: kept, dropped };
}

/** Why a seed (or a PRNG) cannot be given to a tool, or undefined when it can. */
export function seedRefusal(
  schema: unknown,
  asked: { seed?: number; prng?: string },
): string | undefined {
  if (asked.seed !== undefined && !declares(schema, 'seed'))
    return 'its input schema declares no `seed`, so it takes none (MCP draft §2)';
  if (asked.prng !== undefined && !declares(schema, 'prng'))
    return 'its input schema declares no `prng`, so it takes none (MCP draft §2)';
  return undefined;
}

/**
 * The arguments with the seed and PRNG a person asked for, as the draft's wire example carries them
 * (`arguments.seed`, `arguments.prng`). Throws, with the reason, for a tool that does not declare
 * them: a seed is never put into a call whose schema does not allow it.
 */
export function withSeed(
  schema: unknown,
  args: Record<string, unknown>,
  asked: { seed?: number; prng?: Prng },
): Record<string, unknown> {
  const refusal = seedRefusal(schema, asked);
  if (refusal) throw new Error(refusal);
  return {
    ...args,
    ...(asked.seed !== undefined ? { seed: asked.seed } : {}),
    ...(asked.prng !== undefined ? { prng: asked.prng } : {}),
  };
}
