import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ConfiguredServer } from '../config/model';
import { KernelError } from '../errors';
import { FramedStdioClientTransport } from '../transport/contentLengthStdio';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../transport/framing';
import type { ResolvedEnvironment } from './environment';
import { sizeLimitedFetch } from './limitedFetch';

const METADATA_HOSTS = new Set([
  '169.254.169.254',
  'metadata.google.internal',
  'metadata',
  '100.100.100.200',
  'fd00:ec2::254',
  '169.254.170.2',
]);

export interface TransportHooks {
  /** Each line the server writes to stderr. */
  onStderr(line: string): void;
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
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (METADATA_HOSTS.has(host))
    throw new KernelError('UrlRejected', `${host} is a cloud metadata endpoint: refused`);
  return parsed;
}

/**
 * stdio with the environment decided for it (PATH and what the config lists), newline or
 * Content-Length framing (configured, or detected from the server's first bytes), stderr to the log.
 */
export function stdioTransport(
  server: ConfiguredServer,
  resolved: ResolvedEnvironment,
  hooks: TransportHooks,
): Transport {
  const command = server.command ?? '';
  assertSafeCommand(command);
  return new FramedStdioClientTransport({
    command,
    args: server.args,
    env: resolved.env,
    cwd: server.settings.cwd,
    framing: server.settings.framing,
    maxMessageBytes: server.settings.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    onStderr: hooks.onStderr,
  });
}

/** Streamable HTTP: the SDK keeps the session id and resumes a broken stream with Last-Event-ID. */
export function streamableHttpTransport(
  server: ConfiguredServer,
  resolved: ResolvedEnvironment,
): Transport {
  return new StreamableHTTPClientTransport(assertAllowedUrl(server.url ?? ''), {
    requestInit: { headers: resolved.headers },
    fetch: sizeLimitedFetch(server.settings.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES),
  });
}

export function sseTransport(server: ConfiguredServer, resolved: ResolvedEnvironment): Transport {
  const url = assertAllowedUrl(server.url ?? '');
  const limited = sizeLimitedFetch(server.settings.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  return new SSEClientTransport(url, {
    requestInit: { headers: resolved.headers },
    fetch: limited,
    eventSourceInit: {
      fetch: (input, init) =>
        limited(input, {
          ...init,
          headers: { ...resolved.headers, ...(init?.headers as Record<string, string>) },
        }),
    },
  });
}

/** Whether a Streamable HTTP connect failure means "this is a legacy SSE server" (a 4xx to POST initialize). */
export function isLegacySseSignal(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'number' && code >= 400 && code < 500) return true;
  return /\b(40[0-9]|41[0-9])\b/.test(error instanceof Error ? error.message : String(error));
}
