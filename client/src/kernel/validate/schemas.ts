/**
 * Tools' JSON Schemas judged as MCP 2025-11-25 says (Tools: inputSchema and outputSchema are JSON
 * Schema objects of type "object"; a schema with no `$schema` is JSON Schema 2020-12), and minimal
 * arguments made from an inputSchema so that a check can call a tool.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export class SchemaJudge {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  private readonly compiled = new WeakMap<object, ValidateFunction | { problem: string }>();

  constructor() {
    addFormats(this.ajv);
  }

  /** Why the schema cannot be used, or undefined when it compiles as 2020-12 and is an object schema. */
  problemOf(schema: unknown): string | undefined {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
      return 'not a JSON object';
    const type = (schema as { type?: unknown }).type;
    if (type !== 'object') return `its type is ${JSON.stringify(type)}, not "object"`;
    const compiled = this.validatorOf(schema as Record<string, unknown>);
    return 'problem' in compiled ? compiled.problem : undefined;
  }

  /** The ways `value` breaks `schema`, in one line; undefined when it fits (or the schema is unusable). */
  mismatch(schema: Record<string, unknown>, value: unknown): string | undefined {
    const compiled = this.validatorOf(schema);
    if ('problem' in compiled) return undefined;
    if (compiled(value)) return undefined;
    return (compiled.errors ?? [])
      .slice(0, 4)
      .map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`)
      .join('; ');
  }

  private validatorOf(schema: Record<string, unknown>): ValidateFunction | { problem: string } {
    const known = this.compiled.get(schema);
    if (known) return known;
    let compiled: ValidateFunction | { problem: string };
    try {
      // A server's $id must not collide with another tool's in the one Ajv instance.
      const copy = { ...schema };
      delete copy.$id;
      if (typeof copy.$schema === 'string' && !copy.$schema.includes('2020-12'))
        delete copy.$schema;
      compiled = this.ajv.compile(copy);
    } catch (error) {
      compiled = { problem: error instanceof Error ? error.message : String(error) };
    }
    this.compiled.set(schema, compiled);
    return compiled;
  }

  /**
   * The least arguments the schema accepts, made of its required properties with their defaults,
   * enums, consts or small plain values; undefined when what was made does not fit the schema.
   */
  sampleArguments(schema: unknown): Record<string, unknown> | undefined {
    if (this.problemOf(schema)) return undefined;
    const value = sample(schema as Record<string, unknown>, 0);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    return this.mismatch(schema as Record<string, unknown>, value) === undefined
      ? (value as Record<string, unknown>)
      : undefined;
  }
}

type Schema = Record<string, unknown>;

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function sampleString(schema: Schema): string {
  switch (schema.format) {
    case 'uri':
    case 'url':
      return 'https://example.com/';
    case 'email':
      return 'validator@example.com';
    case 'date-time':
      return new Date(0).toISOString();
    case 'date':
      return '1970-01-01';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const text = 'mgp-validate';
  return text.length >= min ? text : text.padEnd(min, 'x');
}

function sample(schema: Schema, depth: number): unknown {
  if (depth > 6) return undefined;
  if ('const' in schema) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const options = schema[key];
    if (Array.isArray(options) && options.length && typeof options[0] === 'object')
      return sample(options[0] as Schema, depth + 1);
  }
  switch (typeOf(schema)) {
    case 'string':
      return sampleString(schema);
    case 'integer':
    case 'number': {
      if (typeof schema.minimum === 'number') return schema.minimum;
      if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + 1;
      return typeof schema.maximum === 'number' && schema.maximum < 1 ? schema.maximum : 1;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const items = (schema.items ?? {}) as Schema;
      return Array.from({ length: min }, () => sample(items, depth + 1));
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      const out: Record<string, unknown> = {};
      for (const name of required)
        out[name] = sample(properties[name] ?? { type: 'string' }, depth + 1);
      return out;
    }
  }
  return 'mgp-validate';
}
