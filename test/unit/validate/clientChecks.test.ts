import { strict as assert } from 'node:assert';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CLIENT_SCENARIOS } from '../../../client/src/kernel';
import { ProbeSession } from '../../../client/src/kernel/validate/client/probeSession';
import type { ClientRun, Observation } from '../../../client/src/kernel/validate/client/scenario';
import { KERNEL_EXTENSIONS } from '../../../client/src/kernel/mgp/negotiation';

// The client checks of `mgp validate client` judge what the probe server saw. Here they are given
// sessions made by hand, each breaking one rule, and must FAIL it and say what came.

const exited: ClientRun = {
  exitCode: 0,
  signal: null,
  timedOut: false,
  stderrTail: '',
  timeoutMs: 30_000,
};

/** A session of a client that offered MGP with every extension, and the messages given, in order. */
function session(messages: [number, 'in' | 'out', Record<string, unknown>][] = []): ProbeSession {
  const offer = { version: '0.5.2', extensions: [...KERNEL_EXTENSIONS] };
  const made = new ProbeSession({
    protocolVersion: '2025-11-25',
    capabilities: { mgp: offer },
    clientInfo: { name: 'client', version: '1' },
  });
  made.negotiate({ version: '0.5.2', extensions: [...KERNEL_EXTENSIONS] });
  for (const [at, direction, message] of messages)
    made.messages.push({
      at,
      direction,
      message: { jsonrpc: '2.0', ...message } as JSONRPCMessage,
    });
  return made;
}

const call = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...extra },
});
const failure = (id: number, code: number) => ({ id, error: { code, message: 'no' } });

function judge(id: string, sessions: ProbeSession[], facts: Record<string, unknown> = {}) {
  const check = CLIENT_SCENARIOS.flatMap((s) => s.checks).find((c) => c.id === id);
  assert.ok(check, id);
  const seen: Observation = { sessions, run: exited, facts };
  return check.judge(seen);
}

describe('mgp validate client: the checks', function () {
  it('FAILs a retry of a non-retryable error, and a retry sooner than retry_after_ms', () => {
    const retriedFinal = judge('mgp.client.error-retries', [
      session([
        [0, 'in', call(1, 'lookup_rate')],
        [1, 'out', failure(1, 3000)],
        [500, 'in', call(2, 'lookup_rate')],
        [600, 'in', call(3, 'parse_strict')],
        [601, 'out', failure(3, 4000)],
        [602, 'in', call(4, 'parse_strict')],
      ]),
    ]);
    assert.equal(retriedFinal.status, 'fail');
    assert.match(retriedFinal.expected ?? '', /MUST NOT/);
    const early = judge('mgp.client.error-retries', [
      session([
        [0, 'in', call(1, 'lookup_rate')],
        [10, 'out', failure(1, 3000)],
        [60, 'in', call(2, 'lookup_rate')],
        [70, 'in', call(3, 'parse_strict')],
      ]),
    ]);
    assert.equal(early.status, 'fail');
    assert.equal(early.received, '50 ms');
    const patient = judge('mgp.client.error-retries', [
      session([
        [0, 'in', call(1, 'lookup_rate')],
        [10, 'out', failure(1, 3000)],
        [410, 'in', call(2, 'lookup_rate')],
        [500, 'in', call(3, 'parse_strict')],
      ]),
    ]);
    assert.equal(patient.status, 'pass', patient.detail);
  });

  it('FAILs a stream never cancelled, and a cancel naming another request', () => {
    const streamed = call(7, 'count_slowly', { _mgp: { stream: true } });
    const chunk = { method: 'notifications/mgp.stream.chunk', params: { request_id: 7, index: 0 } };
    const never = judge('mgp.client.streaming', [
      session([
        [0, 'in', streamed],
        [1, 'out', chunk],
        [2, 'out', { id: 7, result: { content: [] } }],
      ]),
    ]);
    assert.equal(never.status, 'fail');
    assert.match(never.detail, /received 1 chunk and never sent mgp\/stream\/cancel/);
    const wrong = judge('mgp.client.streaming', [
      session([
        [0, 'in', streamed],
        [1, 'out', chunk],
        [2, 'in', { id: 8, method: 'mgp/stream/cancel', params: { request_id: 99 } }],
      ]),
    ]);
    assert.equal(wrong.status, 'fail');
    assert.match(wrong.detail, /named request_id 99, not the call's 7/);
    const unasked = judge('mgp.client.streaming', [session([[0, 'in', call(7, 'count_slowly')]])]);
    assert.equal(unasked.status, 'fail');
    assert.match(unasked.expected ?? '', /_mgp: \{ stream: true \}/);
  });

  it('FAILs a permission flow whose tool is called before the grant, or whose await is never granted', () => {
    const awaited = {
      id: 1,
      method: 'mgp/permission/await',
      params: { request_id: 'r', permissions: ['memory.write'] },
    };
    const granted = {
      id: 3,
      method: 'mgp/permission/grant',
      params: { request_id: 'r', grants: { 'memory.write': 'approved' } },
    };
    const early = judge('mgp.client.permission-flow', [
      session([
        [0, 'in', awaited],
        [1, 'in', call(2, 'write_note')],
        [2, 'in', granted],
      ]),
    ]);
    assert.equal(early.status, 'fail');
    assert.match(early.detail, /write_note was called before the decision was delivered/);
    const left = judge('mgp.client.permission-flow', [session([[0, 'in', awaited]])]);
    assert.equal(left.status, 'fail');
    assert.match(left.detail, /no mgp\/permission\/grant followed/);
    const other = judge('mgp.client.permission-flow', [
      session([
        [0, 'in', awaited],
        [1, 'in', { ...granted, params: { ...granted.params, request_id: 's' } }],
      ]),
    ]);
    assert.equal(other.status, 'fail');
    assert.match(other.detail, /different request_ids/);
  });

  it('FAILs an mgp offer that is not semver, and an event acknowledged with another token', () => {
    const offered = session([[0, 'in', { id: 1, method: 'tools/list' }]]);
    (offered.initialize.capabilities as { mgp: unknown }).mgp = {
      version: 'latest',
      extensions: [],
    };
    const negotiation = judge('mgp.client.negotiation', [offered]);
    assert.equal(negotiation.status, 'fail');
    assert.match(negotiation.detail, /version latest is not semver/);
    const events = judge(
      'mgp.client.events',
      [session([[0, 'in', call(1, 'acknowledge_event', { arguments: { token: 'guessed' } })]])],
      { token: 'pushed' },
    );
    assert.equal(events.status, 'fail');
    assert.match(events.received ?? '', /guessed/);
  });

  it('FAILs discovery that calls another tool, or sends a kernel tool to the server', () => {
    const listed = [0, 'in', { id: 1, method: 'tools/list' }] as [
      number,
      'in',
      Record<string, unknown>,
    ];
    const wrong = judge('mgp.client.tool-discovery', [
      session([listed, [1, 'in', call(2, 'convert_currency')], [2, 'in', call(3, 'send_email')]]),
    ]);
    assert.equal(wrong.status, 'fail');
    assert.match(wrong.detail, /called convert_currency, send_email/);
    const kernel = judge('mgp.client.tool-discovery', [
      session([listed, [1, 'in', call(2, 'mgp.tools.discover')]]),
    ]);
    assert.equal(kernel.status, 'fail');
    assert.match(kernel.detail, /kernel tool mgp\.tools\.discover/);
  });

  it('FAILs an audit event out of the §6.3 format', () => {
    const audit = judge('mgp.client.audit', [
      session([
        [0, 'in', call(1, 'echo')],
        [
          1,
          'in',
          {
            method: 'notifications/mgp.audit',
            params: {
              timestamp: 'yesterday',
              event_type: 'TOOL_EXECUTED',
              actor: { type: 'kernel', id: 'k' },
            },
          },
        ],
      ]),
    ]);
    assert.equal(audit.status, 'fail');
    assert.match(audit.detail, /timestamp yesterday is not an ISO 8601 time/);
  });
});
