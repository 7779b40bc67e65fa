/**
 * Elicitation defaults (SEP-1034, MCP 2025-11-25): a property of a requested schema may carry a
 * `default`; an accepted answer that leaves such a field out takes it, and a form shows it filled in.
 */
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';

type RequestedSchema = ElicitRequestFormParams['requestedSchema'];
export type Answer = Record<string, string | number | boolean | string[]>;

/** The defaults the requested schema declares, by property name. */
export function elicitationDefaults(schema: RequestedSchema): Answer {
  const defaults: Answer = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = (property as { default?: unknown }).default;
    if (
      typeof value === 'string' ||
      typeof value === 'number' ||
      typeof value === 'boolean' ||
      (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    )
      defaults[name] = value as Answer[string];
  }
  return defaults;
}

/** `content` with every field it leaves out that has a default filled in (SEP-1034). */
export function withElicitationDefaults(
  schema: RequestedSchema,
  content: Answer | undefined,
): Answer {
  return { ...elicitationDefaults(schema), ...(content ?? {}) };
}
