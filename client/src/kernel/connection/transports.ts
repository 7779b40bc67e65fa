import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ConfiguredServer } from '../config/types';
import { namedDestinationsOf } from '../config/namedHosts';
import { KernelError } from '../domain/errors';
import { guardedFetch } from '../net/guardedFetch';
import { judgeHost } from '../net/hosts';
import { FramedStdioClientTransport } from '../transport/contentLengthStdio';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../transport/framing';
import { authorizationAware } from './authorizationAware';
import type { ResolvedEnvironment } from './environment';
import { sizeLimitedFetch } from './limitedFetch';

export interface TransportHooks {
  /** Each line the server writes to stderr. */
  onStderr(line: string): void;
}

/** The process a stdio server is started as, when it is not its command as configured (a sandbox). */
export interface ProcessLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Open files it gets as fds 3, 4… */
  extraFds?: number[];
}

/** A stdio command is refused when it climbs out of its folder (OpenFang's rule). */
export function assertSafeCommand(command: string): void {
  if (command.split(/[\\/]/).includes('..'))
    throw new KernelError('CommandRejected', `command "${command}" contains "..": refused`);
}

/** Cloud metadata endpoints are refused outright (OpenFang's SSRF rule). */
export function assertAllowedUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new KernelError('BadUrl', `"${url}" is not a URL`);
  }
  const verdict = judgeHost(parsed.hostname);
  if (verdict?.kind === 'restricted' && verdict.restriction.kind === 'metadata')
    throw new KernelError(
      'UrlRejected',
      `${parsed.hostname} is a cloud metadata endpoint: refused`,
    );
  return parsed;
}

/**
 * The fetch of an http or sse server's transport. The SDK makes its OAuth requests with it too, to
 * URLs the server names (MCP 2025-11-25, Authorization: protected-resource and authorization server
 * metadata, registration, token endpoint): every request goes through the destination guard, which
 * lets the server's own origin through as configured and refuses what the config does not name on
 * this machine or its network (net/destinationGuard.ts). Response sizes are bounded.
 */
export function serverFetch(
  server: ConfiguredServer,
  onRefused?: (message: string) => void,
): FetchLike {
  const guarded = guardedFetch({ named: namedDestinationsOf(server), onRefused });
  return sizeLimitedFetch(server.settings.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, guarded);
}

/**
 * stdio with the environment decided for it (PATH and what the config lists), newline or
 * Content-Length framing (configured, or detected from the server's first bytes), stderr to the log.
 */
export function stdioTransport(
  server: ConfiguredServer,
  resolved: ResolvedEnvironment,
  hooks: TransportHooks,
  launch?: ProcessLaunch,
): FramedStdioClientTransport {
  const command = server.command ?? '';
  assertSafeCommand(command);
  return new FramedStdioClientTransport({
    command: launch?.command ?? command,
    args: launch?.args ?? server.args,
    env: launch?.env ?? resolved.env,
    cwd: launch?.cwd ?? server.settings.cwd,
    extraFds: launch?.extraFds,
    framing: server.settings.framing,
    maxMessageBytes: server.settings.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    onStderr: hooks.onStderr,
  });
}

/** Streamable HTTP: the SDK keeps the session id and resumes a broken stream with Last-Event-ID. */
export function streamableHttpTransport(
  server: ConfiguredServer,
  resolved: ResolvedEnvironment,
  authProvider?: OAuthClientProvider,
  onRefused?: (message: string) => void,
): StreamableHTTPClientTransport {
  const limited = serverFetch(server, onRefused);
  return new StreamableHTTPClientTransport(assertAllowedUrl(server.url ?? ''), {
    authProvider,
    requestInit: { headers: resolved.headers },
    fetch: authProvider ? authorizationAware(limited, authProvider) : limited,
  });
}

export function sseTransport(
  server: ConfiguredServer,
  resolved: ResolvedEnvironment,
  authProvider?: OAuthClientProvider,
  onRefused?: (message: string) => void,
): SSEClientTransport {
  const url = assertAllowedUrl(server.url ?? '');
  const guarded = serverFetch(server, onRefused);
  const limited = authProvider ? authorizationAware(guarded, authProvider) : guarded;
  return new SSEClientTransport(url, {
    authProvider,
    requestInit: { headers: resolved.headers },
    fetch: limited,
    eventSourceInit: {
      // The SDK's own headers (Accept, Authorization) win over the configured ones.
      fetch: (input, init) => {
        const headers = new Headers(resolved.headers);
        new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
        return limited(input, { ...init, headers });
      },
    },
  });
}

/** The HTTP status an SDK transport error carries, if any. */
function httpStatusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'number' && code >= 100 && code < 600) return code;
  const match = /\b(40[0-9]|41[0-9])\b/.exec(
    error instanceof Error ? error.message : String(error),
  );
  return match ? Number(match[1]) : undefined;
}

/** A refusal for want of authorization: never a sign of a legacy SSE server. */
export function isAuthorizationFailure(error: unknown): boolean {
  if (error instanceof UnauthorizedError) return true;
  if ((error as { code?: unknown })?.code === 'AuthRequired') return true;
  const status = httpStatusOf(error);
  return status === 401 || status === 403;
}

/**
 * Whether a Streamable HTTP connect failure means "this is a legacy SSE server": a 4xx to POST
 * initialize other than 401 and 403, which ask for authorization (MCP 2025-11-25, Authorization).
 */
export function isLegacySseSignal(error: unknown): boolean {
  if (isAuthorizationFailure(error)) return false;
  const status = httpStatusOf(error);
  return status !== undefined && status >= 400 && status < 500;
}
