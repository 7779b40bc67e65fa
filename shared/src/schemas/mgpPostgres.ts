/** `[kernel.audit.postgres]`: the team's audit trail in PostgreSQL, in mgp.toml and the managed policy. */
import { described, JsonSchema } from './schemaTypes';

export function postgresAuditSchema(scope: 'config' | 'policy'): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    url: {
      type: 'string',
      minLength: 1,
      pattern: '^(?:postgres(?:ql)?://|\\$\\{)',
      ...described(
        'The database: postgres://user@host:5432/db, best as ${secret:NAME}; sslmode=require (or verify-full) in it asks for TLS (MGP §6).',
        'The database, as a `postgres://` URL, best written `${secret:NAME}` so that its password stays in the keyring. `?sslmode=require` (or `verify-full`) asks for TLS (MGP §6).',
      ),
      examples: ['${secret:team-audit-db}'],
    },
  };
  if (scope === 'policy')
    properties.required = {
      type: 'boolean',
      ...described(
        'When true, no server starts unless some config ships audit records to PostgreSQL (MGP §6).',
        'When `true`, no server starts on this machine unless the policy or a config below gives `[kernel.audit.postgres] url` (MGP §6).',
      ),
    };
  return {
    type: 'object',
    additionalProperties: false,
    properties,
    ...described(
      'Ship every audit record, with its hash chain, to a PostgreSQL table as well as the local log (MGP §6).',
      'Ship every audit record, with its hash chain, to a PostgreSQL table as well as the local log (MGP §6): at least once, through a local spool while the database is away, never twice (keyed by machine, chain and seq).',
    ),
  };
}
