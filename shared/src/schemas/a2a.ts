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

const peerSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'token'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      pattern: '^[A-Za-z0-9_-]+$',
      ...described(
        'Who holds this token: its tasks run as the agent agent.a2a.<name>, so [kernel] access rules can name it (MGP §5).',
        'Who holds this token. A task it sends runs as the agent `agent.a2a.<name>`, so `[kernel]` access rules and grants can name it (MGP §5), and its tasks are its own: another peer cannot read or cancel them.',
      ),
      examples: ['research-team'],
    },
    token: {
      type: 'string',
      minLength: 1,
      ...described(
        'The bearer token this peer sends to the kernel as an A2A server; write it as ${secret:NAME} (OpenFang, A2A Security).',
        'The bearer token this peer sends (`Authorization: Bearer …`) to the kernel as an A2A server (OpenFang, A2A Security: API Authentication). Keep it out of the file: `${secret:NAME}` (secret storage) or `${VAR}` (environment).',
      ),
      examples: ['${secret:RESEARCH_TEAM_A2A_TOKEN}'],
    },
    approves: {
      type: 'boolean',
      default: false,
      ...described(
        "Whether this peer's answer approves a call of its task that needs approval (MGP §3.2): the task waits in input-required. Default: false, such a call is refused.",
        "Whether this peer may approve, for its own tasks, a call that needs approval (MGP §3.2): the task then waits in `input-required` with the question, and the peer's answer `allow` runs the call once. Default: `false`, such a call is refused, nobody being there to ask. Only for a peer whose answers come from a person you trust to decide.",
      ),
    },
  },
  ...described(
    'A peer allowed to send tasks to the kernel as an A2A server, with its own identity (OpenFang, A2A Security; MGP §5); your own config only.',
    "A peer allowed to send tasks to the kernel as an A2A server (`mgp serve --a2a`, `[a2a] enabled`), with its own identity (OpenFang, A2A Security; MGP §5). Read from your own config only: a workspace file's peers are ignored.",
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
        "Whether OpenFang's A2A endpoints are active (OpenFang, A2A Configuration). Default: `false`. In your own config (not a workspace's), `true` makes the editor's kernel an A2A agent on 127.0.0.1 at `listen_port`; `mgp serve --a2a PORT` does the same from the terminal. The external agents are contacted whatever it says.",
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
    listen_port: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      default: 0,
      ...described(
        "The loopback port the editor's kernel serves A2A on when enabled; 0 picks a free one (OpenFang, A2A Configuration).",
        "The port on 127.0.0.1 the editor's kernel serves A2A on when `enabled = true` (OpenFang, A2A Configuration; your own config only). Default: `0`, a free port picked at start: **MGP: Show A2A Agent** says which, with the card's URL and the token.",
      ),
    },
    peers: {
      type: 'array',
      default: [],
      items: peerSchema,
      ...described(
        'Peers that may send the kernel tasks, each with its own token and identity (OpenFang, A2A Security); one [[a2a.peers]] table each.',
        "Peers that may send the kernel tasks as an A2A server (OpenFang, A2A Security), one `[[a2a.peers]]` table each, each with its own token and the identity `agent.a2a.<name>`. Besides them, the kernel's own token (printed by `mgp serve --a2a`, shown by **MGP: Show A2A Agent**) is `agent.a2a.peer`.",
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
