/**
 * `[servers.mgp]` (MGP §2, §3, §11.6, §15.2) and `[servers.tools.<tool name>]` (MGP §4.3) of mgp.toml.
 */
import { described, enumOf, JsonSchema, patternOf } from './schemaTypes';
import {
  CODE_SAFETY_LEVELS,
  MGP_EXTENSIONS,
  RESTART_POLICIES,
  RISK_LEVELS,
  SIDE_EFFECTS,
  STANDARD_PERMISSION_NAMES,
  TOOL_NAME,
  TRUST_LEVELS,
  VALIDATORS,
} from './vocabulary';

/** `permissions_required`, for a server (MGP §2.3, §3) or one tool (MGP §4.3). */
function permissionsSchema(of: 'server' | 'tool'): JsonSchema {
  const needs =
    of === 'server'
      ? 'this server needs to operate (MGP §2.3, §3.2)'
      : 'needed to call this tool (MGP §4.3)';
  return {
    type: 'array',
    uniqueItems: true,
    items: {
      type: 'string',
      minLength: 1,
      ...described(
        'A standard permission (filesystem.read, shell.execute…) or a custom one in reverse-domain notation such as com.example.custom_permission (MGP §3.2).',
        `A standard permission (${STANDARD_PERMISSION_NAMES.map((name) => `\`${name}\``).join(', ')}) or a custom one in reverse-domain notation, ` +
          'such as `com.example.custom_permission` (MGP §3.2).',
      ),
    },
    ...described(
      `Permissions ${needs}: standard names or reverse-domain custom ones.`,
      `Permissions ${needs}: standard names or custom reverse-domain ones such as \`com.example.custom_permission\` (MGP §3.2). ` +
        'Under the `config_only` approval policy these are the permissions the kernel approves (MGP §3.3).',
    ),
    examples: [of === 'server' ? ['network.outbound'] : ['shell.execute']],
  };
}

function restartCount(value: number, plain: string, markdown: string): JsonSchema {
  return {
    type: 'integer',
    minimum: 0,
    default: value,
    ...described(`${plain} (MGP §11.6).`, `${markdown} (MGP §11.6). Default: \`${value}\`.`),
    examples: [value],
  };
}

export const serverMgpSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    negotiate: {
      type: 'boolean',
      default: true,
      ...described(
        'Whether the kernel offers MGP to this server at initialize; false treats it as plain MCP (MGP §2.1, §2.4).',
        'Whether the kernel offers MGP to this server in `initialize` (MGP §2.1). `false` connects as plain MCP: a server that answers with `mgp` anyway is logged as a protocol violation (MGP §2.4 rule 3). Default: `true`.',
      ),
    },
    extensions: {
      type: 'array',
      uniqueItems: true,
      items: {
        type: 'string',
        ...enumOf(MGP_EXTENSIONS),
        ...described(
          'One of the standard MGP extensions of MGP §2.2.',
          'One of the standard MGP extensions (MGP §2.2 table).',
        ),
      },
      ...described(
        "The MGP extensions this server supports, known before connecting; the active set is the intersection with the kernel's (MGP §2.2, §2.4, §15.3).",
        'The MGP extensions this server supports (MGP §2.2), known before any connection (MGP §15.3). ' +
          "The active set is the **intersection** of the kernel's and the server's extensions (MGP §2.4).",
      ),
      examples: [['security', 'lifecycle', 'streaming']],
    },
    permissions_required: permissionsSchema('server'),
    trust_level: {
      type: 'string',
      ...enumOf(TRUST_LEVELS),
      ...described(
        'How far the kernel trusts this server: trusted, standard or sandboxed (MGP §2.3).',
        'How far the kernel trusts this server: `trusted`, `standard` or `sandboxed` (MGP §2.3, as in the §15.2 example).',
      ),
      examples: ['standard'],
    },
    restart_policy: {
      type: 'string',
      ...enumOf(RESTART_POLICIES),
      default: 'on_failure',
      ...described(
        'When the kernel restarts the server: never, on_failure or always (MGP §11.6).',
        'When the kernel restarts this server (MGP §11.6):\n\n- `never`: do not restart on failure\n- `on_failure`: restart only when the server exits with an error\n- `always`: restart on any exit, graceful shutdown included\n\nDefault: `on_failure`.',
      ),
    },
    max_restarts: restartCount(
      5,
      'Restarts allowed within restart_window_secs; one more puts the server in the error state, with no more retries',
      'Restarts allowed within `restart_window_secs`. Beyond it the server goes to the `error` state and the kernel stops retrying, with a `SERVER_DISCONNECTED` audit event (`restart_limit_exceeded`)',
    ),
    restart_window_secs: restartCount(
      300,
      'The window, in seconds, over which max_restarts is counted',
      'The window, in seconds, over which `max_restarts` is counted',
    ),
    backoff_base_ms: restartCount(
      1000,
      'The first delay, in milliseconds, before a restart; later delays grow up to backoff_max_ms',
      'The first delay before a restart, in milliseconds; later delays grow up to `backoff_max_ms`',
    ),
    backoff_max_ms: restartCount(
      30000,
      'The longest delay, in milliseconds, between restarts',
      'The longest delay between restarts, in milliseconds; not less than `backoff_base_ms`',
    ),
  },
  ...described(
    'MGP settings of this server; without this table the server is treated as standard MCP (MGP §15.2).',
    'MGP settings of this server (MGP §15.2): its extensions (§2.2), required permissions (§3.2), trust level (§2.3) and restart policy (§11.6). ' +
      'The table is **optional**: without it the server is treated as standard MCP, and MCP-only clients ignore it.',
  ),
};

function importList(plain: string, markdown: string, example: string[]): JsonSchema {
  return {
    type: 'array',
    uniqueItems: true,
    items: {
      type: 'string',
      minLength: 1,
      ...described(
        'A module name (MGP §7.3).',
        'A module name, e.g. `subprocess` or `child_process` (MGP §7.3).',
      ),
    },
    ...described(plain, markdown),
    examples: [example],
  };
}

/** MGP §7.3 `security.code_safety`, as a per-tool override. */
const codeSafetySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['level'],
  properties: {
    level: {
      type: 'string',
      ...enumOf(CODE_SAFETY_LEVELS),
      ...described(
        'How strictly code arguments are checked: unrestricted, standard, strict or readonly (MGP §7.2).',
        'How strictly the kernel checks code arguments before the call is forwarded (MGP §7.2).',
      ),
    },
    language: {
      type: 'string',
      minLength: 1,
      ...described(
        'The language of the code: python or javascript (MGP §7.3).',
        'The language of the code, e.g. `python` or `javascript` (MGP §7.3); guessed from the code when left out.',
      ),
      examples: ['python'],
    },
    max_code_size_bytes: {
      type: 'integer',
      minimum: 1,
      ...described(
        'Largest code accepted, in bytes (MGP §7.3).',
        'Largest code accepted, in bytes (MGP §7.2 `strict`, §7.3).',
      ),
      examples: [10000],
    },
    blocked_imports: importList(
      'Modules code may not import (MGP §7.3).',
      'Modules code may not import (MGP §7.2 `standard`, §7.3).',
      ['subprocess', 'socket'],
    ),
    allowed_imports: importList(
      'The only modules code may import, at the strict and readonly levels (MGP §7.3).',
      'The only modules code may import at the `strict` and `readonly` levels (MGP §7.2, §7.3).',
      ['json', 'math'],
    ),
    blocked_patterns: {
      type: 'array',
      uniqueItems: true,
      items: {
        type: 'string',
        minLength: 1,
        ...described(
          'A text that code may not contain (MGP §7.3).',
          'A text that code may not contain, e.g. `eval(` (MGP §7.3).',
        ),
      },
      ...described(
        'Texts code may not contain, such as eval( (MGP §7.3).',
        'Texts code may not contain, such as `eval(` or `os.system` (MGP §7.3).',
      ),
      examples: [['eval(', 'exec(']],
    },
  },
  ...described(
    "The code safety declaration for this tool's code arguments (MGP §7.3).",
    'The code safety declaration for this tool (MGP §7.3): the level of MGP §7.2 and the lists the kernel checks code arguments against. Replaces what the server declares.',
  ),
};

const toolOverrideSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    risk_level: {
      type: 'string',
      ...enumOf(RISK_LEVELS),
      ...described(
        'safe, moderate or dangerous: decides whether a call needs confirmation (MGP §4.3, §4.4).',
        "The tool's risk (MGP §4.3, §4.4):\n\n- `safe`: no side effects, runs without confirmation\n- `moderate`: limited side effects, optional confirmation\n- `dangerous`: system-level or irreversible effects, explicit confirmation or permission",
      ),
    },
    permissions_required: permissionsSchema('tool'),
    side_effects: {
      type: 'array',
      uniqueItems: true,
      items: {
        type: 'string',
        ...enumOf(SIDE_EFFECTS),
        ...described('A side-effect category of MGP §4.3.', 'A side-effect category (MGP §4.3).'),
      },
      ...described(
        'Categories of side effects: filesystem, network, process, database, notification (MGP §4.3).',
        'Categories of side effects the tool has: `filesystem`, `network`, `process`, `database`, `notification` (MGP §4.3).',
      ),
      examples: [['filesystem', 'process']],
    },
    validator: {
      type: 'string',
      ...enumOf(VALIDATORS),
      ...described(
        'The kernel-side validator applied before the call reaches the server (MGP §4.3, §4.5).',
        'The kernel-side validator applied to the call before it is forwarded to the server (MGP §4.3, §4.5); it holds even against a compromised server.',
      ),
    },
    reversible: {
      type: 'boolean',
      ...described(
        "Whether the tool's effects can be undone (MGP §4.3).",
        "Whether the tool's effects can be undone (MGP §4.3).",
      ),
    },
    confirmation_required: {
      type: 'boolean',
      ...described(
        'Whether the kernel asks the user before each call (MGP §4.3).',
        'Whether the kernel prompts the user before each execution of the tool (MGP §4.3).',
      ),
    },
    code_safety: codeSafetySchema,
  },
  ...described(
    'Security metadata for this tool that replaces, field by field, what the server declares in tools/list (MGP §4.2, §4.3).',
    'Security metadata for this tool, with the fields of MGP §4.3. Each field set here **replaces** the value the server declares in its `tools/list` `security` object (MGP §4.2); ' +
      "fields left out keep the server's. `risk_level`, required in a server's declaration, is optional here.",
  ),
};

export const serverToolsSchema: JsonSchema = {
  type: 'object',
  patternProperties: { [patternOf(TOOL_NAME)]: toolOverrideSchema },
  additionalProperties: false,
  ...described(
    'Per-tool security overrides, one [servers.tools.<tool name>] table per tool (MGP §4.3).',
    'Per-tool security overrides, one `[servers.tools.<tool name>]` table per tool, keyed by the MCP tool name ' +
      '(1–128 of `A-Z a-z 0-9 _ - .`; quote names with dots: `[servers.tools."files.read"]`) (MGP §4.3, MCP §5.1).',
  ),
};
