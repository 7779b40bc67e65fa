/**
 * The JSON Schema (draft-07) of mgp.toml, mcp.toml and ~/.config/mgp/servers.toml (MGP §15.2): the
 * one description of the format that the loader, the language server and `mgp check` all apply.
 * Cross-field rules (a stdio server needs a command, custom permissions are reverse-domain names, ids
 * are unique…) are semantic checks, not schema.
 */
import { a2aSchema } from './a2a';
import { kernelSchema } from './mgpKernel';
import { serverSchema } from './mgpServer';
import { described, JsonSchema } from './schemaTypes';

export const mgpConfigSchema: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'MGP Kernel server configuration (mgp.toml)',
  type: 'object',
  additionalProperties: false,
  properties: {
    servers: {
      type: 'array',
      items: serverSchema,
      ...described(
        'The servers the kernel connects to, one [[servers]] table each (MGP §15.2).',
        'The servers the kernel connects to, one `[[servers]]` table each (MGP §15.2 "Configuration File Discovery"). ' +
          'The kernel reads `./mgp.toml`, then `~/.config/mgp/servers.toml`, then `$MGP_CONFIG_PATH`.',
      ),
    },
    kernel: kernelSchema,
    a2a: a2aSchema,
  },
  ...described(
    'An MGP server configuration: [[servers]] tables and an optional [kernel] table (MGP §15.2).',
    'An MGP server configuration (MGP §15.2): `[[servers]]` tables, backward compatible with MCP configuration files, an optional `[kernel]` table of global settings and an optional `[a2a]` table of external agents.',
  ),
};
