/**
 * `[a2a]` and `[[a2a.external_agents]]`: the Agent-to-Agent settings OpenFang's config.toml defines
 * (OpenFang, A2A Configuration), read the same way from mgp.toml and servers.toml. The keys beyond
 * OpenFang's (`api_key`, `timeout_secs`, `risk_level`) are what the kernel needs to delegate safely.
 */
import { described, enumOf, JsonSchema } from './schemaTypes';
import { RISK_LEVELS } from './vocabulary';

/** How long a delegation may take, card to final state, unless the agent's table says otherwise. */
export const DEFAULT_A2A_TIMEOUT_SECS = 300;
/** Sending your data to another agent is an external side effect (MGP §4.4). */
export const DEFAULT_A2A_RISK_LEVEL = 'moderate';

const externalAgentSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'url'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      pattern: '^[A-Za-z0-9._-]+$',
      ...described(
        'Display name for this external agent: letters, digits, ".", "_" and "-" (OpenFang, A2A Configuration).',
        'Display name for this external agent (OpenFang, A2A Configuration): letters, digits, `.`, `_` and `-`. The agent is offered to agents as the tool `delegate` of the server `a2a.<name>`.',
      ),
      examples: ['research-agent'],
    },
    url: {
      type: 'string',
      format: 'uri',
      pattern: '^https?://',
      ...described(
        "Base URL where the agent's card is published (OpenFang, A2A Configuration).",
        "Base URL where the agent's card is published (OpenFang, A2A Configuration): the kernel reads `{url}/.well-known/agent-card.json` (A2A 1.0 and 0.3), else `{url}/.well-known/agent.json` (OpenFang), and speaks what the card says.",
      ),
      examples: ['https://research.example.com'],
    },
    api_key: {
      type: 'string',
      minLength: 1,
      ...described(
        'Sent as "Authorization: Bearer <api_key>" with every request to the agent; write it as ${secret:NAME} (OpenFang, A2A Security).',
        'Sent as `Authorization: Bearer <api_key>` with every request to the agent (OpenFang, A2A Security: API Authentication). Keep it out of the file: `${secret:NAME}` (secret storage) or `${VAR}` (environment), resolved when the agent is first contacted.',
      ),
      examples: ['${secret:RESEARCH_AGENT_KEY}'],
    },
    timeout_secs: {
      type: 'number',
      exclusiveMinimum: 0,
      default: DEFAULT_A2A_TIMEOUT_SECS,
      ...described(
        'Seconds a delegation may take before the kernel cancels the remote task and reports a timeout (MGP §14.3; OpenFang, Kernel-Level Protection).',
        `Seconds a delegation to this agent may take, from sending the message to the task's final state, before the kernel cancels the remote task and reports \`TIMEOUT\` (MGP §14.3). Default: \`${DEFAULT_A2A_TIMEOUT_SECS}\`.`,
      ),
    },
    risk_level: {
      type: 'string',
      ...enumOf(RISK_LEVELS),
      default: DEFAULT_A2A_RISK_LEVEL,
      ...described(
        'The risk level of delegating to this agent (MGP §4.4): moderate and dangerous delegations are approved before a message is sent, safe ones are not. Default: moderate.',
        'The risk level of delegating to this agent (MGP §4.4). Sending your data to another agent is an external side effect, so the default is `"moderate"` and a delegation is approved (by you, or by a grant you gave) before the message is sent; `"dangerous"` also asks; `"safe"` sends without asking.',
      ),
    },
  },
  ...described(
    'An external A2A agent discovered at start, an ExternalAgent (OpenFang, A2A Configuration).',
    'An external A2A agent to discover at start, an `ExternalAgent` (OpenFang, A2A Configuration). Its card is fetched when the kernel starts; delegating to it is a tool call through the kernel (access, approval, audit).',
  ),
};

export const a2aSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      default: false,
      ...described(
        'Whether A2A endpoints are active (OpenFang, A2A Configuration).',
        "Whether OpenFang's A2A endpoints are active (OpenFang, A2A Configuration). Default: `false`. MGP Kernel contacts the external agents whatever it says, and serves A2A only when asked to: `mgp serve --a2a PORT`.",
      ),
    },
    listen_path: {
      type: 'string',
      pattern: '^/',
      default: '/a2a',
      ...described(
        'Base path for A2A endpoints, starting with "/" (OpenFang, A2A Configuration).',
        'Base path for A2A endpoints, starting with `/` (OpenFang, A2A Configuration). Default: `"/a2a"`, the path `mgp serve --a2a PORT` serves them under.',
      ),
    },
    external_agents: {
      type: 'array',
      default: [],
      items: externalAgentSchema,
      ...described(
        'External agents to discover at start, one [[a2a.external_agents]] table each (OpenFang, A2A Configuration).',
        'External agents to discover at start, one `[[a2a.external_agents]]` table each (OpenFang, A2A Configuration). Default: `[]`. An agent a workspace file declares is contacted only after you allow it, and never in Restricted Mode.',
      ),
    },
  },
  ...described(
    'Agent-to-Agent protocol settings, an A2aConfig (OpenFang, A2A Configuration).',
    'Agent-to-Agent protocol settings, the `A2aConfig` (OpenFang, A2A Configuration): the external agents the kernel delegates to.',
  ),
};
