/**
 * The closed vocabularies of the config formats, with what the protocol texts say about each word.
 * The JSON Schemas take their `enum`s from here, and completion, hover and the semantic checks read the
 * same lists, so a word is added in one place.
 */

export type RiskLevel = 'safe' | 'moderate' | 'dangerous';

export interface VocabularyEntry {
  readonly name: string;
  readonly description: string;
  /** For permissions: the risk level MGP §3.2 gives it. */
  readonly risk?: RiskLevel;
}

function vocabulary(entries: VocabularyEntry[]): readonly VocabularyEntry[] {
  return Object.freeze(entries.map((entry) => Object.freeze({ ...entry })));
}

function namesOf(entries: readonly VocabularyEntry[]): readonly string[] {
  return Object.freeze(entries.map((entry) => entry.name));
}

/** MGP §3.2, with the risk level of each permission. */
export const STANDARD_PERMISSIONS = vocabulary([
  {
    name: 'filesystem.read',
    description: 'Read files from the host filesystem',
    risk: 'moderate',
  },
  {
    name: 'filesystem.write',
    description: 'Write/create/delete files',
    risk: 'dangerous',
  },
  {
    name: 'network.outbound',
    description: 'Make outbound network requests',
    risk: 'moderate',
  },
  { name: 'network.listen', description: 'Bind to a network port', risk: 'dangerous' },
  { name: 'shell.execute', description: 'Execute shell commands', risk: 'dangerous' },
  { name: 'code_execution', description: 'Execute arbitrary code', risk: 'dangerous' },
  {
    name: 'memory.read',
    description: 'Read from memory/knowledge stores',
    risk: 'safe',
  },
  {
    name: 'memory.write',
    description: 'Write to memory/knowledge stores',
    risk: 'moderate',
  },
  {
    name: 'system.info',
    description: 'Read system information (OS, CPU, etc.)',
    risk: 'safe',
  },
  { name: 'camera', description: 'Access camera/vision devices', risk: 'dangerous' },
  { name: 'notification', description: 'Send notifications to the user', risk: 'safe' },
]);
export const STANDARD_PERMISSION_NAMES = namesOf(STANDARD_PERMISSIONS);

/** MGP §2.2, the table of standard extensions (with the layer and the section that defines each). */
export const MGP_EXTENSIONS = vocabulary([
  {
    name: 'security',
    description: 'Permission declarations and tool security metadata; layer 1+3 (MGP §2.2, §3, §4)',
  },
  {
    name: 'access_control',
    description: 'Agent-scoped tool access control; layer 4 (MGP §2.2, §5)',
  },
  { name: 'audit', description: 'Structured audit trail notifications; layer 2 (MGP §2.2, §6)' },
  { name: 'code_safety', description: 'Code execution safety framework; layer 1 (MGP §2.2, §7)' },
  {
    name: 'lifecycle',
    description: 'State transitions, health checks, shutdown; layer 2+4 (MGP §2.2, §11)',
  },
  {
    name: 'streaming',
    description: 'Stream chunks, progress, cancellation; layer 2+3 (MGP §2.2, §12)',
  },
  {
    name: 'bidirectional',
    description: 'Callbacks, events, subscriptions; layers 2+3+4 (MGP §2.2, §13)',
  },
  {
    name: 'discovery',
    description: 'Server registration, deregistration; layer 4 (MGP §2.2, §15)',
  },
  {
    name: 'tool_discovery',
    description: 'Dynamic tool search, active tool request; layer 4 (MGP §2.2, §16)',
  },
  {
    name: 'error_handling',
    description: 'Structured error categories and recovery hints; layer 1 (MGP §2.2, §14)',
  },
]);
export const MGP_EXTENSION_NAMES = namesOf(MGP_EXTENSIONS);

/** MGP §7.2: how strictly code arguments are checked. */
export const CODE_SAFETY_LEVELS = vocabulary([
  { name: 'unrestricted', description: 'No code restrictions (MGP §7.2)' },
  {
    name: 'standard',
    description:
      'Block known dangerous patterns: import blocklist and pattern blocklist (MGP §7.2)',
  },
  {
    name: 'strict',
    description: 'Allowlist-only imports, pattern blocklist and a size limit (MGP §7.2)',
  },
  { name: 'readonly', description: 'All of strict, and no write operations (MGP §7.2)' },
]);
export const CODE_SAFETY_LEVEL_NAMES = namesOf(CODE_SAFETY_LEVELS);

/** How an MCP server frames JSON-RPC on stdio. */
export const FRAMINGS = vocabulary([
  {
    name: 'auto',
    description:
      "Detect from the server's first bytes; the first message is readable by both kinds of reader",
  },
  {
    name: 'newline',
    description: 'One JSON text per line, as the MCP specification says (MCP §3.1)',
  },
  {
    name: 'content-length',
    description:
      "LSP-style Content-Length headers, as OpenFang's own MCP server speaks (OpenFang, MCP Server)",
  },
]);

/** MGP §19.4 retention policies of the audit log. */
export const AUDIT_RETENTIONS = vocabulary([
  { name: 'keep_all', description: 'Keep every audit record (MGP §19.4)' },
  { name: 'time_based', description: 'Delete audit files older than retention_days (MGP §19.4)' },
  {
    name: 'size_based',
    description: 'Delete the oldest audit files beyond retention_mb (MGP §19.4)',
  },
]);

/** MGP §4.5: kernel-side validators, applied before a call is forwarded to the server. */
export const VALIDATORS = vocabulary([
  {
    name: 'sandbox',
    description: 'Block dangerous shell patterns, metacharacters, recursive delete (MGP §4.5)',
  },
  {
    name: 'readonly',
    description: 'Block any write operations (enforce read-only tool usage) (MGP §4.5)',
  },
  {
    name: 'network_restricted',
    description: 'Block requests to localhost, private IPs, metadata endpoints (MGP §4.5)',
  },
  {
    name: 'code_safety',
    description: 'Apply the code safety framework to code arguments (MGP §4.5, §7)',
  },
  {
    name: 'none',
    description: 'No kernel-side validation: the server handles its own safety (MGP §4.5)',
  },
]);
export const VALIDATOR_NAMES = namesOf(VALIDATORS);

/** MGP §2.3 `trust_level`. The text names the three values without defining them further. */
export const TRUST_LEVELS = vocabulary([
  { name: 'trusted', description: 'A server the operator fully trusts (MGP §2.3)' },
  {
    name: 'standard',
    description: 'An ordinary server: the configured policies apply as written (MGP §2.3)',
  },
  {
    name: 'sandboxed',
    description: 'An untrusted server, to be confined as far as the kernel can (MGP §2.3)',
  },
]);
export const TRUST_LEVEL_NAMES = namesOf(TRUST_LEVELS);

/** `[servers.sandbox] mode`: whether a stdio server runs inside an operating-system sandbox. */
export const SANDBOX_MODES = vocabulary([
  {
    name: 'auto',
    description:
      'Sandboxed where the platform gives a sandbox; otherwise started unconfined, and shown so',
  },
  {
    name: 'required',
    description:
      'Sandboxed, or not started: the server refuses to start where the platform has no sandbox',
  },
  {
    name: 'off',
    description: 'Never sandboxed: the server runs with your rights (your own config only)',
  },
]);

/** `[servers.sandbox] network`: what a sandboxed server may reach. */
export const NETWORK_ACCESS = vocabulary([
  { name: 'none', description: 'No network: only a loopback of its own' },
  { name: 'loopback', description: "The listed ports on this machine's loopback, nothing else" },
  { name: 'domains', description: "The listed domains, through the kernel's HTTP proxy" },
  { name: 'all', description: 'The network as you have it' },
]);

/** MGP §11.6. */
export const RESTART_POLICIES = vocabulary([
  { name: 'never', description: 'Do not restart on failure (MGP §11.6)' },
  {
    name: 'on_failure',
    description: 'Restart only when the server exits with an error (MGP §11.6)',
  },
  { name: 'always', description: 'Restart on any exit, graceful shutdown included (MGP §11.6)' },
]);
export const RESTART_POLICY_NAMES = namesOf(RESTART_POLICIES);

/** MCPL §9: what an accepted push event does. */
export const MCPL_PUSH_EVENT_POLICIES = vocabulary([
  {
    name: 'turn',
    description: 'An accepted event starts a new turn of the agent conversation it is attached to.',
  },
  {
    name: 'queue',
    description: 'An accepted event waits in the Events view until the user sends it to the agent.',
  },
  { name: 'reject', description: 'Every push event is rejected.' },
]);

/** MCPL §11: whether a server's inference/request reaches the user's model. */
export const MCPL_INFERENCE_POLICIES = vocabulary([
  { name: 'ask', description: 'Ask the user once per feature set for the session.' },
  { name: 'allow', description: "Route the request to the user's model without asking." },
  { name: 'deny', description: 'Refuse every inference request.' },
]);

/** MCPL §13.3: what a blocking afterInference hook's timeout or error does. */
export const MCPL_HOOK_FAILURE_POLICIES = vocabulary([
  {
    name: 'open',
    description:
      'On a timeout or error of a blocking afterInference hook, show the unmodified answer.',
  },
  {
    name: 'closed',
    description:
      'On a timeout or error of a blocking afterInference hook, show an error instead of the answer.',
  },
]);

/** MGP §3.3: how the client answers a server's permission requests. */
export const APPROVAL_POLICIES = vocabulary([
  {
    name: 'interactive',
    description: 'Present each permission to the human operator for approval (MGP §3.3)',
  },
  {
    name: 'auto_approve',
    description: 'Automatically approve all permissions ("YOLO mode") (MGP §3.3)',
  },
  { name: 'deny_all', description: 'Deny all permissions not pre-configured (MGP §3.3)' },
  {
    name: 'config_only',
    description: 'Only approve permissions listed in configuration (MGP §3.3)',
  },
]);
export const APPROVAL_POLICY_NAMES = namesOf(APPROVAL_POLICIES);

/** MGP §5.5: what an agent may do on a server when no grant says otherwise. */
export const ACCESS_POLICIES = vocabulary([
  {
    name: 'opt-in',
    description: 'Deny by default: agents must be explicitly granted access (MGP §5.5)',
  },
  {
    name: 'opt-out',
    description: 'Allow by default: agents have access unless explicitly denied (MGP §5.5)',
  },
]);
export const ACCESS_POLICY_NAMES = namesOf(ACCESS_POLICIES);

/** MGP §5.4 `mgp.access.grant` `permission`: what an access entry decides. */
export const GRANT_PERMISSIONS = vocabulary([
  { name: 'allow', description: 'The agent may use the server or tool (MGP §5.4)' },
  { name: 'deny', description: 'The agent may not use the server or tool (MGP §5.4)' },
]);
export const GRANT_PERMISSION_NAMES = namesOf(GRANT_PERMISSIONS);

/** MGP §4.4. */
export const RISK_LEVELS = vocabulary([
  {
    name: 'safe',
    description: 'No side effects, read-only operations: execute without confirmation (MGP §4.4)',
  },
  {
    name: 'moderate',
    description: 'Limited side effects, data writes: execute with optional confirmation (MGP §4.4)',
  },
  {
    name: 'dangerous',
    description:
      'System-level side effects, irreversible: require explicit confirmation or permission (MGP §4.4)',
  },
]);
export const RISK_LEVEL_NAMES = namesOf(RISK_LEVELS);

/** MGP §4.3 `side_effects` categories. */
export const SIDE_EFFECTS = vocabulary([
  { name: 'filesystem', description: 'Touches the filesystem (MGP §4.3)' },
  { name: 'network', description: 'Talks to the network (MGP §4.3)' },
  { name: 'process', description: 'Starts or signals processes (MGP §4.3)' },
  { name: 'database', description: 'Reads or changes a database (MGP §4.3)' },
  { name: 'notification', description: 'Notifies people (MGP §4.3)' },
]);
export const SIDE_EFFECT_NAMES = namesOf(SIDE_EFFECTS);

/** `[[servers]] transport`: MGP inherits MCP's transports (MGP §1.4). */
export const TRANSPORTS = vocabulary([
  {
    name: 'stdio',
    description:
      'Spawn `command` and speak newline-delimited JSON-RPC over stdin/stdout (MGP §1.4, MCP §3.1)',
  },
  {
    name: 'http',
    description:
      'Streamable HTTP: one endpoint at `url`, POST plus optional SSE streams (MGP §1.4, MCP §3.2)',
  },
  {
    name: 'sse',
    description:
      'The deprecated HTTP+SSE transport of MCP 2024-11-05, at `url` (MGP §1.4, MCP §3.3)',
  },
]);
export const TRANSPORT_NAMES = namesOf(TRANSPORTS);

/** OpenFang `[mcp_servers.transport] type`. */
export const OPENFANG_TRANSPORTS = vocabulary([
  {
    name: 'stdio',
    description:
      'Spawn `command` with `args` and talk over stdin/stdout (OpenFang, Transport Types)',
  },
  {
    name: 'sse',
    description:
      'Connect to the remote HTTP endpoint at `url`, sending JSON-RPC via POST (OpenFang, Transport Types)',
  },
  {
    name: 'http',
    description:
      'Streamable HTTP at `url`; not among the two transports the OpenFang guide documents (OpenFang, Transport Types; MCP §3.2)',
  },
]);
export const OPENFANG_TRANSPORT_NAMES = namesOf(OPENFANG_TRANSPORTS);

/** One segment of a dot-separated feature-set name (MCPL §6.3). */
const SEGMENT = '[A-Za-z0-9_-]+';

/** A feature-set name: dot-separated segments such as `memory.retrieval` (MCPL §6.3). */
export const FEATURE_SET_NAME = new RegExp(`^${SEGMENT}(?:\\.${SEGMENT})*$`);

/** A feature-set wildcard: a dotted prefix then `.*`, such as `memory.*` (MCPL §6.3). */
export const FEATURE_SET_WILDCARD = new RegExp(`^${SEGMENT}(?:\\.${SEGMENT})*\\.\\*$`);

/** An MCP tool name: 1 to 128 of `A-Z a-z 0-9 _ - .` (MCP §5.1). */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** A server id as written in `[[servers]] id`, e.g. `mind.cerebras` (MGP §2.3, §15.2). */
export const SERVER_ID = /^[A-Za-z0-9._-]+$/;

/** An environment variable name, as OpenFang's `env` list holds them. */
export const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A custom permission in reverse-domain notation, such as `com.example.custom_permission` (MGP §3.2):
 * a top-level domain, a domain label, then one or more dot-separated permission segments. Three parts
 * at least, so that a misspelt standard permission (`filesystem.raed`) is not taken for a custom one.
 */
const REVERSE_DOMAIN_PERMISSION =
  /^[a-z][a-z0-9-]*[a-z0-9]\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9_][a-z0-9_-]*)+$/;

export function isReverseDomainPermission(name: string): boolean {
  return name.length <= 253 && REVERSE_DOMAIN_PERMISSION.test(name);
}

/** `[servers.oauth] grant_type` (MCP 2025-11-25, Authorization; RFC 6749 §4). */
export const OAUTH_GRANT_TYPES = vocabulary([
  {
    name: 'authorization_code',
    description:
      'A person signs in in the browser; PKCE S256 and a loopback redirect (MCP Authorization; RFC 6749 §4.1, RFC 8252)',
  },
  {
    name: 'client_credentials',
    description:
      'A machine client with `client_id` and `client_secret` or `private_key`, no person (MCP Authorization extensions; RFC 6749 §4.4)',
  },
]);

/** `[servers.oauth] signing_algorithm`: JWS algorithms for `private_key_jwt` (RFC 7518 §3.1). */
export const JWS_ALGORITHMS = vocabulary(
  ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'EdDSA'].map((name) => ({
    name,
    description: `Sign the client assertion with ${name} (MCP Authorization extensions; RFC 7518)`,
  })),
);
