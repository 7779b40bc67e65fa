// The example server as an MGP 0.5.2 server, driven by the official SDK client over stdio. The SDK
// sends `capabilities.mgp` as given (the Client puts its constructor capabilities into initialize
// unchanged) but drops it from the answer and from tools; so the raw messages are tapped, and MGP
// requests and results go through `client.request` with loose schemas.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  type ClientCapabilities,
  McpError,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { repoRoot } from '../../repoRoot';
import { eventuallyValue } from '../../support/patience';

export const SERVER = join(repoRoot(), 'examples/servers/dist/mgp-example-server.js');
export const ALL_EXTENSIONS = [
  'security',
  'access_control',
  'audit',
  'code_safety',
  'lifecycle',
  'streaming',
  'bidirectional',
  'error_handling',
];
const Loose = z.looseObject({});
export type Params = Record<string, unknown>;
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Received {
  method: string;
  params: Params;
}

/** The SDK's stdio transport, with every message in both directions kept for the assertions. */
class TappedTransport extends StdioClientTransport {
  readonly sent: JSONRPCMessage[] = [];
  readonly received: JSONRPCMessage[] = [];
  stderrText = '';

  constructor(args: string[]) {
    super({
      command: process.execPath,
      args: [SERVER, ...args],
      stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '' },
    });
    // Protocol.connect() chains the handler found here before its own.
    this.onmessage = (message) => void this.received.push(message);
    this.stderr?.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString()));
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    return super.send(message);
  }
}

const MGP_NOTIFICATIONS = [
  'stream.chunk',
  'stream.progress',
  'callback.request',
  'event',
  'lifecycle',
].map((name) => `notifications/mgp.${name}`);

export interface Peer {
  client: Client;
  transport: TappedTransport;
  notifications: Received[];
  /** Answers `notifications/mgp.callback.request`; undefined leaves the request unanswered. */
  answer?: (request: Params) => unknown;
  respondAcks: unknown[];
}

export async function connect(options: { mgp?: Params; args?: string[] } = {}): Promise<Peer> {
  const capabilities: Params = options.mgp ? { mgp: options.mgp } : {};
  const client = new Client(
    { name: 'mgp-interop', version: '0.0.0' },
    { capabilities: capabilities as ClientCapabilities },
  );
  const transport = new TappedTransport(options.args ?? []);
  const peer: Peer = { client, transport, notifications: [], respondAcks: [] };
  for (const method of MGP_NOTIFICATIONS) {
    client.setNotificationHandler(
      z.object({ method: z.literal(method), params: Loose }),
      (notification) => {
        peer.notifications.push({ method, params: notification.params });
        if (method === 'notifications/mgp.callback.request')
          void respondTo(peer, notification.params);
      },
    );
  }
  await client.connect(transport);
  return peer;
}

async function respondTo(peer: Peer, request: Params): Promise<void> {
  const response = peer.answer?.(request);
  if (response === undefined) return;
  const ack = await peer.client.request(
    {
      method: 'mgp/callback/respond',
      params: { callback_id: request.callback_id as string, response },
    },
    Loose,
  );
  peer.respondAcks.push(ack);
}

export function mgpPeer(extensions = ALL_EXTENSIONS, args: string[] = []): Promise<Peer> {
  return connect({ mgp: { version: '0.5.2', extensions }, args });
}

/** The initialize result as the server sent it, before the SDK's schema dropped `mgp`. */
export function initializeResult(peer: Peer): Json {
  const request = peer.transport.sent.find((m) => 'method' in m && m.method === 'initialize') as {
    id: number;
  };
  const response = peer.transport.received.find(
    (m) => 'id' in m && m.id === request.id && 'result' in m,
  ) as { result: Json };
  return response.result;
}

export function call(
  peer: Peer,
  name: string,
  args: Params = {},
  extra: Params = {},
  onprogress?: (p: Progress) => void,
): Promise<Json> {
  return peer.client.request(
    { method: 'tools/call', params: { name, arguments: args, ...extra } },
    Loose,
    onprogress && { onprogress },
  );
}

export function request(peer: Peer, method: string, params: Params): Promise<Json> {
  return peer.client.request({ method, params }, Loose);
}

export async function callError(peer: Peer, name: string, args: Params = {}): Promise<McpError> {
  const error = await call(peer, name, args).then(
    (result) => assert.fail(`expected an error, got ${JSON.stringify(result)}`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof McpError, String(error));
  return error;
}

export function text(result: Json): string {
  return (result.content as { type: string; text?: string }[])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');
}

export function of(peer: Peer, method: string): Params[] {
  return peer.notifications
    .filter((n) => n.method === `notifications/mgp.${method}`)
    .map((n) => n.params);
}

export function waitFor<T>(probe: () => T | undefined | false, what: string): Promise<T> {
  return eventuallyValue(probe, what);
}

/** The JSON-RPC id the client gave to its latest tools/call of `name`. */
export function callId(peer: Peer, name: string): number | undefined {
  const calls = peer.transport.sent.filter(
    (m) => 'method' in m && m.method === 'tools/call' && (m.params as Params).name === name,
  );
  return (calls.at(-1) as { id?: number } | undefined)?.id;
}

/**
 * MCP `notifications/progress` for a call, as sent. Read from the wire because the SDK client drops a
 * progress notification that arrives in the same read as the response (it handles notifications a
 * microtask later, after the response has removed the progress handler).
 */
export function mcpProgress(peer: Peer, id: number | undefined): Progress[] {
  const progress = peer.transport.received.filter(
    (m) => 'method' in m && m.method === 'notifications/progress',
  );
  return progress
    .map((m) => (m as unknown as { params: Progress & { progressToken: unknown } }).params)
    .filter((p) => p.progressToken === id);
}

export async function grant(
  peer: Peer,
  grants: Record<string, string>,
  expires_at?: string,
): Promise<void> {
  const ack = await request(peer, 'mgp/permission/grant', {
    request_id: 'perm-test',
    grants,
    approved_by: 'test',
    ...(expires_at && { expires_at }),
  });
  assert.deepEqual(ack, { acknowledged: true });
}
