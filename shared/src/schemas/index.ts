/**
 * The JSON Schemas of the config formats MGP Kernel reads: one source of truth for the loader, the
 * language server (diagnostics, completion, hover) and `mgp check`.
 */
import type { ConfigFormat } from '../configFiles';
import { mgpConfigSchema } from './mgpConfig';
import { managedPolicySchema } from './mgpPolicy';
import { openfangConfigSchema } from './openfangConfig';
import type { JsonSchema } from './schemaTypes';

export { createConfigValidator, VSCODE_SCHEMA_KEYWORDS } from './ajv';
export { mgpConfigSchema } from './mgpConfig';
export { managedPolicySchema } from './mgpPolicy';
export { openfangConfigSchema } from './openfangConfig';
export type { JsonSchema, SchemaType } from './schemaTypes';
export * from './vocabulary';

export function schemaForFormat(format: ConfigFormat): JsonSchema {
  const schemas: Record<ConfigFormat, JsonSchema> = {
    mgp: mgpConfigSchema,
    openfang: openfangConfigSchema,
    policy: managedPolicySchema,
  };
  return schemas[format];
}
