/**
 * The JSON Schemas of the config formats MGP Kernel reads: one source of truth for the loader, the
 * language server (diagnostics, completion, hover) and `mgp check`.
 */
import type { ConfigFormat } from '../configFiles';
import { mgpConfigSchema } from './mgpConfig';
import { openfangConfigSchema } from './openfangConfig';
import type { JsonSchema } from './schemaTypes';

export { createConfigValidator, VSCODE_SCHEMA_KEYWORDS } from './ajv';
export { mgpConfigSchema } from './mgpConfig';
export { openfangConfigSchema } from './openfangConfig';
export type { JsonSchema, SchemaType } from './schemaTypes';
export * from './vocabulary';

export function schemaForFormat(format: 'mgp' | 'openfang'): JsonSchema {
  const schemas: Record<ConfigFormat, JsonSchema> = {
    mgp: mgpConfigSchema,
    openfang: openfangConfigSchema,
  };
  return schemas[format];
}
