import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ConfiguredServer } from '../config/model';
import { KernelError } from '../errors';
import type { ResolvedEnvironment } from './environment';

const METADATA_HOSTS = new Set(['169.254.169.254', 'metadata.google.internal', 'metadata', '100.100.100.200', 'fd00:ec2::254', '169.254.170.2']);

export interface TransportHooks {
  /** Each chunk the server writes to stderr. */
  onStderr(text: string): void;
}

/** A stdio command is refused when it climbs out of its folder (OpenFang's rule). */
export function assertSafeCommand(command: string): void {
  if (command.split(/[\\/]/).includes('..')) throw new KernelError('CommandRejected', `command "${command}" contains "..": refused`);
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
  if (METADATA_HOSTS.has(host)) throw new KernelError('UrlRejected', `${host} is a cloud metadata endpoint: refused`);
  return parsed;
}

export function stdioTransport(server: ConfiguredServer, resolved: ResolvedEnvironment, hooks: TransportHooks): Transport {
  const command = server.command ?? '';
  assertSafeCommand(command);
  const transport = new StdioClientTransport({ command, args: server.args, env: resolved.env, cwd: server.settings.cwd, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => hooks.onStderr(chunk.toString('utf8')));
  return transport;
}

export function streamableHttpTransport(server: ConfiguredServer, resolved: ResolvedEnvironment): Transport {
  return new StreamableHTTPClientTransport(assertAllowedUrl(server.url ?? ''), { requestInit: { headers: resolved.headers } });
}

export function sseTransport(server: ConfiguredServer, resolved: ResolvedEnvironment): Transport {
  const url = assertAllowedUrl(server.url ?? '');
  return new SSEClientTransport(url, { requestInit: { headers: resolved.headers }, eventSourceInit: { fetch: (input, init) => fetch(input, { ...init, headers: { ...resolved.headers, ...(init?.headers as Record<string, string>) } }) } });
}

/** Whether a Streamable HTTP connect failure means "this is a legacy SSE server" (a 4xx to POST initialize). */
export function isLegacySseSignal(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'number' && code >= 400 && code < 500) return true;
  return /\b(40[0-9]|41[0-9])\b/.test(error instanceof Error ? error.message : String(error));
}
