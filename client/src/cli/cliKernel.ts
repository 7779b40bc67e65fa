/**
 * The kernel as the `mgp` command runs it: the config of the folder (or one file), the workspace's
 * audit log and stores, the terminal (or the `--approve` flag) to ask the operator, and the start
 * gate that holds back the folder's servers the person has not allowed (workspaceTrust.ts).
 */
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  auditDirectory,
  type AuditTrail,
  CLI_OPERATOR,
  type ConfiguredServer,
  environmentSecrets,
  exampleRequestSource,
  type Interaction,
  Kernel,
  type KernelConfig,
  notReadyServers,
  type NotReadyServer,
  connectingEnds,
  LaunchApprovals,
  type MediaKind,
  OpenAiCompatibleProvider,
  openAuditTrail,
  shipAuditTrail,
  type PermissionRequest,
  Redactor,
  stateDirectory,
  type ToolApprovalRequest,
  clientHintsFromEnv,
} from '../kernel';
import { UsageError } from './flags';
import { cliAuthorizations, signInFlow } from './cliAuthorization';
import { cliAnchorKeys } from './cliSecrets';
import type { Io } from './io';
import { LineReader } from './lineReader';
import { KernelOptions, loadCliConfig, workspaceFolderOf } from './options';
import { flagInteraction, mcplRefusal, terminalInteraction } from './terminalInteraction';
import { settleWorkspaceServers } from './workspaceTrust';
import { visibleText } from '@shared/untrustedText';

export interface CliKernel {
  kernel: Kernel;
  config: KernelConfig;
  trail: AuditTrail;
  /** The person's yes to the workspace's servers, shared with the editor (launchApprovals.ts). */
  launches: LaunchApprovals;
  /** Servers that did not connect (empty until `started` resolves when they start in the background). */
  failed: string[];
  /** The servers not connected, with their state and why: those failed, stragglers, blocked ones. */
  notReady: NotReadyServer[];
  /** Resolves when the servers have started (or failed to). */
  started: Promise<void>;
  close(): Promise<void>;
}

export interface CliEnvironment {
  /** Whether stdin and stderr are a terminal to ask on (process.stdin.isTTY by default). */
  interactive?: boolean;
  env?: Record<string, string | undefined>;
  home?: string;
  /** Who is asked instead of the terminal or the --approve flag (the gateway asks its clients). */
  interaction?: Interaction;
  /** Start the servers without waiting for them: `started` says when they are up. */
  background?: boolean;
  /**
   * Wait for a straggler (a server still starting after its connect timeout, e.g. downloading) until
   * it connects or fails, rather than naming it and going on: for a command that needs its server.
   */
  untilConnected?: boolean;
}

/** Starts the servers a command needs (`only`: one id or a test; else all) in a kernel with an audit trail. */
export async function startCliKernel(
  options: KernelOptions,
  io: Io,
  only: string | ((server: ConfiguredServer) => boolean) | undefined,
  environment: CliEnvironment = {},
): Promise<CliKernel> {
  const config = await loadCliConfig(options);
  for (const problem of config.problems.filter((p) => p.severity === 'error'))
    io.err(
      `${problem.file}:${problem.line}:${problem.column}: error: ${problem.message}${problem.key ? ` [${problem.key}]` : ''}`,
    );
  const chosen =
    only === undefined
      ? config
      : {
          ...config,
          servers: config.servers.filter(
            typeof only === 'string' ? (server) => server.id === only : only,
          ),
        };
  if (typeof only === 'string' && only !== 'mgp' && chosen.servers.length === 0)
    throw new Error(`no server "${only}" is configured`);
  const env = environment.env ?? process.env;
  const clientHints = hintsChoice(env);
  const location = {
    workspaceFolder: workspaceFolderOf(options),
    env,
    home: environment.home ?? homedir(),
  };
  const stateDir = stateDirectory(location);
  const redactor = new Redactor();
  // The workspace's log; when the editor holds it, a log of the CLI's own beside it.
  const trail = await openAuditTrail({
    directory: auditDirectory(location),
    fallback: join(stateDir, 'audit-cli'),
    onHeld: (own) =>
      io.err(
        `mgp: the workspace's audit log is held by another process (the editor?); recording to ${own}`,
      ),
    rotateBytes: config.kernel.audit.rotateBytes,
    retention: config.kernel.audit.retention,
    redactor,
    anchorKeys: cliAnchorKeys(dirname(stateDir), env),
    onProblem: (message: string) => io.err(`mgp: audit: ${message}`),
  });
  // [kernel.audit.postgres]: every record to the team's database too; the log is its spool.
  const shipper = await shipAuditTrail(trail, {
    settings: config.kernel,
    secrets: environmentSecrets(env),
    env,
    stateRoot: dirname(stateDir),
    onProblem: (message) => io.err(`mgp: audit: ${message}`),
  });
  const flag = options.approve;
  const elicit = options.elicit;
  const interactive =
    environment.interactive ?? Boolean(process.stdin.isTTY && process.stderr.isTTY);
  const refused = (request: ToolApprovalRequest) =>
    io.err(
      `mgp: ${request.serverId}.${request.toolName} needs approval (risk ${request.security.risk_level}) and there is no terminal to ask on: run it in a terminal, or pass --approve once|session`,
    );
  const refusedPermissions = (request: PermissionRequest) =>
    io.err(
      `mgp: ${request.serverId} asks for ${request.permissions.map((p) => p.name).join(', ')} and there is no terminal to ask on: they are denied for this run (run it in a terminal, or pass --approve once|session)`,
    );
  // One reader over stdin for every question of the run (lineReader.ts); none for a gateway's run.
  const reader =
    interactive && !environment.interaction ? new LineReader(process.stdin) : undefined;
  const launches = new LaunchApprovals({
    stateDir,
    audit: trail,
    operator: CLI_OPERATOR.agentId,
    env,
    onCorrupt: (message) => io.err(`mgp: ${message}`),
  });
  const mayStart = await settleWorkspaceServers({
    approvals: launches,
    config,
    servers: chosen.servers,
    trust: options.trust === true,
    ask:
      reader &&
      (async (question) => {
        process.stderr.write(visibleText(question));
        return (await reader.next()).trim();
      }),
    folder: location.workspaceFolder,
    io,
  });
  const terminal =
    reader && !flag && !elicit
      ? terminalInteraction({ input: process.stdin, output: process.stderr, reader })
      : undefined;
  const authorization = cliAuthorizations(stateDir, signInFlow(env, interactive), io, env);
  const kernel = new Kernel({
    authorization,
    hostEnv: process.env,
    secrets: environmentSecrets(process.env),
    interaction:
      environment.interaction ??
      terminal ??
      flagInteraction(flag, refused, refusedPermissions, elicit, (question) =>
        io.err(mcplRefusal(question)),
      ),
    audit: trail,
    stateDir,
    workingFolder: location.workspaceFolder,
    operator: CLI_OPERATOR,
    roots: () => [{ uri: `file://${location.workspaceFolder}`, name: location.workspaceFolder }],
    mayStart,
    onSecrets: (values) => values.forEach((value) => redactor.addSecret(value)),
    clientHints: () => clientHints,
  });
  const modelUrl = env.MGP_MODEL_URL;
  if (modelUrl)
    kernel.models.setProviders([
      new OpenAiCompatibleProvider({
        baseUrl: modelUrl,
        model: env.MGP_MODEL ?? 'default',
        apiKey: env.MGP_MODEL_KEY,
        // What the model takes besides text, e.g. `image,audio` (sampling with media).
        inputs: (env.MGP_MODEL_INPUTS ?? '')
          .split(',')
          .map((kind) => kind.trim())
          .filter((kind): kind is MediaKind => kind === 'image' || kind === 'audio'),
      }),
    ]);
  // The semantic discovery strategy's embeddings: the same endpoint's embedding model.
  if (modelUrl && env.MGP_EMBEDDING_MODEL)
    kernel.discovery.useEmbeddings({
      baseUrl: modelUrl,
      model: env.MGP_EMBEDDING_MODEL,
      apiKey: env.MGP_MODEL_KEY,
    });
  // Example requests for discovery (doc2query), when the user asks for them with the model's endpoint.
  if (modelUrl && env.MGP_EXAMPLE_REQUESTS === '1')
    kernel.discovery.useExampleRequests(exampleRequestSource(stateDir, kernel.models));
  kernel.manager.bus.on('log', (line) => {
    if (line.level === 'error' || line.level === 'warning')
      io.err(`[${line.server_id}] ${line.message}`);
  });
  const failed: string[] = [];
  const notReady: NotReadyServer[] = [];
  // Each server connected, failed, or still starting after its connect timeout (a straggler, which
  // goes on connecting): those not ready are named, with why (a listing is complete or says so).
  const started = kernel.apply(chosen).then(async () => {
    if (environment.untilConnected)
      await Promise.all(
        kernel.manager.list().map((server) => connectingEnds(kernel.manager.bus, server)),
      );
    for (const entry of notReadyServers(kernel.manager.list())) {
      notReady.push(entry);
      // The organisation's policy at work, not a failure of the server.
      if (kernel.manager.find(entry.server)?.blockedByPolicy !== undefined) {
        io.err(`${entry.server}: ${entry.reason}`);
        continue;
      }
      failed.push(entry.server);
      const why = entry.starting ? entry.reason : kernel.manager.find(entry.server)?.lastError;
      io.err(`${entry.server}: ${entry.state}${why ? `: ${why}` : ''}`);
    }
  });
  if (!environment.background) await started;
  return {
    kernel,
    config,
    trail,
    launches,
    failed,
    notReady,
    started,
    close: async () => {
      await started.catch(() => undefined);
      reader?.close();
      // The run's events reach the audit servers they are about (MGP §6.3) while those still run.
      await trail.flush().catch(() => undefined);
      await kernel.dispose();
      await trail.flush().catch(() => undefined);
      // What the database does not take in time waits in the log for the next run.
      await shipper?.close();
      await trail.close();
    },
  };
}

/** MCP draft §5: the client resource hints, off unless the user's environment turns them on. */
function hintsChoice(env: Record<string, string | undefined>) {
  try {
    return clientHintsFromEnv(env.MGP_CLIENT_RESOURCE_HINTS);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
