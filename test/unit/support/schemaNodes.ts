import type { JsonSchema } from '@shared/schemas/schemaTypes';

export interface Node {
  /** Where the node is in the schema, e.g. `#/properties/servers/items`. */
  path: string;
  /** The TOML key path it describes, e.g. `servers[].env.*` (`*` for any key of a map or pattern table). */
  keys: string;
  node: JsonSchema;
  isProperty: boolean;
}

/** Every schema node reachable from the root. */
export function walk(
  schema: JsonSchema,
  path = '#',
  keys = '',
  into: Node[] = [],
  isProperty = false,
): Node[] {
  into.push({ path, keys, node: schema, isProperty });
  for (const [key, sub] of Object.entries(schema.properties ?? {}))
    walk(sub, `${path}/properties/${key}`, keys ? `${keys}.${key}` : key, into, true);
  for (const [key, sub] of Object.entries(schema.patternProperties ?? {}))
    walk(sub, `${path}/patternProperties/${key}`, `${keys}.*`, into, true);
  if (typeof schema.additionalProperties === 'object')
    walk(schema.additionalProperties, `${path}/additionalProperties`, `${keys}.*`, into, true);
  if (schema.items) walk(schema.items, `${path}/items`, `${keys}[]`, into, false);
  return into;
}
