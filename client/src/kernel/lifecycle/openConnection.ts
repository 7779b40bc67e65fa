import type { SecretSource } from '../config/interpolate';
import type { ConfiguredServer } from '../config/types';
import type { ListKind } from '../connection/clientFeatures';
import type { StartProgress } from '../connection/connectDeadline';
import { resolveEnvironment } from '../connection/environment';
import { describeIsolation, type Isolation } from '../sandbox/isolation';
import type { AddressGuard } from '../sandbox/hostBridges';
import { launchServer } from '../sandbox/serverLaunch';
import { ServerConnection } from '../connection/serverConnection';
import type { IncomingRequestContext, SessionEnvironment } from '../connection/service';
import type { KernelBus } from './events';

export interface SupervisorDeps {
  bus: KernelBus;
  hostEnv: Readonly<Record<string, string | undefined>>;
  secrets: SecretSource;
  session: SessionEnvironment;
  /** The folders every sandboxed server may write: the workspace's. */
  workspaceFolders: () => readonly string[];
  /** Where a sandboxed server's proxy may connect (sandbox/hostBridges.ts). */
  addressGuard: AddressGuard;
}

/** What the opened connection reports back to the server that supervises it. */
export interface ConnectionListener {
  log(level: string, message: string): void;
  signInRequested(): boolean;
  refresh(kind: ListKind): void;
  notification(method: string, params: Record<string, unknown>): void;
  request(
    connection: ServerConnection | undefined,
    method: string,
    params: Record<string, unknown>,
    context: IncomingRequestContext,
  ): Promise<Record<string, unknown>> | undefined;
  closed(connection: ServerConnection, expected: boolean): void;
  /** How the server's process runs: in which sandbox (made for these folders), or why in none. */
  isolated(isolation: Isolation, workspaceFolders: readonly string[]): void;
  /** Still starting after a period of connect_timeout_secs, and working: it gets another. */
  starting(progress: StartProgress): void;
}

/**
 * Resolves the server's environment and sign-in, gathers the services' capabilities and opens the
 * connection, its hooks wired to `listener`.
 */
export async function openConnection(
  config: ConfiguredServer,
  deps: SupervisorDeps,
  listener: ConnectionListener,
): Promise<ServerConnection> {
  const id = config.id;
  const resolved = await resolveEnvironment(config, deps.hostEnv, deps.secrets);
  for (const reference of resolved.missing)
    listener.log('warning', `${reference} has no value; it resolves to an empty string`);
  deps.session.onSecrets?.(resolved.secrets);
  const log = (level: string, message: string) => listener.log(level, message);
  const inProcess = await deps.session.inProcess?.(config, resolved.headers, log);
  const authorization = inProcess
    ? undefined
    : await deps.session.authorization?.providerFor({
        server: config,
        secrets: resolved.oauth,
        signInRequested: () => listener.signInRequested(),
        log: (level, message) => listener.log(level, message),
      });
  const folders = deps.workspaceFolders();
  const launch =
    config.transport === 'stdio'
      ? await launchServer(config, resolved, { ...deps, workspaceFolders: folders })
      : undefined;
  if (launch) {
    listener.isolated(launch.isolation, folders);
    listener.log('info', describeIsolation(launch.isolation));
  }
  const extraCapabilities = mergeCapabilities(
    deps.session.services.map((s) => s.capabilities?.(config) ?? {}),
  );
  // Requests can arrive before open() returns (right after initialized): they see the connection then.
  const opening: { connection?: ServerConnection } = {};
  const opened: ServerConnection = await ServerConnection.open(config, resolved, {
    authorization,
    launch,
    inProcess,
    extraCapabilities,
    handlers: deps.session.clientHandlers(config),
    outgoingRequest: (method, params) => {
      for (const service of deps.session.services) service.outgoingRequest?.(id, method, params);
    },
    trace: (direction, message) => {
      if (deps.session.trace(id)) deps.bus.emit('trace', { server_id: id, direction, message });
    },
    hooks: {
      onLog: (level, message) => listener.log(level, message),
      onListChanged: (kind) => listener.refresh(kind),
      onStarting: (progress) => listener.starting(progress),
      onResourceUpdated: (uri) => deps.bus.emit('resourceUpdated', { server_id: id, uri }),
      onNotification: (method, params) => listener.notification(method, params),
      onRequest: (method, params, context) =>
        listener.request(opening.connection, method, params, context),
      onClosed: (expected) => {
        void launch?.dispose();
        listener.closed(opened, expected);
      },
    },
  }).catch(async (error: unknown) => {
    await launch?.dispose();
    throw error;
  });
  opening.connection = opened;
  return opened;
}

/** The services' capabilities, one object; `experimental` entries (MCPL's among them) merged, not replaced. */
function mergeCapabilities(parts: Record<string, unknown>[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const part of parts)
    for (const [key, value] of Object.entries(part))
      merged[key] =
        key === 'experimental'
          ? { ...(merged.experimental as object | undefined), ...(value as object) }
          : value;
  return merged;
}
