/**
 * The JSON Schema (draft-07) of the parts of OpenFang's `config.toml` that MGP Kernel reads:
 * `[[mcp_servers]]` and `[a2a]` (openfang-mcp-a2a.md, "Configuration" and "A2A Configuration").
 * The file has many other top-level tables (agents, models, channels…) that are OpenFang's business,
 * so the top level is open while the tables defined here are closed.
 */
import { a2aSchema } from './a2a';
import { described, enumOf, JsonSchema, patternOf } from './schemaTypes';
import { ENV_VAR_NAME, OPENFANG_TRANSPORTS } from './vocabulary';

const transportSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: {
      type: 'string',
      ...enumOf(OPENFANG_TRANSPORTS),
      ...described(
        'How to connect: stdio or sse, as the OpenFang guide documents, or http (OpenFang, Transport Types).',
        'How to connect (OpenFang, Transport Types):\n\n- `stdio`: spawn `command` with `args`\n- `sse`: the remote HTTP endpoint at `url`\n- `http`: Streamable HTTP at `url` (MCP §3.2); the OpenFang guide documents only `stdio` and `sse`',
      ),
    },
    command: {
      type: 'string',
      minLength: 1,
      ...described(
        'The program spawned for stdio; OpenFang rejects paths with ".." (OpenFang, Transport Types and MCP Security).',
        'The program spawned for `stdio`, e.g. `npx` (OpenFang, Transport Types). OpenFang rejects a command path containing `..` (OpenFang, MCP Security).',
      ),
      examples: ['npx'],
    },
    args: {
      type: 'array',
      items: {
        type: 'string',
        ...described(
          'One argument of command (OpenFang, Transport Types).',
          'One argument of `command` (OpenFang, Transport Types).',
        ),
      },
      ...described(
        'Arguments of command, for stdio (OpenFang, Transport Types).',
        'Arguments of `command`, for `stdio` (OpenFang, Transport Types).',
      ),
      examples: [['-y', '@modelcontextprotocol/server-github']],
    },
    url: {
      type: 'string',
      format: 'uri',
      ...described(
        'The endpoint of an sse or http server, an absolute URL (OpenFang, Transport Types).',
        'The endpoint of an `sse` or `http` server, an absolute URL such as `https://mcp.example.com/api` (OpenFang, Transport Types). Cloud metadata endpoints are refused (OpenFang, MCP Security).',
      ),
      examples: ['https://mcp.example.com/api'],
    },
    headers: {
      type: 'object',
      additionalProperties: {
        type: 'string',
        ...described(
          'The value of this HTTP header (MCP §3.2).',
          'The value of this HTTP header (MCP §3.2).',
        ),
      },
      ...described(
        'HTTP headers for an sse or http server; not in the OpenFang guide (OpenFang, Transport Types; MCP §3.2).',
        'HTTP headers sent to an `sse` or `http` server, name to value (MCP §3.2). Not among the fields the OpenFang guide documents (OpenFang, Transport Types).',
      ),
      examples: [{ Authorization: 'Bearer ${TOOLS_TOKEN}' }],
    },
  },
  ...described(
    'How OpenFang connects to this server, a McpTransportEntry (OpenFang, Configuration).',
    'How OpenFang connects to this server: the `McpTransportEntry`, tagged by `type` (OpenFang, Configuration; Transport Types).',
  ),
};

const mcpServerSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'transport'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      ...described(
        'Display name, used in tool namespacing as mcp_{name}_{tool} (OpenFang, Configuration).',
        'Display name of the server, used in tool namespacing: tools become `mcp_{server}_{tool}`, lowercased with `-` turned into `_` (OpenFang, Configuration; Tool Namespacing).',
      ),
      examples: ['github'],
    },
    timeout_secs: {
      type: 'integer',
      minimum: 1,
      default: 30,
      ...described(
        'JSON-RPC request timeout in seconds (OpenFang, Configuration).',
        'JSON-RPC request timeout, in seconds (OpenFang, Configuration and MCP Security). Default: `30`.',
      ),
    },
    env: {
      type: 'array',
      uniqueItems: true,
      default: [],
      items: {
        type: 'string',
        pattern: patternOf(ENV_VAR_NAME),
        ...described(
          'The name of an environment variable to pass through, not NAME=value (OpenFang, Configuration).',
          'The **name** of an environment variable to pass through, such as `GITHUB_PERSONAL_ACCESS_TOKEN`; not `NAME=value` (OpenFang, Configuration).',
        ),
      },
      ...described(
        'Names of environment variables passed through to the subprocess, whose environment is otherwise cleared (OpenFang, Configuration and MCP Security).',
        'Names of environment variables passed through to the subprocess (OpenFang, Configuration). The subprocess starts with a cleared environment: only these and `PATH` reach it (OpenFang, MCP Security). Default: `[]`.',
      ),
      examples: [['GITHUB_PERSONAL_ACCESS_TOKEN']],
    },
    transport: transportSchema,
  },
  ...described(
    'One external MCP server OpenFang connects to, a McpServerConfigEntry (OpenFang, Configuration).',
    'One external MCP server OpenFang connects to at boot, a `McpServerConfigEntry` (OpenFang, Configuration).',
  ),
};

export const openfangConfigSchema: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'OpenFang config.toml (the parts MGP Kernel reads)',
  type: 'object',
  additionalProperties: true,
  properties: {
    mcp_servers: {
      type: 'array',
      items: mcpServerSchema,
      ...described(
        'External MCP servers, one [[mcp_servers]] table each (OpenFang, Configuration).',
        'External MCP servers OpenFang connects to, one `[[mcp_servers]]` table each (OpenFang, Configuration). MGP Kernel reads them too.',
      ),
    },
    a2a: a2aSchema,
  },
  ...described(
    "OpenFang config.toml: [[mcp_servers]] and [a2a] are checked; other tables are OpenFang's (OpenFang, Configuration).",
    'An OpenFang `config.toml` (OpenFang, Configuration; A2A Configuration). `[[mcp_servers]]` and `[a2a]` are checked; other top-level tables (agents, models, channels…) belong to OpenFang and are left alone.',
  ),
};
