/**
 * `[kernel]` of mgp.toml, and the policy and access-grant fields that `[[servers]]` shares with it.
 */
import { postgresAuditSchema } from './mgpPostgres';
import { sandboxSchema } from './mgpSandbox';
import { described, enumOf, JsonSchema, patternOf } from './schemaTypes';
import {
  ACCESS_POLICIES,
  APPROVAL_POLICIES,
  AUDIT_RETENTIONS,
  GRANT_PERMISSIONS,
  SERVER_ID,
  TOOL_NAME,
} from './vocabulary';

type Scope = 'kernel' | 'server';

/** MGP §3.3, for `[kernel]` or, overriding it, one server. */
export function approvalPolicySchema(scope: Scope): JsonSchema {
  const plain =
    scope === 'kernel'
      ? "How the kernel answers servers' permission requests, unless a server overrides it: interactive, auto_approve, deny_all or config_only (MGP §3.3)."
      : "How the kernel answers this server's permission requests, overriding [kernel] approval_policy: interactive, auto_approve, deny_all or config_only (MGP §3.3).";
  const lead =
    scope === 'kernel'
      ? "How the kernel answers servers' permission requests, unless a server sets its own `approval_policy`"
      : "How the kernel answers this server's permission requests, overriding `[kernel] approval_policy`";
  return {
    type: 'string',
    ...enumOf(APPROVAL_POLICIES),
    ...described(
      plain,
      `${lead} (MGP §3.3, flow in §3.4):\n\n` +
        '- `interactive`: present each permission to the human operator\n' +
        '- `auto_approve`: approve everything ("YOLO mode")\n' +
        '- `deny_all`: deny every permission not pre-configured\n' +
        '- `config_only`: approve only the permissions listed in configuration (`permissions_required`)',
    ),
    examples: ['interactive'],
  };
}

/** MGP §5.5, for `[kernel]` or, overriding it, one server. */
export function accessPolicySchema(scope: Scope): JsonSchema {
  const plain =
    scope === 'kernel'
      ? "Whether agents may use a server's tools when no access grant decides, unless the server overrides it: opt-in denies, opt-out allows (MGP §5.2, §5.5)."
      : "Whether agents may use this server's tools when no access grant decides, overriding [kernel] default_access_policy: opt-in denies, opt-out allows (MGP §5.2, §5.5).";
  const lead =
    scope === 'kernel'
      ? "Whether agents may use a server's tools when no access grant decides, unless the server sets its own `default_access_policy`"
      : "Whether agents may use this server's tools when no access grant decides, overriding `[kernel] default_access_policy`";
  return {
    type: 'string',
    ...enumOf(ACCESS_POLICIES),
    ...described(
      plain,
      `${lead} (MGP §5.5). It is the lowest priority of the access hierarchy, after tool grants and server grants (MGP §5.2).\n\n` +
        '- `opt-in`: deny by default; agents must be explicitly granted access\n' +
        '- `opt-out`: allow by default; agents have access unless explicitly denied',
    ),
    examples: ['opt-in'],
  };
}

/** One `[[kernel.access_grants]]` entry (with `server_id`) or `[[servers.access_grants]]` entry (without). */
export function accessGrantSchema(scope: Scope): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    agent_id: {
      type: 'string',
      minLength: 1,
      ...described(
        'The agent the entry is for (MGP §5.4).',
        'The agent the entry is for, as in `mgp.access.grant` `agent_id` (MGP §5.4).',
      ),
      examples: ['research-agent'],
    },
  };
  if (scope === 'kernel') {
    properties.server_id = {
      type: 'string',
      pattern: patternOf(SERVER_ID),
      ...described(
        'The id of the [[servers]] entry the grant is about (MGP §5.4).',
        'The `id` of the `[[servers]]` entry the grant is about, as in `mgp.access.grant` `server_id` (MGP §5.4).',
      ),
      examples: ['mind.cerebras'],
    };
  }
  Object.assign(properties, {
    tool_name: {
      type: 'string',
      pattern: patternOf(TOOL_NAME),
      ...described(
        "One tool of the server: the entry is then a tool_grant, which outranks a server_grant; without it the entry is a server_grant for all the server's tools (MGP §5.2, §5.3).",
        'One tool of the server (MCP tool name). With it the entry is a **`tool_grant`** (single tool); without it, a **`server_grant`** (all tools on the server). ' +
          'A tool grant outranks a server grant, which outranks the default policy (MGP §5.2, §5.3).',
      ),
      examples: ['think'],
    },
    permission: {
      type: 'string',
      ...enumOf(GRANT_PERMISSIONS),
      default: 'allow',
      ...described(
        'allow grants access, deny withholds it; deny is how an opt-out server shuts an agent out (MGP §5.4, §5.5).',
        '`allow` grants access, `deny` withholds it, as in `mgp.access.grant` `permission` (MGP §5.4). ' +
          'Under the `opt-out` default policy a `deny` entry is the way to shut an agent out (MGP §5.5).',
      ),
    },
    justification: {
      type: 'string',
      ...described(
        'Why the access was granted, recorded with the grant (MGP §5.4).',
        'Why the access was granted, kept with the entry and shown in the audit trail, as in `mgp.access.grant` `justification` (MGP §5.4).',
      ),
    },
    expires_at: {
      type: 'string',
      format: 'date-time',
      ...described(
        'When the entry stops applying: a quoted RFC 3339 date-time with a time zone, e.g. "2026-12-31T23:59:59Z" (MGP §5.4).',
        'When the entry stops applying, as in `mgp.access.grant` `expires_at` (MGP §5.4): an RFC 3339 date-time with a time zone, ' +
          '**written as a quoted string** (`expires_at = "2026-12-31T23:59:59Z"`), not as a bare TOML date-time. Omit it for an entry that does not expire.',
      ),
      examples: ['2026-12-31T23:59:59Z'],
    },
  } satisfies Record<string, JsonSchema>);
  const where = scope === 'kernel' ? 'an agent on one server' : 'an agent on this server';
  return {
    type: 'object',
    additionalProperties: false,
    required: scope === 'kernel' ? ['agent_id', 'server_id'] : ['agent_id'],
    properties,
    ...described(
      `An access entry for ${where}: a tool_grant with tool_name, a server_grant without (MGP §5.2–5.4).`,
      `An access entry for ${where}, loaded as if made with \`mgp.access.grant\` (MGP §5.4). ` +
        'With `tool_name` it is a `tool_grant`, without it a `server_grant` (MGP §5.3); tool grants outrank server grants, which outrank the default policy (MGP §5.2).',
    ),
  };
}

export function accessGrantsSchema(scope: Scope): JsonSchema {
  const toml = scope === 'kernel' ? '[[kernel.access_grants]]' : '[[servers.access_grants]]';
  return {
    type: 'array',
    items: accessGrantSchema(scope),
    ...described(
      `Access control entries, one ${toml} table each (MGP §5.2–5.4).`,
      `Access control entries, one \`${toml}\` table each: the tool and server grants the kernel starts with (MGP §5.2–5.4).`,
    ),
  };
}

function budgetField(value: number, plain: string, markdown: string): JsonSchema {
  return {
    type: 'integer',
    minimum: 0,
    default: value,
    ...described(`${plain} (MGP §16.8).`, `${markdown} (MGP §16.8). Default: \`${value}\`.`),
    examples: [value],
  };
}

const toolContextBudget: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    max_tokens: budgetField(
      8000,
      'Tokens of tool definitions allowed in the model context in all',
      'Tokens of tool definitions the model context may hold in all',
    ),
    pinned_reserve: budgetField(
      2000,
      'Tokens kept for pinned tools, which are never evicted',
      'Tokens kept for **pinned tools**, which are never evicted',
    ),
    discovery_reserve: budgetField(
      3000,
      'Tokens kept for discovery results; results beyond it are truncated',
      'Tokens kept for **discovery results**; results that would exceed the budget are truncated (fewer results returned)',
    ),
    cache_limit: budgetField(
      3000,
      'Tokens the session tool cache may use before least-recently-used tools are evicted',
      'Tokens the **session tool cache** may use; beyond it the least-recently-used cached tools are evicted, see the session tool cache of MGP §16.7',
    ),
  },
  ...described(
    'The context budget for tool definitions: the kernel evicts least-recently-used cached tools when it is exceeded (MGP §16.8).',
    'The **context budget** for tool definitions (MGP §16.8). When it is exceeded the kernel evicts the least-recently-used cached tools; ' +
      'pinned tools are never evicted and discovery results are truncated. Kernel tools (`mgp.*`) do not count unless pinned.',
  ),
};

const auditSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    retention: {
      type: 'string',
      ...enumOf(AUDIT_RETENTIONS),
      default: 'keep_all',
      ...described(
        'What the local audit log keeps: keep_all, time_based or size_based (MGP §19.4).',
        'What the local audit log keeps (MGP §19.4): `keep_all`, `time_based` (`retention_days`) or `size_based` (`retention_mb`). Default: `keep_all`.',
      ),
    },
    retention_days: {
      type: 'integer',
      minimum: 1,
      ...described(
        'Days of audit files kept under time_based retention (MGP §19.4).',
        'Days of audit files kept under `time_based` retention (MGP §19.4).',
      ),
      examples: [90],
    },
    retention_mb: {
      type: 'integer',
      minimum: 1,
      ...described(
        'Megabytes of audit files kept under size_based retention (MGP §19.4).',
        'Megabytes of audit files kept under `size_based` retention (MGP §19.4).',
      ),
      examples: [500],
    },
    rotate_mb: {
      type: 'integer',
      minimum: 1,
      default: 10,
      ...described(
        'Size in megabytes at which the audit log starts a new file (MGP §6).',
        'Size in megabytes at which the audit log starts a new file; the hash chain continues across files (MGP §6). Default: `10`.',
      ),
      examples: [10],
    },
    postgres: postgresAuditSchema('config'),
  },
  ...described(
    'The local audit log: append-only, hash-chained JSONL per workspace, with rotation and retention (MGP §6, §19.4).',
    'The local audit log (MGP §6.3 "If no Audit server is connected, the kernel SHOULD log events locally"): append-only JSONL per workspace, each record hash-chained to the one before, rotated by size, pruned by the retention policy of MGP §19.4.',
  ),
};

export const kernelSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    approval_policy: approvalPolicySchema('kernel'),
    default_access_policy: accessPolicySchema('kernel'),
    moderate_tools_require_approval: {
      type: 'boolean',
      ...described(
        "Whether tools of risk level moderate wait for the operator's confirmation; the spec makes it optional (MGP §4.4).",
        "Whether tools whose `risk_level` is `moderate` wait for the operator's confirmation before they run. " +
          'MGP §4.4 runs `safe` tools without confirmation, `moderate` ones "with optional confirmation" (this switch) and `dangerous` ones only with explicit confirmation or permission.',
      ),
    },
    tool_creation: {
      type: 'boolean',
      default: false,
      ...described(
        'Whether mgp.tools.request may answer creating and have tools generated; off by default (MGP §16.6).',
        'Whether `mgp.tools.request` may answer `creating` and generate a tool when none matches (MGP §16.6). **Off by default**; when on, all six guardrails of §16.6 apply (strict code safety, operator approval, session-scoped tools, `TOOL_CREATED_DYNAMIC` audit events).',
      ),
    },
    discovery_examples: {
      type: 'boolean',
      deprecationMessage:
        'Removed: discovery no longer ships example requests for well-known servers; every server is ranked the same way. This key does nothing; delete it.',
      ...described(
        'Removed: does nothing. Discovery no longer ships example requests for well-known servers; delete this key (MGP §16.4).',
        "Removed, and kept only so that configs that set it still load: it does nothing. Discovery no longer ships example requests for well-known servers; every server's tools are ranked by the same engine and model (MGP §16.4). Delete this key.",
      ),
    },
    keep_registered_servers: {
      type: 'boolean',
      default: false,
      ...described(
        'Whether servers registered at run time with mgp.discovery.register are started again in the next session; off: they last until deregistered or the session ends (MGP §15.4).',
        'Whether servers registered at run time with `mgp.discovery.register` come back in the next session (MGP §15.4). Off by default: a registered server lasts until it is deregistered or the session ends.',
      ),
    },
    private_hosts: {
      type: 'array',
      uniqueItems: true,
      items: {
        type: 'string',
        pattern: '^(?:[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*\\.?|\\[?[0-9A-Fa-f:.]+\\]?)$',
        ...described(
          'A host name or IP address, without scheme or port: sso.corp.example, 10.0.0.5, ::1 (MCP Authorization, security considerations).',
          'A host name or IP address, without scheme or port: `sso.corp.example`, `10.0.0.5`, `::1` (MCP 2025-11-25, Authorization: security considerations).',
        ),
      },
      ...described(
        "Hosts on this machine or a private network the kernel may reach on a server's word (an authorization server for sign-in, say); honoured in your own config only (MCP Authorization, security considerations).",
        "Hosts on this machine or a private network (loopback, private, link-local addresses, or names that resolve to them) that the kernel may reach when a server names them: an authorization server on your network for an OAuth sign-in, say (MCP 2025-11-25, Authorization: security considerations). Requests made on a server's word (OAuth discovery, registration, authorization and token endpoints, icons) go to no such host otherwise, except the host of a server your own config names. Honoured in your own config only: a workspace file's list is ignored.",
      ),
      examples: [['sso.corp.example']],
    },
    audit: auditSchema,
    tool_context_budget: toolContextBudget,
    pinned_tools: {
      type: 'array',
      uniqueItems: true,
      items: {
        type: 'string',
        pattern: '^[A-Za-z0-9_%-][A-Za-z0-9._%-]*\\.[A-Za-z0-9_.%-]{1,128}$',
        ...described(
          'server_id.tool_name, e.g. mind.cerebras.think, split at the last dot: a dot in the tool name is written %2E (MGP §16.7).',
          '`server_id.tool_name`, e.g. `mind.cerebras.think` or the kernel tool `mgp.tools.session` (MGP §16.7, §16.8). ' +
            'It splits at its last dot: a `.` or `%` in the tool name is written `%2E` or `%25` ' +
            "(the tool `cleanup.temp` of server `files` is `files.cleanup%2Etemp`), as in discovery's `tool_id`.",
        ),
      },
      ...described(
        'Tools always kept in the model context, never evicted, written server_id.tool_name (MGP §16.7).',
        'Tools always kept in the model context and never evicted (MGP §16.7 "Pinned tools"), written `server_id.tool_name`. ' +
          'They count against `tool_context_budget.pinned_reserve` (MGP §16.8). A server can also pin its own tools with `[[servers]] pinned_tools`.',
      ),
      examples: [['mind.cerebras.think', 'memory.store']],
    },
    access_grants: accessGrantsSchema('kernel'),
    sandbox: sandboxSchema('kernel'),
  },
  ...described(
    'Global kernel settings: approval and access policies, the tool context budget, pinned tools and access grants (MGP §3.3, §5, §16.7–16.8).',
    'Global settings of the kernel, for every server unless the server overrides them: the permission approval policy (MGP §3.3), ' +
      'the default access policy and access grants (MGP §5), and the tool context budget and pinned tools (MGP §16.7–16.8).',
  ),
};
