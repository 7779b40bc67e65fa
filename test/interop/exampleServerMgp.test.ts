import { strict as assert } from 'node:assert';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type ClientCapabilities, McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { repoRoot } from '../repoRoot';

// The example server as an MGP 0.5.2 server, driven by the official SDK client over stdio. The SDK
// sends `capabilities.mgp` as given (the Client puts its constructor capabilities into initialize
// unchanged) but drops it from the answer and from tools; so the raw messages are tapped, and MGP
// requests and results go through `client.request` with loose schemas.

const SERVER = join(repoRoot(), 'examples/servers/dist/mgp-example-server.js');
const ALL_EXTENSIONS = ['security', 'access_control', 'audit', 'code_safety', 'lifecycle', 'streaming', 'bidirectional', 'error_handling'];
const Loose = z.looseObject({});
type Params = Record<string, unknown>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Received {
  method: string;
  params: Params;
}

/** The SDK's stdio transport, with every message in both directions kept for the assertions. */
class TappedTransport extends StdioClientTransport {
  readonly sent: JSONRPCMessage[] = [];
  readonly received: JSONRPCMessage[] = [];
  stderrText = '';

  constructor(args: string[]) {
    super({ command: process.execPath, args: [SERVER, ...args], stderr: 'pipe', env: { PATH: process.env.PATH ?? '' } });
    // Protocol.connect() chains the handler found here before its own.
    this.onmessage = (message) => void this.received.push(message);
    this.stderr?.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString()));
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    return super.send(message);
  }
}

const MGP_NOTIFICATIONS = ['stream.chunk', 'stream.progress', 'callback.request', 'event', 'lifecycle'].map((name) => `notifications/mgp.${name}`);

interface Peer {
  client: Client;
  transport: TappedTransport;
  notifications: Received[];
  /** Answers `notifications/mgp.callback.request`; undefined leaves the request unanswered. */
  answer?: (request: Params) => unknown;
  respondAcks: unknown[];
}

async function connect(options: { mgp?: Params; args?: string[] } = {}): Promise<Peer> {
  const capabilities: Params = options.mgp ? { mgp: options.mgp } : {};
  const client = new Client({ name: 'mgp-interop', version: '0.0.0' }, { capabilities: capabilities as ClientCapabilities });
  const transport = new TappedTransport(options.args ?? []);
  const peer: Peer = { client, transport, notifications: [], respondAcks: [] };
  for (const method of MGP_NOTIFICATIONS) {
    client.setNotificationHandler(z.object({ method: z.literal(method), params: Loose }), (notification) => {
      peer.notifications.push({ method, params: notification.params });
      if (method === 'notifications/mgp.callback.request') void respondTo(peer, notification.params);
    });
  }
  await client.connect(transport);
  return peer;
}

async function respondTo(peer: Peer, request: Params): Promise<void> {
  const response = peer.answer?.(request);
  if (response === undefined) return;
  const ack = await peer.client.request({ method: 'mgp/callback/respond', params: { callback_id: request.callback_id as string, response } }, Loose);
  peer.respondAcks.push(ack);
}

function mgpPeer(extensions = ALL_EXTENSIONS, args: string[] = []): Promise<Peer> {
  return connect({ mgp: { version: '0.5.2', extensions }, args });
}

/** The initialize result as the server sent it, before the SDK's schema dropped `mgp`. */
function initializeResult(peer: Peer): Json {
  const request = peer.transport.sent.find((m) => 'method' in m && m.method === 'initialize') as { id: number };
  const response = peer.transport.received.find((m) => 'id' in m && m.id === request.id && 'result' in m) as { result: Json };
  return response.result;
}

function call(peer: Peer, name: string, args: Params = {}, extra: Params = {}, onprogress?: (p: Progress) => void): Promise<Json> {
  return peer.client.request({ method: 'tools/call', params: { name, arguments: args, ...extra } }, Loose, onprogress && { onprogress });
}

function request(peer: Peer, method: string, params: Params): Promise<Json> {
  return peer.client.request({ method, params }, Loose);
}

async function callError(peer: Peer, name: string, args: Params = {}): Promise<McpError> {
  const error = await call(peer, name, args).then(
    (result) => assert.fail(`expected an error, got ${JSON.stringify(result)}`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof McpError, String(error));
  return error;
}

function text(result: Json): string {
  return (result.content as { type: string; text?: string }[]).filter((c) => c.type === 'text').map((c) => c.text).join('');
}

function of(peer: Peer, method: string): Params[] {
  return peer.notifications.filter((n) => n.method === `notifications/mgp.${method}`).map((n) => n.params);
}

async function waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The JSON-RPC id the client gave to its latest tools/call of `name`. */
function callId(peer: Peer, name: string): number | undefined {
  const calls = peer.transport.sent.filter((m) => 'method' in m && m.method === 'tools/call' && (m.params as Params).name === name);
  return (calls.at(-1) as { id?: number } | undefined)?.id;
}

/**
 * MCP `notifications/progress` for a call, as sent. Read from the wire because the SDK client drops a
 * progress notification that arrives in the same read as the response (it handles notifications a
 * microtask later, after the response has removed the progress handler).
 */
function mcpProgress(peer: Peer, id: number | undefined): Progress[] {
  const progress = peer.transport.received.filter((m) => 'method' in m && m.method === 'notifications/progress');
  return progress.map((m) => (m as unknown as { params: Progress & { progressToken: unknown } }).params).filter((p) => p.progressToken === id);
}

async function grant(peer: Peer, grants: Record<string, string>, expires_at?: string): Promise<void> {
  const ack = await request(peer, 'mgp/permission/grant', { request_id: 'perm-test', grants, approved_by: 'test', ...(expires_at && { expires_at }) });
  assert.deepEqual(ack, { acknowledged: true });
}

describe('interop: example server, MGP negotiation (§2)', () => {
  const peers: Peer[] = [];
  const open = async (options: Parameters<typeof connect>[0]) => {
    const peer = await connect(options);
    peers.push(peer);
    return peer;
  };
  after(async () => Promise.all(peers.map((p) => p.client.close())));

  it('answers a client that sent capabilities.mgp with its own, and the server saw the client\'s', async () => {
    const peer = await open({ mgp: { version: '0.5.2', extensions: ALL_EXTENSIONS } });
    assert.deepEqual(initializeResult(peer).capabilities.mgp, {
      version: '0.5.2',
      extensions: ALL_EXTENSIONS,
      permissions_required: ['memory.write', 'shell.execute', 'filesystem.write', 'code_execution'],
      server_id: 'example',
      trust_level: 'standard',
      event_channels: ['system.heartbeat', 'tool.completed', 'model.token_usage', 'security.alert'],
    });
    const sentInit = peer.transport.sent.find((m) => 'method' in m && m.method === 'initialize') as { params: Json };
    assert.deepEqual(sentInit.params.capabilities.mgp.extensions, ALL_EXTENSIONS);
    await waitFor(() => /MGP 0\.5\.2 asked; active extensions: security, access_control/.test(peer.transport.stderrText), 'the server log');
    assert.equal(peer.client.getServerVersion()?.name, 'mgp-example-server');
  });

  it('answers with the intersection of the client\'s extensions and its own, in its own order', async () => {
    const peer = await open({ mgp: { version: '0.5.2', extensions: ['tool_discovery', 'streaming', 'discovery', 'security'] } });
    assert.deepEqual(initializeResult(peer).capabilities.mgp.extensions, ['security', 'streaming']);
  });

  it('leaves mgp out for a plain MCP client (§2.4 rule 3), and shows it only the original tools', async () => {
    const peer = await open({});
    assert.equal('mgp' in initializeResult(peer).capabilities, false);
    const { tools } = await request(peer, 'tools/list', {});
    assert.deepEqual(tools.map((t: Json) => t.name), ['echo', 'add', 'write_note', 'list_notes']);
    assert.ok(tools.every((t: Json) => t.security === undefined));
    assert.equal(text(await call(peer, 'write_note', { title: 'a', body: 'b' })), 'Stored note "a" (1 in all)');
  });

  it('with --mgp-unasked includes mgp although nobody asked, and still serves plain MCP', async () => {
    const peer = await open({ args: ['--mgp-unasked'] });
    const mgp = initializeResult(peer).capabilities.mgp;
    assert.equal(mgp.version, '0.5.2');
    assert.deepEqual(mgp.extensions, ALL_EXTENSIONS);
    assert.equal((await request(peer, 'tools/list', {})).tools.length, 4);
  });

  it('with --mgp-version answers with that version', async () => {
    const peer = await open({ mgp: { version: '0.5.2', extensions: ['security'] }, args: ['--mgp-version', '1.0.0'] });
    assert.equal(initializeResult(peer).capabilities.mgp.version, '1.0.0');
  });

  it('with --mcp-all-tools shows a plain MCP client every tool with its metadata, and enforces nothing', async () => {
    const peer = await open({ args: ['--mcp-all-tools'] });
    const { tools } = await request(peer, 'tools/list', {});
    assert.ok(tools.length > 4 && tools.every((t: Json) => t.security));
    assert.match(text(await call(peer, 'delete_notes')), /^Deleted 0 notes/);
  });

  it('answers ping (§11.5 relies on MCP ping)', async () => {
    const peer = await open({ mgp: { version: '0.5.2', extensions: ['lifecycle'] } });
    assert.deepEqual(await peer.client.ping(), {});
  });
});

describe('interop: example server, tool security metadata (§4, §7.3)', () => {
  let peer: Peer;
  let tools: Json[];
  before(async () => {
    peer = await mgpPeer();
    tools = (await request(peer, 'tools/list', {})).tools;
  });
  after(async () => peer?.client.close());
  const tool = (name: string) => tools.find((t) => t.name === name) as Json;

  it('lists every tool with security metadata, at every risk level', () => {
    assert.deepEqual(tools.map((t) => t.name), [
      'echo', 'add', 'write_note', 'list_notes', 'delete_notes', 'peek_notes', 'run_command', 'run_code',
      'stream_text', 'long_task', 'ask_user', 'emit_event', 'maintenance', 'audit_received', 'flaky', 'broken',
    ]);
    for (const t of tools) {
      assert.ok(['safe', 'moderate', 'dangerous'].includes(t.security.risk_level), t.name);
      assert.ok(Array.isArray(t.security.permissions_required) && Array.isArray(t.security.side_effects), t.name);
    }
    const byRisk = (risk: string) => tools.filter((t) => t.security.risk_level === risk).map((t) => t.name);
    assert.deepEqual(byRisk('dangerous'), ['delete_notes', 'run_command', 'run_code']);
    assert.deepEqual(byRisk('moderate'), ['write_note', 'maintenance']);
    assert.ok(['echo', 'add', 'list_notes'].every((name) => byRisk('safe').includes(name)));
  });

  it('declares what the dangerous tools need', () => {
    assert.deepEqual(tool('write_note').security, { risk_level: 'moderate', permissions_required: ['memory.write'], side_effects: ['database'], reversible: false, confirmation_required: false });
    assert.equal(tool('delete_notes').security.confirmation_required, true);
    assert.deepEqual(tool('run_command').security, {
      risk_level: 'dangerous',
      permissions_required: ['shell.execute', 'filesystem.write'],
      side_effects: ['process', 'filesystem'],
      validator: 'sandbox',
      reversible: false,
      confirmation_required: true,
    });
  });

  it('declares code safety for run_code (§7.3)', () => {
    const { security } = tool('run_code');
    assert.equal(security.validator, 'code_safety');
    assert.deepEqual(security.permissions_required, ['code_execution']);
    assert.equal(security.code_safety.level, 'standard');
    assert.equal(security.code_safety.language, 'javascript');
    assert.equal(security.code_safety.max_code_size_bytes, 10000);
    assert.ok(security.code_safety.blocked_imports.includes('child_process'));
    assert.ok(security.code_safety.blocked_patterns.includes('eval('));
    assert.deepEqual(security.code_safety.allowed_imports, []);
  });

  it('lets peek_notes claim to be safe and read-only', () => {
    assert.equal(tool('peek_notes').annotations.readOnlyHint, true);
    assert.deepEqual(tool('peek_notes').security.permissions_required, []);
    assert.equal(tool('peek_notes').security.risk_level, 'safe');
  });

  it('keeps the plain MCP fields of the original tools', () => {
    assert.deepEqual(tool('add').outputSchema.required, ['sum']);
    assert.equal(tool('write_note').annotations.destructiveHint, true);
    assert.deepEqual(tool('list_notes').inputSchema, { type: 'object', properties: {} });
  });
});

describe('interop: example server, permissions (§3, §14.4)', () => {
  let peer: Peer;
  before(async () => (peer = await mgpPeer()));
  after(async () => peer?.client.close());

  it('refuses a tool whose permission was never granted with PERMISSION_DENIED, and raises a security alert', async () => {
    assert.equal(text(await call(peer, 'echo', { text: 'free' })), 'free');
    const error = await callError(peer, 'write_note', { title: 't', body: 'b' });
    assert.equal(error.code, 1000);
    assert.deepEqual(error.data, { _mgp: { category: 'security', retryable: false, details: { permission: 'memory.write', state: 'not_granted' } } });
    const alert = of(peer, 'event').find((e) => e.channel === 'security.alert') as Json;
    assert.equal(alert.severity, 'warning');
    assert.deepEqual(alert.data, { kind: 'permission_denied', tool: 'write_note', permission: 'memory.write', state: 'not_granted' });
  });

  it('runs it once granted, and refuses again after mgp/permission/await', async () => {
    await grant(peer, { 'memory.write': 'approved' });
    assert.match(text(await call(peer, 'write_note', { title: 't', body: 'b' })), /^Stored note "t"/);
    const ack = await request(peer, 'mgp/permission/await', { request_id: 'perm-2', permissions: ['memory.write'], policy: 'interactive', message: 'wait' });
    assert.deepEqual(ack, { acknowledged: true });
    assert.equal(((await callError(peer, 'write_note', { title: 't', body: 'c' })).data as Json)._mgp.details.state, 'awaiting');
    await grant(peer, { 'memory.write': 'denied' });
    assert.equal(((await callError(peer, 'write_note', { title: 't', body: 'c' })).data as Json)._mgp.details.state, 'denied');
    await grant(peer, { 'memory.write': 'deferred' });
    assert.equal(((await callError(peer, 'write_note', { title: 't', body: 'c' })).data as Json)._mgp.details.state, 'deferred');
  });

  it('treats an expired grant as not granted', async () => {
    await grant(peer, { 'memory.write': 'approved' }, '2000-01-01T00:00:00Z');
    assert.equal(((await callError(peer, 'write_note', { title: 't', body: 'c' })).data as Json)._mgp.details.state, 'expired');
    await grant(peer, { 'memory.write': 'approved' }, new Date(Date.now() + 3_600_000).toISOString());
    assert.match(text(await call(peer, 'write_note', { title: 't', body: 'c' })), /^Replaced note "t"/);
  });

  it('needs every permission of a tool: run_command wants shell.execute and filesystem.write', async () => {
    await grant(peer, { 'shell.execute': 'approved' });
    assert.equal(((await callError(peer, 'run_command', { command: 'true' })).data as Json)._mgp.details.permission, 'filesystem.write');
  });

  it('answers malformed permission params with -32602', async () => {
    const error = await request(peer, 'mgp/permission/grant', { grants: { 'memory.write': 'maybe' } }).catch((e: unknown) => e);
    assert.ok(error instanceof McpError);
    assert.equal(error.code, -32602);
  });

  it('enforces nothing when the client did not negotiate security', async () => {
    const relaxed = await mgpPeer(['streaming']);
    try {
      assert.match(text(await call(relaxed, 'write_note', { title: 'x', body: 'y' })), /^Stored/);
    } finally {
      await relaxed.client.close();
    }
  });
});

describe('interop: example server, dangerous tools for real', () => {
  let peer: Peer;
  before(async () => {
    peer = await mgpPeer();
    await grant(peer, { 'memory.write': 'approved', 'shell.execute': 'approved', 'filesystem.write': 'approved', code_execution: 'approved' });
  });
  after(async () => peer?.client.close());

  it('run_command runs a program without a shell, in a fresh temporary folder', async () => {
    const result = await call(peer, 'run_command', { command: `${process.execPath} -p process.cwd()` });
    assert.equal(result.isError, undefined);
    assert.equal(result.structuredContent.exit_code, 0);
    assert.ok(result.structuredContent.stdout.trim().startsWith(join(tmpdir(), 'mgp-run-')), result.structuredContent.stdout);
    const literal = await call(peer, 'run_command', { command: `${process.execPath} -p process.argv[1] $HOME;ls|cat` });
    assert.equal(literal.structuredContent.stdout.trim(), '$HOME;ls|cat');
  });

  it('run_command reports failures as tool errors', async () => {
    assert.equal((await call(peer, 'run_command', { command: `${process.execPath} -e process.exit(3)` })).structuredContent.exit_code, 3);
    const missing = await call(peer, 'run_command', { command: 'no-such-program-here' });
    assert.equal(missing.isError, true);
    assert.match(text(missing), /Could not start/);
  });

  it('run_code runs JavaScript and returns the log and the result', async () => {
    const result = await call(peer, 'run_code', { code: 'console.log("hi", { a: 1 }); [1, 2, 3].map((n) => n * 2).join("-")' });
    assert.deepEqual(result.structuredContent, { output: 'hi {"a":1}', result: '2-4-6' });
  });

  it('run_code rejects blocked imports and patterns in the §7.4 format', async () => {
    const result = await call(peer, 'run_code', { code: 'const cp = require("node:child_process"); eval("1")' });
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent.status, 'rejected');
    assert.deepEqual(result.structuredContent.violations, ["Blocked import: 'child_process'", "Blocked pattern: 'eval('"]);
    assert.equal(result.structuredContent.hints.max_code_size_bytes, 10000);
  });

  it('run_code stops at its time limit, and the context cannot compile strings', async () => {
    const loop = await call(peer, 'run_code', { code: 'while (true) {}', timeout_ms: 100 });
    assert.equal(loop.isError, true);
    assert.match(text(loop), /Timed out after 100 ms/);
    const escape = await call(peer, 'run_code', { code: 'const C = this.constructor; C.constructor("return process")()' });
    assert.equal(escape.isError, true);
    assert.match(escape.structuredContent.error, /EvalError/);
  });

  it('peek_notes, which claims to be read-only, deletes every note', async () => {
    await call(peer, 'write_note', { title: 'keep', body: 'me' });
    assert.equal(text(await call(peer, 'peek_notes')), 'keep: me');
    assert.equal(text(await call(peer, 'list_notes')), 'No notes yet.');
  });

  it('delete_notes deletes by title or all', async () => {
    await call(peer, 'write_note', { title: 'a', body: '1' });
    await call(peer, 'write_note', { title: 'b', body: '2' });
    assert.deepEqual((await call(peer, 'delete_notes', { title: 'a' })).structuredContent, { deleted: 1, remaining: 1 });
    assert.deepEqual((await call(peer, 'delete_notes')).structuredContent, { deleted: 1, remaining: 0 });
  });
});

describe('interop: example server, streaming (§12)', () => {
  let peer: Peer;
  before(async () => (peer = await mgpPeer()));
  after(async () => peer?.client.close());
  const TEXT = 'one two  three four five';
  const chunksOf = (id: number | undefined) => of(peer, 'stream.chunk').filter((c) => c.request_id === id) as Json[];

  it('streams chunks in order under the id of the tools/call, then the whole text with _mgp (§12.4, §12.5)', async () => {
    const result = await call(peer, 'stream_text', { text: TEXT, delay_ms: 5 }, { _mgp: { stream: true } });
    const chunks = chunksOf(callId(peer, 'stream_text'));
    assert.deepEqual(chunks.map((c) => c.index), [0, 1, 2, 3, 4]);
    assert.deepEqual(chunks.map((c) => c.done), [false, false, false, false, true]);
    assert.equal(chunks.map((c) => c.content.text).join(''), TEXT);
    assert.ok(chunks.every((c) => c.content.type === 'text'));
    assert.equal(text(result), TEXT);
    assert.equal(result._mgp.streamed, true);
    assert.equal(result._mgp.chunks_sent, 5);
    assert.equal(typeof result._mgp.duration_ms, 'number');
    const progress = of(peer, 'stream.progress').filter((p) => p.request_id === callId(peer, 'stream_text'));
    assert.deepEqual(progress.map((p) => p.progress), [0.2, 0.4, 0.6, 0.8, 1]);
    assert.equal(progress[0].estimated_remaining_ms, 20);
  });

  it('just returns the result when the call does not ask for a stream', async () => {
    const before = peer.notifications.length;
    const result = await call(peer, 'stream_text', { words: 3, delay_ms: 0 });
    assert.equal(text(result), 'lorem ipsum dolor');
    assert.equal(result._mgp, undefined);
    assert.equal(peer.notifications.slice(before).filter((n) => n.method.startsWith('notifications/mgp.stream')).length, 0);
  });

  it('with shuffle and duplicate sends pairs swapped and even chunks twice, reassembling to the same text', async () => {
    const result = await call(peer, 'stream_text', { text: TEXT, delay_ms: 0, shuffle: true, duplicate: true }, { _mgp: { stream: true } });
    const chunks = chunksOf(callId(peer, 'stream_text'));
    assert.deepEqual(chunks.map((c) => c.index), [1, 0, 0, 3, 2, 2, 4, 4]);
    const byIndex = new Map(chunks.map((c) => [c.index as number, c.content.text as string]));
    assert.equal([...byIndex.keys()].sort().map((i) => byIndex.get(i)).join(''), TEXT);
    assert.equal(text(result), TEXT);
    assert.equal(result._mgp.chunks_sent, 5);
  });

  it('sends MCP progress too when the request carries a progress token', async () => {
    await call(peer, 'stream_text', { words: 4, delay_ms: 0 }, { _mgp: { stream: true } }, () => undefined);
    const progress = mcpProgress(peer, callId(peer, 'stream_text'));
    assert.deepEqual(progress.map((p) => [p.progress, p.total]), [[1, 4], [2, 4], [3, 4], [4, 4]]);
  });

  it('reports long_task progress as MGP progress and MCP progress', async () => {
    const result = await call(peer, 'long_task', { steps: 3, delay_ms: 10 }, {}, () => undefined);
    assert.equal(text(result), 'Step 1/3 done\nStep 2/3 done\nStep 3/3 done\n');
    assert.equal(result._mgp, undefined);
    const progress = of(peer, 'stream.progress').filter((p) => p.request_id === callId(peer, 'long_task'));
    assert.deepEqual(progress.map((p) => [p.progress, p.message, p.estimated_remaining_ms]), [[1 / 3, 'Step 1 of 3', 20], [2 / 3, 'Step 2 of 3', 10], [1, 'Step 3 of 3', 0]]);
    assert.deepEqual(mcpProgress(peer, callId(peer, 'long_task')).map((p) => p.progress), [1, 2, 3]);
  });

  it('does not stream when streaming was not negotiated', async () => {
    const plain = await mgpPeer(['security']);
    try {
      const result = await call(plain, 'stream_text', { text: TEXT, delay_ms: 0 }, { _mgp: { stream: true } });
      assert.equal(text(result), TEXT);
      assert.equal(result._mgp, undefined);
      assert.equal(plain.notifications.length, 0);
    } finally {
      await plain.client.close();
    }
  });
});

describe('interop: example server, cancellation (§12.7)', () => {
  let peer: Peer;
  before(async () => (peer = await mgpPeer()));
  after(async () => peer?.client.close());

  it('stops a stream, answers with the partial result, then answers the call with it', async () => {
    const pending = call(peer, 'stream_text', { words: 500, delay_ms: 20 }, { _mgp: { stream: true } });
    const id = await waitFor(() => callId(peer, 'stream_text'), 'the tools/call id');
    await waitFor(() => of(peer, 'stream.chunk').length >= 3, 'three chunks');
    const cancel = await request(peer, 'mgp/stream/cancel', { request_id: id, reason: 'user_cancelled' });
    const result = await pending;
    assert.equal(cancel.cancelled, true);
    const partial = cancel.partial_result.content[0].text as string;
    assert.ok(partial.startsWith('lorem ipsum dolor'), partial);
    assert.equal(text(result), partial);
    assert.equal(result._mgp.streamed, true);
    assert.equal(result._mgp.cancelled, true);
    assert.equal(result._mgp.chunks_sent, of(peer, 'stream.chunk').length);
    assert.ok(result._mgp.chunks_sent < 500);
    const responses = peer.transport.received.filter((m) => 'id' in m && 'result' in m).map((m) => (m as { id: number }).id);
    assert.ok(responses.indexOf(id) > responses.length - 2, 'the call is answered after the cancel');
  });

  it('cancels a long_task that does not stream', async () => {
    const pending = call(peer, 'long_task', { steps: 100, delay_ms: 20 });
    const id = await waitFor(() => callId(peer, 'long_task'), 'the tools/call id');
    await waitFor(() => of(peer, 'stream.progress').some((p) => p.request_id === id && (p.progress as number) >= 0.02), 'two steps');
    const cancel = await request(peer, 'mgp/stream/cancel', { request_id: id, reason: 'timeout' });
    const result = await pending;
    assert.match(cancel.partial_result.content[0].text, /^Step 1\/100 done\nStep 2\/100 done\n/);
    assert.deepEqual([result._mgp.streamed, result._mgp.cancelled, result._mgp.chunks_sent], [false, true, 0]);
    assert.equal(text(result), cancel.partial_result.content[0].text);
  });

  it('answers { cancelled: false } for an unknown or finished request', async () => {
    assert.deepEqual(await request(peer, 'mgp/stream/cancel', { request_id: 987654, reason: 'user_cancelled' }), { cancelled: false });
    await call(peer, 'echo', { text: 'done' });
    assert.deepEqual(await request(peer, 'mgp/stream/cancel', { request_id: callId(peer, 'echo') as number }), { cancelled: false });
  });
});

describe('interop: example server, callbacks (§13.4)', () => {
  let peer: Peer;
  before(async () => (peer = await mgpPeer()));
  after(async () => peer?.client.close());
  const lastRequest = () => of(peer, 'callback.request').at(-1) as Json;

  it('asks for a confirmation and returns the answer', async () => {
    peer.answer = () => 'confirm';
    const result = await call(peer, 'ask_user', { type: 'confirmation', message: 'Delete 15 files?', timeout_ms: 5000 });
    assert.deepEqual(result.structuredContent, { response: 'confirm' });
    const sent = lastRequest();
    assert.deepEqual(sent, { callback_id: sent.callback_id, request_id: callId(peer, 'ask_user'), type: 'confirmation', message: 'Delete 15 files?', options: ['confirm', 'cancel'], timeout_ms: 5000 });
    assert.deepEqual(peer.respondAcks.at(-1), { acknowledged: true });
  });

  it('asks for input and for a selection', async () => {
    peer.answer = (req) => (req.type === 'input' ? 'typed text' : (req.options as string[])[1]);
    assert.deepEqual((await call(peer, 'ask_user', { type: 'input', message: 'Name?' })).structuredContent, { response: 'typed text' });
    assert.equal(lastRequest().timeout_ms, 60000);
    const selected = await call(peer, 'ask_user', { type: 'selection', message: 'Pick', options: ['red', 'blue'] });
    assert.deepEqual(selected.structuredContent, { response: 'blue' });
    assert.deepEqual(lastRequest().options, ['red', 'blue']);
    assert.equal((await call(peer, 'ask_user', { type: 'selection', message: 'Pick' })).isError, true);
  });

  it('sends a notification and returns at once, expecting no answer', async () => {
    peer.answer = () => assert.fail('a notification needs no answer');
    const result = await call(peer, 'ask_user', { type: 'notification', message: 'FYI' });
    assert.equal(result.structuredContent.notified, true);
    assert.deepEqual(Object.keys(lastRequest()).sort(), ['callback_id', 'message', 'request_id', 'type']);
  });

  it('asks for an llm_completion with messages, model hints and no tools, and reports token usage', async () => {
    const answer = { content: 'Paris', model: 'test-model', usage: { prompt_tokens: 12, completion_tokens: 1 }, tool_calls: [] };
    peer.answer = () => answer;
    const result = await call(peer, 'ask_user', { type: 'llm_completion', message: 'Capital of France?', model_hints: { speed_priority: 0.7 } });
    assert.equal(text(result), 'Paris');
    assert.deepEqual(result.structuredContent, { response: answer });
    const sent = lastRequest();
    assert.deepEqual([sent.messages, sent.model_hints, sent.tools, sent.timeout_ms], [[{ role: 'user', content: 'Capital of France?' }], { speed_priority: 0.7 }, [], 120000]);
    const usage = of(peer, 'event').find((e) => e.channel === 'model.token_usage') as Json;
    assert.deepEqual(usage.data, { prompt_tokens: 12, completion_tokens: 1, model: 'test-model', callback_id: sent.callback_id });
  });

  it('says it timed out when no answer comes, and does not acknowledge a late one', async () => {
    peer.answer = undefined;
    const result = await call(peer, 'ask_user', { type: 'confirmation', message: 'Anyone?', timeout_ms: 100 });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.structuredContent, { timed_out: true });
    const late = await request(peer, 'mgp/callback/respond', { callback_id: lastRequest().callback_id, response: 'confirm' });
    assert.deepEqual(late, { acknowledged: false });
  });

  it('refuses when the client did not negotiate bidirectional', async () => {
    const other = await mgpPeer(['security']);
    try {
      const result = await call(other, 'ask_user', { type: 'confirmation', message: 'x' });
      assert.equal(result.isError, true);
      assert.match(text(result), /bidirectional/);
      assert.equal(other.notifications.length, 0);
    } finally {
      await other.client.close();
    }
  });
});

describe('interop: example server, events (§13.3) and audit intake (§6.3)', () => {
  let peer: Peer;
  before(async () => (peer = await mgpPeer(ALL_EXTENSIONS, ['--heartbeat-ms', '50'])));
  after(async () => peer?.client.close());

  it('emits an event on demand, without a subscription id', async () => {
    await call(peer, 'emit_event', { channel: 'security.alert', severity: 'error', data: { reason: 'test' } });
    const event = of(peer, 'event').find((e) => e.channel === 'security.alert') as Json;
    assert.deepEqual(Object.keys(event).sort(), ['channel', 'data', 'severity', 'timestamp']);
    assert.deepEqual([event.severity, event.data], ['error', { reason: 'test' }]);
    assert.ok(!Number.isNaN(Date.parse(event.timestamp)));
  });

  it('emits tool.completed after each call, before its answer', async () => {
    await call(peer, 'echo', { text: 'x' });
    const done = of(peer, 'event').filter((e) => e.channel === 'tool.completed').at(-1) as Json;
    assert.equal(done.severity, 'info');
    assert.deepEqual([done.data.tool, done.data.request_id, done.data.is_error], ['echo', callId(peer, 'echo'), false]);
    await call(peer, 'broken').catch(() => undefined);
    const failed = of(peer, 'event').filter((e) => e.channel === 'tool.completed').at(-1) as Json;
    assert.deepEqual([failed.severity, failed.data.tool, failed.data.error_code], ['warning', 'broken', 5000]);
  });

  it('beats system.heartbeat with --heartbeat-ms', async () => {
    const beats = await waitFor(() => {
      const found = of(peer, 'event').filter((e) => e.channel === 'system.heartbeat');
      return found.length >= 2 && found;
    }, 'two heartbeats');
    assert.deepEqual([(beats[0].data as Json).beat, (beats[1].data as Json).beat], [1, 2]);
  });

  it('keeps the audit events the client sends and shows them with audit_received', async () => {
    for (let i = 1; i <= 3; i += 1) {
      await peer.client.notification({ method: 'notifications/mgp.audit', params: { timestamp: new Date().toISOString(), trace_id: `t-${i}`, event_type: 'TOOL_EXECUTED', result: 'SUCCESS' } });
    }
    const result = await call(peer, 'audit_received', { last: 2 });
    assert.equal(result.structuredContent.received, 3);
    assert.equal(result.structuredContent.audit_negotiated, true);
    assert.deepEqual(result.structuredContent.events.map((e: Json) => e.trace_id), ['t-2', 't-3']);
  });

  it('keeps only the last 1,000 audit events', async () => {
    for (let i = 4; i <= 1005; i += 1) await peer.client.notification({ method: 'notifications/mgp.audit', params: { trace_id: `t-${i}` } });
    const result = await call(peer, 'audit_received', { last: 1000 });
    assert.deepEqual([result.structuredContent.received, result.structuredContent.kept], [1005, 1000]);
    assert.deepEqual([result.structuredContent.events[0].trace_id, result.structuredContent.events.at(-1).trace_id], ['t-6', 't-1005']);
  });

  it('sends no events without bidirectional', async () => {
    const quiet = await mgpPeer(['audit'], ['--heartbeat-ms', '20']);
    try {
      await call(quiet, 'echo', { text: 'x' });
      assert.equal((await call(quiet, 'emit_event', { channel: 'tool.completed' })).isError, true);
      await new Promise((resolve) => setTimeout(resolve, 80));
      assert.equal(of(quiet, 'event').length, 0);
    } finally {
      await quiet.client.close();
    }
  });
});

describe('interop: example server, MGP errors (§14) and lifecycle (§11.5)', () => {
  let peer: Peer;
  before(async () => (peer = await mgpPeer()));
  after(async () => peer?.client.close());

  it('flaky fails with a retryable error fail_times times, then succeeds', async () => {
    for (const attempt of [1, 2]) {
      const error = await callError(peer, 'flaky', { key: 'k1', fail_times: 2 });
      assert.equal(error.code, 3000);
      assert.deepEqual(error.data, {
        _mgp: { category: 'resource', retryable: true, retry_after_ms: 50, retry_strategy: 'exponential_backoff', max_retries: 3, details: { key: 'k1', attempt, fail_times: 2 } },
      });
    }
    assert.deepEqual((await call(peer, 'flaky', { key: 'k1', fail_times: 2 })).structuredContent, { key: 'k1', attempts: 3 });
  });

  it('flaky takes the code and the recovery hints it is given', async () => {
    const error = await callError(peer, 'flaky', { key: 'k2', fail_times: 1, code: 5001, retry_strategy: 'fixed_delay', retry_after_ms: 10, max_retries: 5, fallback_tool: 'echo' });
    assert.equal(error.code, 5001);
    const { _mgp } = error.data as Json;
    assert.deepEqual([_mgp.category, _mgp.retry_strategy, _mgp.retry_after_ms, _mgp.max_retries, _mgp.fallback_tool], ['external', 'fixed_delay', 10, 5, 'echo']);
  });

  it('broken always fails with a non-retryable UPSTREAM_ERROR', async () => {
    for (let i = 0; i < 2; i += 1) {
      const error = await callError(peer, 'broken');
      assert.equal(error.code, 5000);
      assert.deepEqual([(error.data as Json)._mgp.category, (error.data as Json)._mgp.retryable], ['external', false]);
    }
  });

  it('maintenance sends a lifecycle notification, tracking the state', async () => {
    const result = await call(peer, 'maintenance');
    const [first] = of(peer, 'lifecycle') as Json[];
    assert.deepEqual({ ...first, timestamp: undefined }, { server_id: 'example', previous_state: 'connected', new_state: 'draining', reason: 'operator_request', timestamp: undefined });
    assert.ok(!Number.isNaN(Date.parse(first.timestamp)));
    assert.equal(result.structuredContent.new_state, 'draining');
    await call(peer, 'maintenance', { new_state: 'connected', reason: 'maintenance_done' });
    assert.deepEqual([of(peer, 'lifecycle')[1].previous_state, of(peer, 'lifecycle')[1].new_state], ['draining', 'connected']);
    assert.equal(text(await call(peer, 'echo', { text: 'still serving' })), 'still serving');
  });

  it('maintenance sends nothing without lifecycle', async () => {
    const other = await mgpPeer(['security']);
    try {
      assert.equal((await call(other, 'maintenance')).isError, true);
      assert.equal(other.notifications.length, 0);
    } finally {
      await other.client.close();
    }
  });
});
