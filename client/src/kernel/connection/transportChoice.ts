import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ConfiguredServer } from '../config/types';
import { KernelError } from '../domain/errors';
import type { ResolvedEnvironment } from './environment';
import { SignInRetry, signInRetry } from './signIn';
import { ConnectDeadline, type StartProgress } from './connectDeadline';
import { explainStartFailure, StderrTail } from './startFailure';
import {
  type ProcessLaunch,
  isAuthorizationFailure,
  isLegacySseSignal,
  sseTransport,
  stdioTransport,
  streamableHttpTransport,
} from './transports';

export interface TransportChoiceOptions {
  authorization?: OAuthClientProvider;
  /** How a stdio server's process is started (inside its sandbox). */
  launch?: ProcessLaunch;
  /** A server served in the kernel's own process: connected to over this transport. */
  inProcess?: Transport;
  onLog(level: string, message: string): void;
  /** A stdio server still starting worked through a period of connect_timeout_secs: it gets another. */
  onStarting?(progress: StartProgress): void;
}

/** How a connection is made over a transport, and given the sign-in that later requests retry with. */
export interface Connector<C> {
  /** `deadline`: a stdio server's, which its signs of life extend; else connect_timeout_secs. */
  connect(transport: Transport, deadline?: ConnectDeadline): Promise<C>;
  signedIn(connection: C, retry: SignInRetry): void;
}

/**
 * Connects over the server's transport: stdio, SSE, or Streamable HTTP falling back to legacy SSE
 * when the server refuses it (MCP 2025-11-25, Transports, backwards compatibility). A failure to
 * start is explained in words (with the stderr tail of a stdio server).
 */
export async function openOverTransport<C>(
  server: ConfiguredServer,
  resolved: ResolvedEnvironment,
  options: TransportChoiceOptions,
  connector: Connector<C>,
): Promise<C> {
  if (options.inProcess)
    return connector.connect(options.inProcess).catch((error: unknown) => {
      throw explainStartFailure(error, server);
    });
  if (server.transport === 'stdio') {
    const stderr = new StderrTail();
    const deadline = new ConnectDeadline(
      server.settings.connectTimeoutMs,
      () => transport.pid ?? undefined,
      (progress) => options.onStarting?.(progress),
    );
    const transport = stdioTransport(
      server,
      resolved,
      {
        onStderr: (line) => {
          stderr.add(line);
          deadline.stderrLine();
          options.onLog('stderr', line);
        },
      },
      options.launch,
    );
    return connector
      .connect(transport, deadline)
      .catch((error: unknown) => {
        throw explainStartFailure(error, server, stderr);
      })
      .finally(() => deadline.done());
  }
  const auth = options.authorization;
  const refused = (message: string) => options.onLog('warning', message);
  const http = () => streamableHttpTransport(server, resolved, auth, refused);
  const sse = () => sseTransport(server, resolved, auth, refused);
  if (server.transport === 'sse')
    return connectSigningIn(sse, auth, connector).catch((error: unknown) => {
      throw explainStartFailure(error, server);
    });
  try {
    return await connectSigningIn(http, auth, connector);
  } catch (error) {
    if (!isLegacySseSignal(error))
      throw explainStartFailure(authorizationError(server, error), server);
    options.onLog(
      'info',
      `Streamable HTTP refused (${error instanceof Error ? error.message : String(error)}); falling back to legacy SSE`,
    );
    return connectSigningIn(sse, auth, connector);
  }
}

/** Connects; when the server asks for a sign-in that was started, waits for it and connects again. */
async function connectSigningIn<C>(
  create: () => Transport & SignInRetry['transport'],
  authorization: OAuthClientProvider | undefined,
  connector: Connector<C>,
): Promise<C> {
  let transport = create();
  const retry = signInRetry(authorization, () => transport);
  for (let attempt = 0; ; attempt++) {
    try {
      const connection = await connector.connect(transport);
      connector.signedIn(
        connection,
        signInRetry(authorization, () => transport),
      );
      return connection;
    } catch (error) {
      if (!(await retry.afterFailure(error, attempt))) throw error;
      transport = create();
    }
  }
}

/** A 401 or 403 without a way to sign in says what the server asked for. */
function authorizationError(server: ConfiguredServer, error: unknown): unknown {
  if (!isAuthorizationFailure(error) || (error as { code?: unknown }).code === 'AuthRequired')
    return error;
  const text = error instanceof Error ? error.message : String(error);
  if (server.settings.oauth?.enabled === false)
    return new KernelError(
      'AuthRequired',
      `${server.id} refused the connection (${text}); [servers.oauth] enabled = false, so the kernel does not sign in: set the Authorization header in [servers.headers], or enable OAuth`,
    );
  return error;
}
