/**
 * One `[[servers]]` table of mgp.toml (MGP §15.2), with the tables it holds.
 */
import { accessGrantsSchema, accessPolicySchema, approvalPolicySchema } from './mgpKernel';
import { serverMcplSchema } from './mgpMcpl';
import { serverOAuthSchema } from './mgpOAuth';
import { sandboxSchema } from './mgpSandbox';
import { serverMgpSchema, serverToolsSchema } from './mgpSecurity';
import { described, enumOf, JsonSchema, patternOf } from './schemaTypes';
import { FRAMINGS, SERVER_ID, TOOL_NAME, TRANSPORTS } from './vocabulary';
import {
  DEFAULT_CONNECT_TIMEOUT_SECS,
  DEFAULT_REQUEST_TIMEOUT_SECS,
  DEFAULT_TOOL_RESULT_MAX_CHARS,
} from '../serverDefaults';

const REFERENCES =
  'Values may refer to `${VAR}` (environment) and `${secret:NAME}` (secret storage), resolved when the server starts.';

function stringMap(
  plain: string,
  markdown: string,
  value: [string, string],
  example: Record<string, string>,
): JsonSchema {
  return {
    type: 'object',
    additionalProperties: { type: 'string', ...described(...value) },
    ...described(plain, `${markdown} ${REFERENCES}`),
    examples: [example],
  };
}

function seconds(plain: string, markdown: string, fallback: number): JsonSchema {
  return {
    type: 'number',
    exclusiveMinimum: 0,
    ...described(plain, markdown),
    default: fallback,
  };
}

export const serverSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      pattern: patternOf(SERVER_ID),
      ...described(
        'a unique server id of letters, digits, ".", "_" and "-", such as mind.cerebras (MGP §2.3, §15.2)',
        'The unique id of this server, made of letters, digits, `.`, `_` and `-`, such as `mind.cerebras` (MGP §15.2; the `server_id` of MGP §2.3). ' +
          'Access grants, pinned tools, audit events and lifecycle notifications name the server by it. When two config files define the same id, the nearer file wins.',
      ),
      examples: ['mind.cerebras'],
    },
    command: {
      type: 'string',
      minLength: 1,
      ...described(
        'The program the kernel starts for the stdio transport (MGP §15.2, MCP §3.1).',
        'The program the kernel starts for the `stdio` transport, e.g. `python` or `npx` (MGP §15.2; MCP §3.1). Required when the transport is `stdio`.',
      ),
      examples: ['python', 'npx'],
    },
    args: {
      type: 'array',
      items: {
        type: 'string',
        ...described(
          'One command-line argument (MGP §15.2).',
          'One command-line argument, passed as is: no shell splitting (MGP §15.2).',
        ),
      },
      ...described(
        'Arguments passed to command (MGP §15.2).',
        `Arguments passed to \`command\`, one string each (MGP §15.2). ${REFERENCES}`,
      ),
      examples: [['mcp-servers/cerebras/server.py']],
    },
    transport: {
      type: 'string',
      ...enumOf(TRANSPORTS),
      ...described(
        'How the kernel talks to the server: stdio, http or sse; left out, stdio, or http when only url is given (MGP §1.4, §15.2).',
        "How the kernel talks to the server (MGP §1.4: MGP inherits MCP's transports; MCP §3):\n\n" +
          '- `stdio`: spawn `command` and use stdin/stdout\n- `http`: Streamable HTTP at `url`\n- `sse`: the deprecated HTTP+SSE transport at `url`\n\n' +
          'Left out, it is `stdio`, or `http` when the server has a `url` and no `command`.',
      ),
    },
    url: {
      type: 'string',
      format: 'uri',
      ...described(
        'The endpoint of an http or sse server, an absolute URL (MGP §1.4, MCP §3.2–3.3).',
        `The endpoint of an \`http\` or \`sse\` server, an absolute URL such as \`https://tools.example.com/mcp\` (MGP §1.4; MCP §3.2, §3.3). ${REFERENCES}`,
      ),
      examples: ['http://localhost:8080/mcp'],
    },
    headers: stringMap(
      'HTTP headers sent with every request to an http or sse server (MGP §1.4, MCP §3.2).',
      'HTTP headers sent with every request to an `http` or `sse` server, e.g. `Authorization = "Bearer ${secret:TOKEN}"` (MGP §1.4; MCP §3.2).',
      [
        'The value of this HTTP header (MCP §3.2).',
        'The value of this HTTP header (MCP §3.2); may refer to `${VAR}` or `${secret:NAME}`.',
      ],
      { Authorization: 'Bearer ${secret:TOOLS_TOKEN}' },
    ),
    oauth: serverOAuthSchema,
    env: stringMap(
      'Environment variables set for the server process, name to value (MGP §15.2).',
      'Environment variables set for the `stdio` server process, name to value, as `[servers.env]` (MGP §15.2).',
      [
        'The value of this environment variable (MGP §15.2).',
        'The value of this environment variable (MGP §15.2), typically a `${VAR}` reference.',
      ],
      { CEREBRAS_API_KEY: '${CEREBRAS_API_KEY}' },
    ),
    cwd: {
      type: 'string',
      minLength: 1,
      ...described(
        "The working directory of the server process; relative paths are from the config file's folder (MCP §3.1).",
        'The working directory of the `stdio` server process (MCP §3.1). A relative path is taken from the folder of the config file.',
      ),
      examples: ['mcp-servers/cerebras'],
    },
    request_timeout_secs: seconds(
      'Seconds a request may take before the kernel abandons it with a TIMEOUT error (MGP §14.3).',
      'Seconds a JSON-RPC request to this server may take before the kernel abandons it and reports `TIMEOUT` (code 3003, MGP §14.3). For a tool call, progress starts the count again, and it stands still while the kernel answers the server (a sampling review, an elicitation form, a callback question).',
      DEFAULT_REQUEST_TIMEOUT_SECS,
    ),
    connect_timeout_secs: seconds(
      'Seconds the connecting state may last without a sign of life (output on stderr, CPU time) before the server is in error (MGP §11.2); a server that keeps working gets up to ten times as long.',
      'Seconds the `connecting` state (transport set-up and `initialize` handshake) may last without a sign of life before the server goes to `error` (MGP §11.2). A stdio server that keeps working meanwhile (writing to stderr, or spending CPU time, as a first `npx -y` download does) gets another period each time, up to ten times this value; one that does nothing fails after one period, and the error says which it was.',
      DEFAULT_CONNECT_TIMEOUT_SECS,
    ),
    tool_result_max_chars: {
      type: 'integer',
      minimum: 1,
      ...described(
        'Characters of a tool result kept before the kernel truncates it (OpenFang, Kernel-Level Protection; MCP §5.1).',
        "Characters of a `tools/call` result kept before the kernel truncates it (MCP §5.1), like OpenFang's 50K-character cap on tool results (OpenFang, Kernel-Level Protection).",
      ),
      default: DEFAULT_TOOL_RESULT_MAX_CHARS,
    },
    framing: {
      type: 'string',
      ...enumOf(FRAMINGS),
      default: 'auto',
      ...described(
        'How the stdio server frames messages: auto (detected), newline (MCP) or content-length (OpenFang) (MCP §3.1).',
        "How the `stdio` server frames its JSON-RPC messages (MCP §3.1):\n\n- `auto`: detected from the server's first bytes\n- `newline`: one JSON text per line (the MCP specification)\n- `content-length`: `Content-Length` headers, as OpenFang's own MCP server speaks\n\nDefault: `auto`.",
      ),
    },
    approved_tools: {
      type: 'array',
      uniqueItems: true,
      items: {
        type: 'string',
        pattern: '^[A-Za-z0-9_.*?-]{1,128}$',
        ...described(
          'A tool name, or a pattern with * and ? such as read_* (MGP §4.4).',
          'A tool name, or a pattern with `*` and `?` such as `read_*`. A pattern never covers a `dangerous` tool: name those one by one (MGP §4.4).',
        ),
      },
      ...described(
        'Tools that run without asking even when their risk needs approval; patterns never cover dangerous tools (MGP §3.3, §4.4).',
        'Tools of this server that run without asking even when their risk would need approval (MGP §3.3, §4.4). ' +
          'Names or patterns (`read_*`); a pattern **never** covers a `dangerous` tool, which must be named explicitly. Under `config_only` these are the only tools that may run when approval is needed.',
      ),
      examples: [['read_*', 'list_notes']],
    },
    approval_policy: approvalPolicySchema('server'),
    default_access_policy: accessPolicySchema('server'),
    pinned_tools: {
      type: 'array',
      uniqueItems: true,
      items: {
        type: 'string',
        pattern: patternOf(TOOL_NAME),
        ...described(
          "The name of one of this server's tools (MGP §16.7, MCP §5.1).",
          "The name of one of this server's tools, without the server id (MGP §16.7; MCP §5.1).",
        ),
      },
      ...described(
        'Tools of this server always kept in the model context (MGP §16.7).',
        'Tools of this server always kept in the model context and never evicted (MGP §16.7 "Pinned tools"), by tool name. Same as listing `<id>.<tool>` in `[kernel] pinned_tools`.',
      ),
      examples: [['think', 'store']],
    },
    mgp: serverMgpSchema,
    tools: serverToolsSchema,
    access_grants: accessGrantsSchema('server'),
    mcpl: serverMcplSchema,
    sandbox: sandboxSchema('server'),
  },
  ...described(
    'One MCP or MGP server the kernel connects to (MGP §15.2).',
    'One MCP or MGP server the kernel connects to (MGP §15.2): its `id`, how to reach it (`command`/`args`/`env` for `stdio`, `url`/`headers` for `http` and `sse`), ' +
      'policies that override `[kernel]`, and the optional `[servers.mgp]`, `[servers.tools.<tool>]`, `[[servers.access_grants]]`, `[servers.mcpl]` and `[servers.sandbox]` tables.',
  ),
};
