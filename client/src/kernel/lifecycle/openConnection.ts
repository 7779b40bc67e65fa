import type { SecretSource } from '../config/interpolate';
import type { ConfiguredServer } from '../config/model';
import type { ListKind } from '../connection/clientFeatures';
import { resolveEnvironment } from '../connection/environment';
import { ServerConnection } from '../connection/serverConnection';
import type { IncomingRequestContext, SessionEnvironment } from '../connection/service';
import type { KernelBus } from './events';

export interface SupervisorDeps {
  bus: KernelBus;
  hostEnv: Readonly<Record<string, string | undefined>>;
  secrets: SecretSource;
  session: SessionEnvironment;
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
  const authorization = await deps.session.authorization?.providerFor({
    server: config,
    secrets: resolved.oauth,
    signInRequested: () => listener.signInRequested(),
    log: (level, message) => listener.log(level, message),
  });
  const extraCapabilities = mergeCapabilities(
    deps.session.services.map((s) => s.capabilities?.(config) ?? {}),
  );
  // Requests can arrive before open() returns (right after initialized): they see the connection then.
  const opening: { connection?: ServerConnection } = {};
  const opened: ServerConnection = await ServerConnection.open(config, resolved, {
    authorization,
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
      onResourceUpdated: (uri) => deps.bus.emit('resourceUpdated', { server_id: id, uri }),
      onNotification: (method, params) => listener.notification(method, params),
      onRequest: (method, params, context) =>
        listener.request(opening.connection, method, params, context),
      onClosed: (expected) => listener.closed(opened, expected),
    },
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
