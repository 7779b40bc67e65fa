import type { ErrorObject } from 'ajv';
import { suggest } from './suggest';

function lastKey(instancePath: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  const last = parts[parts.length - 1];
  if (last === undefined) return 'the document';
  if (/^\d+$/.test(last)) return `${parts[parts.length - 2] ?? ''}[${last}]`;
  return last.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `[[servers]]`, `[servers.mgp]`… for the table a pointer is in, as the user wrote it. */
export function tableName(instancePath: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (parts.length === 0) return 'the top level';
  const names = parts.filter((part) => !/^\d+$/.test(part));
  const isArrayElement = /^\d+$/.test(parts[parts.length - 1]);
  return isArrayElement ? `[[${names.join('.')}]]` : `[${names.join('.')}]`;
}

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a date';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'a table';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a float';
  return `a ${typeof value}`;
}

function shown(value: unknown): string {
  return typeof value === 'string'
    ? JSON.stringify(value)
    : (JSON.stringify(value) ?? String(value));
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean (true or false)',
  array: 'an array',
  object: 'a table',
};

export interface HumanMessage {
  message: string;
  /** For "did you mean" quick fixes: the replacement text. */
  suggestion?: string;
}

/** Ajv's terse messages, rewritten for people, with the key, what was expected and what was found. */
export function humanMessage(error: ErrorObject, data: unknown): HumanMessage {
  const key = lastKey(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const suggestion = typeof data === 'string' ? suggest(data, allowed) : undefined;
      return {
        message: `${key} must be one of ${allowed.join(', ')}; got ${shown(data)}${suggestion ? `. Did you mean "${suggestion}"?` : ''}`,
        suggestion,
      };
    }
    case 'type': {
      const wanted = String(params.type)
        .split(',')
        .map((t) => TYPE_WORDS[t] ?? t)
        .join(' or ');
      return { message: `${key} must be ${wanted}; got ${typeOf(data)}` };
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const known = Object.keys(
        (error.parentSchema?.properties as Record<string, unknown> | undefined) ?? {},
      );
      const suggestion = suggest(extra, known);
      return {
        message: `unknown key "${extra}" in ${tableName(error.instancePath)}${suggestion ? `. Did you mean "${suggestion}"?` : known.length ? `; known keys: ${known.join(', ')}` : ''}`,
        suggestion,
      };
    }
    case 'required':
      return {
        message: `${tableName(error.instancePath)} is missing the required key "${String(params.missingProperty)}"`,
      };
    case 'format':
      return {
        message: `${key} must be ${params.format === 'uri' ? 'an absolute URL (like https://host/path)' : params.format === 'date-time' ? 'a date-time (like 2026-12-31T23:59:59Z)' : `in ${String(params.format)} format`}; got ${shown(data)}`,
      };
    case 'pattern':
      return {
        message: `${key} ${shown(data)} is not well formed: ${error.parentSchema?.description ?? `it must match ${String(params.pattern)}`}`,
      };
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum':
      return {
        message: `${key} must be ${String(params.comparison)} ${String(params.limit)}; got ${shown(data)}`,
      };
    case 'minItems':
      return { message: `${key} must have at least ${String(params.limit)} item(s)` };
    case 'minLength':
      return { message: `${key} must not be empty` };
    case 'uniqueItems':
      return { message: `${key} lists ${shown((data as unknown[])[Number(params.j)])} twice` };
    default:
      return { message: `${key} ${error.message ?? 'is not valid'}` };
  }
}
