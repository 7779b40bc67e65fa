/**
 * A tool's inputSchema as a form: the field model (what to render for each part of the schema), the
 * form's state (what the person typed), and the value assembled from it. Pure (no DOM): the renderer is
 * schemaForm.ts; the unit tests run this in node. What the form cannot express becomes a JSON field.
 */

import { enumChoices } from '@shared/enumChoices';

export type Schema = Record<string, unknown>;

export type StringWidget = 'text' | 'textarea' | 'email' | 'url' | 'date' | 'datetime' | 'time';

interface FieldBase {
  /** Property name ('' for the root and for array items). */
  key: string;
  label: string;
  description?: string;
  required: boolean;
  /** `null` is allowed too (`type: ["string", "null"]`). */
  nullable: boolean;
  hasDefault: boolean;
  default?: unknown;
}

export type FieldModel =
  | (FieldBase & {
      kind: 'string';
      widget: StringWidget;
      format?: string;
      minLength?: number;
      maxLength?: number;
      pattern?: string;
    })
  | (FieldBase & {
      kind: 'number';
      integer: boolean;
      minimum?: number;
      maximum?: number;
      exclusiveMinimum?: number;
      exclusiveMaximum?: number;
      multipleOf?: number;
    })
  /** `tristate`: optional with no default, so "not set" is a third answer. */
  | (FieldBase & { kind: 'boolean'; tristate: boolean })
  /** `labels`: the titles of a titled enum (SEP-1330), one per value. */
  | (FieldBase & { kind: 'enum'; values: unknown[]; labels?: string[] })
  /** A multi-select: an array of a string enum (SEP-1330), as one checkbox per value. */
  | (FieldBase & {
      kind: 'multi';
      values: string[];
      labels: string[];
      minItems?: number;
      maxItems?: number;
    })
  | (FieldBase & { kind: 'const'; value: unknown })
  | (FieldBase & { kind: 'null' })
  | (FieldBase & { kind: 'array'; items: FieldModel; minItems?: number; maxItems?: number })
  | (FieldBase & { kind: 'object'; fields: FieldModel[] })
  | (FieldBase & {
      kind: 'choice';
      keyword: 'oneOf' | 'anyOf';
      options: { label: string; field: FieldModel }[];
    })
  /** Raw JSON for this part; `reason` says why the form cannot show it. */
  | (FieldBase & { kind: 'json'; reason: string });

export type FieldState =
  | { kind: 'string' | 'number'; text: string }
  | { kind: 'boolean'; value: boolean | undefined }
  /** -1: nothing chosen. */
  | { kind: 'enum'; index: number }
  | { kind: 'multi'; picked: boolean[] }
  | { kind: 'const' | 'null' }
  | { kind: 'array'; items: FieldState[] }
  | { kind: 'object'; fields: Record<string, FieldState> }
  /** One state per option, so switching back keeps what was typed. */
  | { kind: 'choice'; index: number; options: FieldState[] }
  | { kind: 'json'; text: string };

export interface FormProblem {
  pointer: string;
  message: string;
}

const MAX_DEPTH = 8;
const LONG_TEXT_NAMES =
  /(^|_|-)(text|body|content|code|script|source|query|sql|prompt|message|markdown|html|json|yaml|template|notes?|description|diff|patch|input)$/i;
const WIDGETS: Record<string, StringWidget> = {
  email: 'email',
  'idn-email': 'email',
  uri: 'url',
  url: 'url',
  'uri-reference': 'url',
  iri: 'url',
  date: 'date',
  'date-time': 'datetime',
  time: 'time',
};

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const str = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${escapePointer(String(key))}`;
}

/** "max_results" → "max results", "maxResults" → "max results". */
export function labelOf(key: string): string {
  return (
    key
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[_-]+/g, ' ')
      .trim()
      .toLowerCase() || key
  );
}

/** A local `$ref` (`#/$defs/x`, `#/definitions/x`) resolved against the root; anything else stays. */
function resolve(schema: Schema, root: Schema, seen: Set<string>): Schema | undefined {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  if (!ref.startsWith('#') || seen.has(ref)) return undefined;
  seen.add(ref);
  let target: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    target = isSchema(target) ? target[key] : undefined;
  }
  if (!isSchema(target)) return undefined;
  const rest = { ...schema };
  delete rest.$ref;
  return resolve({ ...target, ...rest }, root, seen);
}

/** `allOf` of object schemas merged into one (properties and required); undefined when it cannot be. */
function mergeAllOf(schema: Schema, root: Schema, seen: Set<string>): Schema | undefined {
  if (!Array.isArray(schema.allOf)) return schema;
  const parts = schema.allOf.map((part) =>
    isSchema(part) ? resolve(part, root, new Set(seen)) : undefined,
  );
  if (
    parts.some(
      (part) =>
        !part || (part.type !== undefined && part.type !== 'object') || part.anyOf || part.oneOf,
    )
  )
    return undefined;
  const rest = { ...schema };
  delete rest.allOf;
  const merged: Schema = {
    ...rest,
    type: 'object',
    properties: { ...(rest.properties as Schema | undefined) },
    required: [...((rest.required as string[] | undefined) ?? [])],
  };
  for (const part of parts as Schema[]) {
    Object.assign(merged.properties as Schema, part.properties);
    (merged.required as string[]).push(...((part.required as string[] | undefined) ?? []));
  }
  return merged;
}

interface Context {
  key: string;
  required: boolean;
  root: Schema;
  depth: number;
  seen: Set<string>;
}

function base(schema: Schema, ctx: Context, nullable: boolean): FieldBase {
  const description = str(schema.description) ?? str(schema.markdownDescription);
  return {
    key: ctx.key,
    label: str(schema.title) ?? labelOf(ctx.key),
    ...(description ? { description } : {}),
    required: ctx.required,
    nullable,
    hasDefault: 'default' in schema,
    ...('default' in schema ? { default: schema.default } : {}),
  };
}

function jsonField(schema: Schema, ctx: Context, reason: string): FieldModel {
  return { ...base(schema, ctx, false), kind: 'json', reason };
}

/** The schema's types, without null; `nullable` when null is one of them. */
function typesOf(schema: Schema): { types: string[]; nullable: boolean } {
  const raw = Array.isArray(schema.type)
    ? schema.type.filter((t): t is string => typeof t === 'string')
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  return {
    types: raw.filter((t) => t !== 'null'),
    nullable: raw.includes('null') || schema.nullable === true,
  };
}

function stringWidget(schema: Schema, key: string): StringWidget {
  const format = str(schema.format);
  if (format && WIDGETS[format]) return WIDGETS[format];
  const maxLength = num(schema.maxLength);
  const defaultText = typeof schema.default === 'string' ? schema.default : '';
  if (
    (maxLength !== undefined && maxLength > 200) ||
    defaultText.includes('\n') ||
    schema.contentMediaType !== undefined
  )
    return 'textarea';
  if (maxLength === undefined && LONG_TEXT_NAMES.test(key)) return 'textarea';
  return 'text';
}

function typedField(schema: Schema, type: string, ctx: Context, nullable: boolean): FieldModel {
  const b = base(schema, ctx, nullable);
  switch (type) {
    case 'string':
      return {
        ...b,
        kind: 'string',
        widget: stringWidget(schema, ctx.key),
        format: str(schema.format),
        minLength: num(schema.minLength),
        maxLength: num(schema.maxLength),
        pattern: str(schema.pattern),
      };
    case 'number':
    case 'integer':
      return {
        ...b,
        kind: 'number',
        integer: type === 'integer',
        minimum: num(schema.minimum),
        maximum: num(schema.maximum),
        exclusiveMinimum: num(schema.exclusiveMinimum),
        exclusiveMaximum: num(schema.exclusiveMaximum),
        multipleOf: num(schema.multipleOf),
      };
    case 'boolean':
      return { ...b, kind: 'boolean', tristate: !ctx.required && !b.hasDefault };
    case 'null':
      return { ...b, kind: 'null' };
    case 'array':
      return arrayField(schema, ctx, b);
    case 'object':
      return objectField(schema, ctx, b);
    default:
      return jsonField(schema, ctx, `type ${type}`);
  }
}

function arrayField(schema: Schema, ctx: Context, b: FieldBase): FieldModel {
  if (!isSchema(schema.items))
    return jsonField(schema, ctx, Array.isArray(schema.items) ? 'a tuple' : 'a list of anything');
  const items = fieldModelAt(schema.items, {
    ...ctx,
    key: '',
    required: true,
    depth: ctx.depth + 1,
  });
  return {
    ...b,
    kind: 'array',
    items,
    minItems: num(schema.minItems),
    maxItems: num(schema.maxItems),
  };
}

function objectField(schema: Schema, ctx: Context, b: FieldBase): FieldModel {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  const free = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
  if (names.length === 0 && (free || ctx.depth > 0))
    return jsonField(schema, ctx, 'an object with free-form fields');
  if (isSchema(schema.patternProperties))
    return jsonField(schema, ctx, 'fields named by a pattern');
  const required = new Set(
    Array.isArray(schema.required)
      ? schema.required.filter((r): r is string => typeof r === 'string')
      : [],
  );
  const fields = names.map((name) => {
    const property = properties[name];
    const child = { ...ctx, key: name, required: required.has(name), depth: ctx.depth + 1 };
    return isSchema(property)
      ? fieldModelAt(property, child)
      : jsonField({}, child, property === false ? 'never allowed' : 'any value');
  });
  return { ...b, kind: 'object', fields };
}

/** A label for one choice of a oneOf/anyOf. */
function optionLabel(schema: Schema, index: number): string {
  if (typeof schema.title === 'string' && schema.title) return schema.title;
  if ('const' in schema) return JSON.stringify(schema.const);
  const { types } = typesOf(schema);
  if (types.length)
    return types
      .map((t) =>
        t === 'object' && isSchema(schema.properties)
          ? `object (${Object.keys(schema.properties).slice(0, 3).join(', ')})`
          : t,
      )
      .join(' or ');
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  return `choice ${index + 1}`;
}

function choiceField(schema: Schema, keyword: 'oneOf' | 'anyOf', ctx: Context): FieldModel {
  const raw = schema[keyword] as unknown[];
  const options = raw.map((option, index) => {
    const resolved = isSchema(option) ? resolve(option, ctx.root, new Set(ctx.seen)) : undefined;
    return resolved
      ? {
          label: optionLabel(resolved, index),
          field: fieldModelAt(resolved, { ...ctx, required: true, depth: ctx.depth + 1 }),
        }
      : undefined;
  });
  if (options.some((o) => !o || o.field.kind === 'json' || o.field.kind === 'choice'))
    return jsonField(schema, ctx, `a ${keyword} the form cannot show`);
  const b = base(schema, ctx, false);
  const present = options as { label: string; field: FieldModel }[];
  // A choice between a type and null is that type, nullable.
  const nonNull = present.filter((o) => o.field.kind !== 'null');
  if (nonNull.length === 1 && present.length === 2)
    return { ...nonNull[0].field, ...b, label: b.label, nullable: true };
  return { ...b, kind: 'choice', keyword, options: present };
}

function fieldModelAt(input: Schema, ctx: Context): FieldModel {
  if (ctx.depth > MAX_DEPTH) return jsonField(input, ctx, 'nested too deeply');
  const seen = new Set(ctx.seen);
  const resolved = resolve(input, ctx.root, seen);
  if (!resolved) return jsonField(input, ctx, 'a reference the form cannot follow');
  const schema = mergeAllOf(resolved, ctx.root, seen);
  if (!schema) return jsonField(resolved, ctx, 'an allOf the form cannot merge');
  const inner = { ...ctx, seen };
  const choices = enumChoices(schema);
  if (choices?.multi) {
    const { values, labels, minItems, maxItems } = choices;
    return { ...base(schema, inner, false), kind: 'multi', values, labels, minItems, maxItems };
  }
  if (choices)
    return {
      ...base(schema, inner, false),
      kind: 'enum',
      values: choices.values,
      labels: choices.labels,
    };
  if ('const' in schema)
    return { ...base(schema, inner, false), kind: 'const', value: schema.const };
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum.filter((v) => v !== null);
    return { ...base(schema, inner, values.length < schema.enum.length), kind: 'enum', values };
  }
  if (Array.isArray(schema.oneOf)) return choiceField(schema, 'oneOf', inner);
  if (Array.isArray(schema.anyOf)) return choiceField(schema, 'anyOf', inner);
  const { types, nullable } = typesOf(schema);
  if (types.length === 1) return typedField(schema, types[0], inner, nullable);
  if (types.length > 1) {
    const options = types.map((type) => ({
      label: type,
      field: typedField(
        { ...schema, type, title: undefined, description: undefined },
        type,
        { ...inner, depth: inner.depth + 1 },
        false,
      ),
    }));
    return { ...base(schema, inner, nullable), kind: 'choice', keyword: 'anyOf', options };
  }
  if (isSchema(schema.properties)) return typedField(schema, 'object', inner, nullable);
  if (nullable && schema.type !== undefined) return typedField(schema, 'null', inner, false);
  return jsonField(schema, inner, 'any value');
}

/** The form for a tool's inputSchema: the root is always an object (MCP tools take named arguments). */
export function fieldModel(schema: Schema): FieldModel {
  const root = isSchema(schema) ? schema : {};
  return fieldModelAt(root, { key: '', required: true, root, depth: 0, seen: new Set() });
}
