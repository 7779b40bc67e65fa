/** Walking a JSON Schema along a document path, for completion and hover. */
export interface SchemaNode {
  type?: string | string[];
  description?: string;
  markdownDescription?: string;
  enum?: unknown[];
  default?: unknown;
  examples?: unknown[];
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  required?: string[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  deprecationMessage?: string;
}

/** The schema for one child (a key of a table, or an item of an array). */
export function childSchema(
  schema: SchemaNode | undefined,
  part: string | number,
): SchemaNode | undefined {
  if (!schema) return undefined;
  if (typeof part === 'number') return schema.items ?? firstVariant(schema, (s) => s.items);
  const direct = schema.properties?.[part];
  if (direct) return direct;
  for (const [pattern, sub] of Object.entries(schema.patternProperties ?? {})) {
    if (new RegExp(pattern, 'u').test(part)) return sub;
  }
  if (typeof schema.additionalProperties === 'object') return schema.additionalProperties;
  return firstVariant(schema, (s) => childSchema(s, part));
}

function firstVariant<T>(
  schema: SchemaNode,
  pick: (s: SchemaNode) => T | undefined,
): T | undefined {
  for (const variant of [
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ]) {
    const found = pick(variant);
    if (found) return found;
  }
  return undefined;
}

export function schemaAt(
  root: SchemaNode,
  path: readonly (string | number)[],
): SchemaNode | undefined {
  let current: SchemaNode | undefined = root;
  for (const part of path) current = childSchema(current, part);
  return current;
}

export function typesOf(schema: SchemaNode): string[] {
  if (schema.type) return Array.isArray(schema.type) ? schema.type : [schema.type];
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap(typesOf);
}

/** Markdown documentation for hover: the description, allowed values and default. */
export function documentation(name: string, schema: SchemaNode): string {
  const parts = [`**${name}**${typesOf(schema).length ? ` — ${typesOf(schema).join(' | ')}` : ''}`];
  parts.push(schema.markdownDescription ?? schema.description ?? '');
  const values = schema.enum ?? schema.items?.enum;
  if (values?.length) parts.push(`Allowed: ${values.map((v) => `\`${String(v)}\``).join(', ')}`);
  if (schema.default !== undefined) parts.push(`Default: \`${JSON.stringify(schema.default)}\``);
  if (schema.deprecationMessage) parts.push(`⚠ ${schema.deprecationMessage}`);
  return parts.filter(Boolean).join('\n\n');
}
