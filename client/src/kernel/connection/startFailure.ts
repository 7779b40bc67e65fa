/**
 * A server that fails to start gets an error that says what to do: the line it wrote to stderr
 * before it died ("boom: missing API_KEY"), "not an MCP server" when it answers `initialize` with
 * "method not found", "connection refused at URL" when nothing listens there. The SDK's own words
 * ("MCP error -32000: Connection closed", "fetch failed") say none of that.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ConfiguredServer } from '../config/types';
import { KernelError } from '../domain/errors';

const KEPT_LINES = 3;
const MAX_LINE = 300;

/** The last few non-blank lines a stdio server wrote to stderr. */
export class StderrTail {
  private readonly lines: string[] = [];

  add(line: string): void {
    const text = line.trim();
    if (!text) return;
    this.lines.push(text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}…` : text);
    if (this.lines.length > KEPT_LINES) this.lines.shift();
  }

  get last(): string | undefined {
    return this.lines.at(-1);
  }
}

/** What Node's fetch reports when it cannot connect: `TypeError('fetch failed')` with a cause. */
function networkCode(error: unknown): string | undefined {
  for (let at: unknown = error, depth = 0; at && depth < 4; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused at {url}: is the server running, and on that port?',
  ENOTFOUND: 'no such host for {url}: check the address',
  EAI_AGAIN: 'the name of {url} could not be resolved now: check your network',
  ECONNRESET: 'the connection to {url} was reset',
  ETIMEDOUT: 'the connection to {url} timed out',
  EHOSTUNREACH: 'no route to the host of {url}',
  CERT_HAS_EXPIRED: "{url}'s TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: '{url} presents a self-signed TLS certificate',
};

/** The address without its query or credentials, which may hold a key. */
function shownUrl(url: string | undefined): string {
  try {
    const parsed = new URL(url ?? '');
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'the server';
  }
}

function explainHttp(error: unknown, server: ConfiguredServer): unknown {
  const url = shownUrl(server.url);
  const code = networkCode(error);
  const words = code ? NETWORK_WORDS[code] : undefined;
  if (words)
    return new KernelError('StartFailed', words.replace('{url}', url), undefined, {
      network_error: code,
    });
  // Node's fetch says only "fetch failed"; the reason is in its cause ("bad port", a TLS error…).
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (error instanceof TypeError && cause instanceof Error)
    return new KernelError('StartFailed', `could not reach ${url}: ${cause.message}`);
  return error;
}

function explainStdio(error: unknown, stderr: StderrTail): unknown {
  const said = stderr.last;
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
    return new KernelError(
      'StartFailed',
      said
        ? `the server exited during start-up; its last words on stderr: ${said}`
        : 'the server exited during start-up without writing anything to stderr',
    );
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return new KernelError(
      'StartFailed',
      `the server did not answer "initialize" in time: is it an MCP server on stdio?${said ? ` Its last words on stderr: ${said}` : ''}`,
    );
  if (error instanceof KernelError && error.code === 'Timeout')
    return new KernelError(
      'StartFailed',
      `${error.message}: is it an MCP server on stdio?${said ? ` Its last words on stderr: ${said}` : ''}`,
      error.wireCode,
    );
  return error;
}

/** The error a failed connect attempt ends with, in words a person can act on. */
export function explainStartFailure(
  error: unknown,
  server: ConfiguredServer,
  stderr?: StderrTail,
): unknown {
  if (error instanceof McpError && error.code === ErrorCode.MethodNotFound)
    return new KernelError(
      'StartFailed',
      'this program is not an MCP server: it answered "initialize" with "method not found"',
    );
  if (server.transport === 'stdio') return stderr ? explainStdio(error, stderr) : error;
  return explainHttp(error, server);
}
