/**
 * The managed policy (`/etc/mgp/policy.toml`, or `$MGP_MANAGED_POLICY`): what an organisation sets
 * for every kernel on a machine, above the user's and the workspace's config. Nothing below it may
 * loosen it; the loader ignores what would, with a warning naming the file and the key.
 */
import { approvalPolicySchema } from './mgpKernel';
import { postgresAuditSchema } from './mgpPostgres';
import { sandboxSchema } from './mgpSandbox';
import { described, JsonSchema } from './schemaTypes';

/** `id:`, `command:` or `url:` and a pattern, or a bare id pattern; `*` matches any run of characters. */
const SERVER_PATTERN = '^(?:(?:id|command|url):)?\\S.*$';

function patternList(plain: string, markdown: string, example: string[]): JsonSchema {
  return {
    type: 'array',
    uniqueItems: true,
    items: {
      type: 'string',
      minLength: 1,
      pattern: SERVER_PATTERN,
      ...described(
        'A server id pattern (github, corp-*), or command: or url: and a pattern; * matches any run of characters.',
        'A server id pattern (`github`, `corp-*`), or `command:` and a pattern matched against the command line (`command:npx -y @corp/*`), or `url:` and a pattern matched against the server URL (`url:https://mcp.corp.example/*`). `*` matches any run of characters.',
      ),
    },
    ...described(plain, markdown),
    examples: [example],
  };
}

const serversSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    allow: patternList(
      'When set, only servers that match one of these patterns may start.',
      'When set, only servers that match one of these patterns may start; every other server is blocked by the policy.',
      ['github', 'command:npx -y @corp/*', 'url:https://mcp.corp.example/*'],
    ),
    deny: patternList(
      'Servers that match one of these patterns never start; a deny wins over an allow.',
      'Servers that match one of these patterns never start, whoever asks (Run Tool, an agent, the gateway, the terminal); a deny wins over an allow.',
      ['command:*server-filesystem*'],
    ),
  },
  ...described(
    'Which servers may start on this machine.',
    'Which servers may start on this machine: `allow` and `deny` lists of patterns; a deny wins.',
  ),
};

const kernelFloorSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    approval_policy: {
      ...approvalPolicySchema('kernel'),
      ...described(
        'The loosest approval policy any config may set: a looser [kernel] or [[servers]] approval_policy is raised to it (MGP §3.3).',
        'The loosest approval policy any config may set (MGP §3.3): a looser `[kernel]` or `[[servers]]` `approval_policy` below is ignored with a warning and this one applies.',
      ),
    },
    moderate_tools_require_approval: {
      type: 'boolean',
      ...described(
        'When true, moderate tools wait for confirmation whatever the configs below say (MGP §4.4).',
        'When `true`, tools of risk level `moderate` wait for confirmation whatever the configs below say (MGP §4.4).',
      ),
    },
    sandbox: sandboxSchema('kernel'),
    audit: {
      type: 'object',
      additionalProperties: false,
      properties: { postgres: postgresAuditSchema('policy') },
      ...described(
        'Where every kernel on this machine ships its audit records.',
        'Where every kernel on this machine ships its audit records, whatever the configs below say.',
      ),
    },
  },
  ...described(
    'Floors for the kernel settings: nothing below may loosen them.',
    'Floors for the kernel settings of every config on this machine: nothing below may loosen them.',
  ),
};

const modelsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    allow: {
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', minLength: 1 },
      ...described(
        'Model name patterns the kernel may use for sampling, inference and agents; * matches any run of characters.',
        'Model name patterns the kernel may use for sampling, inference and agents (`gpt-4o*`, `llama-3.1-8b`); `*` matches any run of characters. A model that matches none is refused.',
      ),
      examples: [['gpt-4o*']],
    },
  },
  ...described('Which language models may be used.', 'Which language models may be used.'),
};

export const managedPolicySchema: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'MGP Kernel managed policy (policy.toml)',
  type: 'object',
  additionalProperties: false,
  properties: { servers: serversSchema, kernel: kernelFloorSchema, models: modelsSchema },
  ...described(
    "The machine-wide policy an organisation sets: which servers may start, floors for the kernel's settings, where audit records go, which models may be used.",
    "The machine-wide policy an organisation sets (`/etc/mgp/policy.toml`, `/Library/Application Support/MGP/policy.toml`, `%ProgramData%\\MGP\\policy.toml`, or `$MGP_MANAGED_POLICY`): which servers may start, floors for the kernel's settings, where audit records go, which models may be used. The user's and the workspace's files may tighten it, never loosen it.",
  ),
};
