/**
 * ajv's errors about a tool's arguments in words, one short message per field at the JSON pointer of the
 * value: what the Run Tool form shows beside each field, and what a refused call says (MGP §14.3 4000).
 */
import type { ErrorObject } from 'ajv';

/** One field's problem: `pointer` is the JSON pointer of the value ('' for the arguments as a whole). */
export interface ArgumentError {
  pointer: string;
  message: string;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'an email address (name@example.com)',
  uri: 'an absolute URI (https://…)',
  'uri-reference': 'a URI or a relative reference',
  url: 'a URL (https://…)',
  date: 'a date (YYYY-MM-DD)',
  time: 'a time with its zone (09:30:00Z)',
  'date-time': 'a date and time with its zone (2025-01-31T09:30:00Z)',
  duration: 'an ISO 8601 duration (P1DT2H)',
  hostname: 'a host name',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  uuid: 'a UUID',
  regex: 'a regular expression',
};

const show = (value: unknown) => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value));
const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** One ajv error in words; undefined for errors that only repeat another (`if`). */
export function humanMessage(error: ErrorObject): string | undefined {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'required';
    case 'type': {
      const types = String(p.type).split(',');
      return `must be ${types.map((t) => TYPE_WORDS[t] ?? t).join(' or ')}`;
    }
    case 'minimum':
      return `must be at least ${p.limit}`;
    case 'maximum':
      return `must be at most ${p.limit}`;
    case 'exclusiveMinimum':
      return `must be greater than ${p.limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${p.limit}`;
    case 'multipleOf':
      return `must be a multiple of ${p.multipleOf}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${p.limit} characters long`;
    case 'maxLength':
      return `must be at most ${p.limit} characters long`;
    case 'pattern':
      return `must match the pattern ${p.pattern}`;
    case 'format':
      return `must be ${FORMAT_WORDS[String(p.format)] ?? `in the format ${p.format}`}`;
    case 'enum':
      return `must be one of: ${(p.allowedValues as unknown[]).map(show).join(', ')}`;
    case 'const':
      return `must be ${show(p.allowedValue)}`;
    case 'minItems':
      return `needs at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `takes at most ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'uniqueItems':
      return `must not repeat items (items ${Math.min(Number(p.i), Number(p.j)) + 1} and ${Math.max(Number(p.i), Number(p.j)) + 1} are the same)`;
    case 'additionalProperties':
      return `has an unknown field ${show(p.additionalProperty)}`;
    case 'minProperties':
      return `needs at least ${p.limit} field${p.limit === 1 ? '' : 's'}`;
    case 'maxProperties':
      return `takes at most ${p.limit} field${p.limit === 1 ? '' : 's'}`;
    case 'anyOf':
      return 'must match one of the choices';
    case 'oneOf':
      return p.passingSchemas
        ? 'matches more than one of the choices'
        : 'must match one of the choices';
    case 'not':
      return 'is a value that is not allowed here';
    case 'false schema':
      return 'is not allowed';
    case 'if':
      return undefined;
    default:
      return error.message ?? 'is not valid';
  }
}

/** Where an error belongs: a missing property's message sits at the property, not at its parent. */
export function errorPointer(error: ErrorObject): string {
  if (error.keyword === 'required')
    return `${error.instancePath}/${escapePointer(String((error.params as { missingProperty?: unknown }).missingProperty))}`;
  return error.instancePath;
}

/**
 * ajv's errors as one message per pointer. When a value matches none of an anyOf/oneOf's choices, the
 * reasons each choice failed are left out: "must match one of the choices" says it.
 */
export function fieldErrors(errors: readonly ErrorObject[], limit = 50): ArgumentError[] {
  const branches = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .map((e) => `${e.schemaPath}/`);
  const byPointer = new Map<string, string[]>();
  for (const error of errors) {
    if (branches.some((prefix) => error.schemaPath.startsWith(prefix))) continue;
    const message = humanMessage(error);
    if (!message) continue;
    const pointer = errorPointer(error);
    const messages = byPointer.get(pointer) ?? [];
    if (!messages.includes(message)) messages.push(message);
    byPointer.set(pointer, messages);
  }
  return [...byPointer]
    .slice(0, limit)
    .map(([pointer, messages]) => ({ pointer, message: messages.join('; ') }));
}
