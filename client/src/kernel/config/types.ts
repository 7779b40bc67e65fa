import type { SecurityOverride } from '../domain/security';
import type { ConfigLocation } from './discover';

/** MGP §11.6 restart policies: when to restart, how long to wait, and when to give up. */
export type RestartPolicyName = 'never' | 'on_failure' | 'always';

export interface RestartSettings {
  policy: RestartPolicyName;
  maxRestarts: number;
  windowMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export type TransportKind = 'stdio' | 'http' | 'sse';
export type ProblemSeverity = 'error' | 'warning' | 'information';

/** How the kernel runs and talks to one server, with the defaults filled in. */
export interface ServerSettings {
  /** Variables to set, as written (`${VAR}` and `${secret:NAME}` are resolved at start). */
  env: Record<string, string>;
  /** Host variables passed through by name (OpenFang's `env = ["NAME"]`). */
  passEnv: string[];
  headers: Record<string, string>;
  /** Working folder for stdio servers: the config file's folder unless `cwd` says otherwise. */
  cwd: string;
  requestTimeoutMs: number;
  connectTimeoutMs: number;
  toolResultMaxChars: number;
  /** stdio framing: newline-delimited JSON (the SDK's), Content-Length (OpenFang's), or detected. */
  framing: 'auto' | 'newline' | 'content-length';
  /** Largest message accepted from the server, in bytes (default 10 MB). */
  maxMessageBytes?: number;
  restart: RestartSettings;
  /** `[servers.oauth]`: how to sign in to an http or sse server (MCP 2025-11-25, Authorization). */
  oauth?: OAuthSettings;
  /** The OS sandbox a stdio server runs in: its table over `[kernel.sandbox]`, workspace loosenings left out. */
  sandbox: SandboxPolicy;
}

export type SandboxMode = 'auto' | 'required' | 'off';
export type NetworkAccess = 'none' | 'loopback' | 'domains' | 'all';

/** `[kernel.sandbox]` or `[servers.sandbox]` as written: a key left out falls back to the level above. */
export interface SandboxTable {
  mode?: SandboxMode;
  write?: string[];
  denyRead?: string[];
  allowRead?: string[];
  network?: NetworkAccess;
  ports?: number[];
  domains?: string[];
}

/** What confines one stdio server, every key decided; paths as written (`~/`, relative to `base`). */
export interface SandboxPolicy {
  mode: SandboxMode;
  write: string[];
  denyRead: string[];
  allowRead: string[];
  network: NetworkAccess;
  ports: number[];
  domains: string[];
}

/** `[servers.oauth]`, as written: secrets stay `${secret:…}` references until the server starts. */
export interface OAuthSettings {
  enabled: boolean;
  grantType: 'authorization_code' | 'client_credentials';
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  scopes: string[];
  privateKey?: string;
  signingAlgorithm: string;
}

export type ApprovalPolicy = 'interactive' | 'auto_approve' | 'deny_all' | 'config_only';
export type AccessPolicy = 'opt-in' | 'opt-out';
export type TrustLevel = 'trusted' | 'standard' | 'sandboxed';

/** An access entry from config (`[[kernel.access_grants]]`, `[[servers.access_grants]]`, MGP §5.4). */
export interface ConfiguredGrant {
  agent_id: string;
  server_id: string;
  tool_name?: string;
  permission: 'allow' | 'deny';
  justification?: string;
  expires_at?: string;
}

/** What the config says about a server's security (MGP §2–§5); undefined fields fall back to [kernel]. */
export interface ServerPolicy {
  approvalPolicy?: ApprovalPolicy;
  defaultAccessPolicy?: AccessPolicy;
  /** `[servers.tools.<tool>]` (MGP §4.3). */
  toolOverrides: Record<string, SecurityOverride>;
  /** `approved_tools`: names and patterns that need no approval (patterns never cover dangerous tools). */
  approvedTools: string[];
  accessGrants: ConfiguredGrant[];
  /** Whether to offer MGP at initialize (`[servers.mgp] negotiate`). */
  negotiate: boolean;
  /** `[servers.mgp] permissions_required`: what `config_only` approves (MGP §3.3). */
  permissions: string[];
  trustLevel?: TrustLevel;
  pinnedTools: string[];
  /** `[servers.mcpl]` (MCPL §6, §7, §9, §11, §13.3), defaults filled in. */
  mcpl?: McplSettings;
  /** `[servers.sandbox]` as written (the effective policy is `settings.sandbox`). */
  sandbox?: SandboxTable;
}

export type PushEventsPolicy = 'turn' | 'queue' | 'reject';
export type InferencePolicy = 'ask' | 'allow' | 'deny';

/** One `[servers.mcpl.feature_set_policy."<name or wildcard>"]` table. */
export interface FeatureSetPolicy {
  pushEvents?: PushEventsPolicy;
  inference?: InferencePolicy;
  model?: string;
}

/** What the config says about one server's MCPL side. */
export interface McplSettings {
  /** false: the host does not advertise MCPL to it (MCPL §3.3). */
  enabled: boolean;
  enabledFeatureSets: string[];
  disabledFeatureSets: string[];
  /** Scope lists per scoped feature set, as sent in featureSets/update (MCPL §7.2). */
  scopes: Record<string, { whitelist: string[]; blacklist: string[] }>;
  pushEvents: PushEventsPolicy;
  pushEventsPerSecond: number;
  inference: InferencePolicy;
  /** MCPL §13.3 for blocking afterInference hooks. */
  hookFailure: 'open' | 'closed';
  /** Keyed by feature-set name or wildcard. */
  featureSetPolicy: Record<string, FeatureSetPolicy>;
}

/** A server as a config file declares it. Lines are 1-based, as people read them. */
export interface ConfiguredServer {
  id: string;
  transport: TransportKind;
  command?: string;
  args: string[];
  url?: string;
  settings: ServerSettings;
  policy: ServerPolicy;
  source: {
    file: string;
    line: number;
    format: ConfigLocation['format'];
    /** Whose file declares it: a workspace's files are not trusted (SECURITY.md). */
    origin?: ConfigLocation['origin'];
  };
  /** `config` for servers from files; `runtime` for ones registered with mgp.discovery.register (MGP §15.4). */
  origin?: 'config' | 'runtime';
  /**
   * Hosts on this machine or a private network the user's own config names for this server's
   * requests made on its word, beyond its own origin (namedHosts.ts, net/destinationGuard.ts).
   */
  namedHosts?: string[];
  /** Why the managed policy keeps this server from starting, whoever asks; undefined: it may. */
  blockedByPolicy?: PolicyBlock;
  /** An external A2A agent (`[[a2a.external_agents]]`), served in process (config/a2aAgents.ts). */
  a2a?: ExternalAgentSettings;
}

/** What the kernel knows of an external agent before its card is read. */
export interface ExternalAgentSettings {
  /** The name the config gives it. */
  name: string;
  /** How long one delegation may take, card to final state. */
  timeoutMs: number;
}

/** The managed policy's refusal of one server: what blocked it, in words, and where that is written. */
export interface PolicyBlock {
  reason: string;
  /** The policy file and the line of the entry (or list) that blocked it. */
  file: string;
  line: number;
  /** The key in the policy: `servers.deny`, `servers.allow`, `kernel.audit.postgres.required`… */
  key: string;
}

/**
 * The machine-wide policy (policy.toml), as read: lists and floors nothing below may loosen. A policy
 * that cannot be read or checked is `broken`, and then no server starts (it fails closed).
 */
export interface ManagedPolicy {
  path: string;
  allow?: string[];
  deny: string[];
  approvalFloor?: ApprovalPolicy;
  moderateToolsRequireApproval?: boolean;
  sandbox?: SandboxTable;
  postgres?: { url?: string; required: boolean };
  models?: string[];
  /** 1-based line of each key written (`servers.deny`, `kernel.approval_policy`…). */
  lines: Record<string, number>;
  /** Why the file cannot be applied (unreadable, not TOML, schema errors). */
  broken?: string;
  problems: ConfigProblem[];
}

export interface AuditSettings {
  retention:
    | { policy: 'keep_all' }
    | { policy: 'time_based'; days: number }
    | { policy: 'size_based'; maxBytes: number };
  rotateBytes: number;
  /** `[kernel.audit.postgres]`: ship every record to this database too (`${secret:…}` unresolved). */
  postgres?: { url: string };
}

export interface ContextBudget {
  max_tokens: number;
  pinned_reserve: number;
  discovery_reserve: number;
  cache_limit: number;
}

/** `[kernel]` (MGP §3.3, §5, §16.7–16.8), merged across files with the nearer file winning each key. */
export interface KernelSettings {
  approvalPolicy: ApprovalPolicy;
  defaultAccessPolicy: AccessPolicy;
  moderateToolsRequireApproval: boolean;
  accessGrants: ConfiguredGrant[];
  pinnedTools: string[];
  toolContextBudget: ContextBudget;
  toolCreation: boolean;
  keepRegisteredServers: boolean;
  /** Hosts on this machine or a private network a server may have the kernel reach (net/destinationGuard.ts). */
  privateHosts: string[];
  audit: AuditSettings;
  /** `[kernel.sandbox]`: the default for every stdio server. */
  sandbox: SandboxTable;
  /** The managed policy's `[models] allow`: the model name patterns that may be used; any when unset. */
  allowedModels?: string[];
}

export interface ConfigProblem {
  file: string;
  line: number;
  column: number;
  key?: string;
  severity: ProblemSeverity;
  message: string;
}

export interface LoadedConfigFile {
  location: ConfigLocation;
  servers: ConfiguredServer[];
  /** The file's `[kernel]` table, as written (undefined keys were not set). */
  kernel?: Partial<KernelSettings>;
  /** 1-based line of each `[kernel]` key written (`audit.retention`), to name it in a problem. */
  kernelLines?: Record<string, number>;
  problems: ConfigProblem[];
  /** A `config.toml` that is not OpenFang's (Cargo's, Hugo's…) is read but contributes nothing. */
  ignored: boolean;
  /** False when the file could not be read or is not valid TOML: then it says nothing about servers. */
  readable?: boolean;
  /** Server tables left out for their errors: position in the file, and id when it has a usable one. */
  rejected?: { index: number; id?: string }[];
  /** The `[kernel]` table was left out for its errors. */
  kernelRejected?: boolean;
  /** The file's `[a2a]` keys for serving A2A (a2aServe.ts). */
  a2aServe?: A2aServeTable;
  /** What the last valid version of the file supplies while this one has errors (see lastValid.ts). */
  kept?: { servers: string[]; kernel: boolean; wholeFile: boolean };
}

export interface ShadowedServer {
  server: ConfiguredServer;
  winner: ConfiguredServer;
}

export interface KernelConfig {
  files: LoadedConfigFile[];
  /** The effective servers: for an id defined twice, the one from the nearer file. */
  servers: ConfiguredServer[];
  shadowed: ShadowedServer[];
  problems: ConfigProblem[];
  kernel: KernelSettings;
  /** Whether and how the kernel serves A2A, from the user's own files only (a2aServe.ts). */
  a2aServe: A2aServeSettings;
  /** The machine's managed policy, when there is one: already applied to `servers` and `kernel`. */
  managed?: ManagedPolicy;
}

/** `[a2a]` as the kernel serves it (a2aServe.ts). */
export interface A2aPeerSettings {
  name: string;
  /** As written: `${secret:NAME}` or `${VAR}` is resolved when the server starts. */
  token: string;
  /** Its answer to an approval question of its own task counts (`approves = true`). */
  approves: boolean;
  file: string;
  line: number;
}

export interface A2aServeSettings {
  enabled: boolean;
  listenPath: string;
  /** 0: a free port picked at start. */
  listenPort: number;
  peers: A2aPeerSettings[];
}

/** What one file says, with the line of each key it sets. */
export interface A2aServeTable {
  enabled?: boolean;
  listenPath?: string;
  listenPort?: number;
  peers: A2aPeerSettings[];
  lines: Record<string, number>;
}
