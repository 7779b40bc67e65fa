import { strict as assert } from 'node:assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { plainKind } from '../../../client/src/kernel/transport/jsonRpcShape';

/** Messages of every kind, well and badly formed, as they may come off a wire. */
const MESSAGES: unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } },
  { jsonrpc: '2.0', id: 'a', method: 'ping' },
  { jsonrpc: '2.0', id: 1.5, method: 'ping' },
  { jsonrpc: '2.0', id: null, method: 'ping' },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: [] },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: null },
  { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: 3 } } },
  { jsonrpc: '1.0', id: 1, method: 'ping' },
  { id: 1, method: 'ping' },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
  { jsonrpc: '2.0', method: 'notifications/message', extra: 1 },
  { jsonrpc: '2.0', method: 7 },
  { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } },
  { jsonrpc: '2.0', id: 'x', result: {} },
  { jsonrpc: '2.0', id: 1, result: [] },
  { jsonrpc: '2.0', id: 1, result: 'text' },
  { jsonrpc: '2.0', id: 1, result: {}, extra: 1 },
  { jsonrpc: '2.0', result: {} },
  { jsonrpc: '2.0', id: 1, result: { _meta: { 'io.modelcontextprotocol/related-task': 1 } } },
  { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'no' } },
  { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'both' } },
  { jsonrpc: '2.0', id: 1, method: 'ping', result: {} },
  [],
  null,
  'text',
  42,
];

describe('telling a JSON-RPC message’s kind without the SDK’s parse', () => {
  it('takes as plain only what the SDK’s schemas accept, as the same kind', () => {
    for (const message of MESSAGES) {
      const kind = plainKind(message);
      if (!kind) continue;
      const text = JSON.stringify(message);
      assert.ok(JSONRPCMessageSchema.safeParse(message).success, text);
      const guard = {
        request: isJSONRPCRequest,
        notification: isJSONRPCNotification,
        result: isJSONRPCResultResponse,
      }[kind];
      assert.ok(guard(message), `${text} is not a ${kind} to the SDK`);
    }
  });

  it('takes the common messages of a call as plain, and leaves the rest to the SDK', () => {
    const kinds = MESSAGES.map((message) => plainKind(message));
    assert.deepEqual(kinds.slice(0, 2), ['request', 'request']);
    assert.deepEqual(kinds.slice(10, 12), ['notification', 'notification']);
    assert.deepEqual(kinds.slice(14, 16), ['result', 'result']);
    // _meta (checked further by the SDK), error responses and malformed messages: not plain.
    for (const index of [7, 20, 21, 22, 23, 24, 25, 26, 27]) assert.equal(kinds[index], undefined);
  });

  it('finds the handlers it dispatches to on the pinned SDK’s Client and Server', () => {
    for (const protocol of [
      new Client({ name: 'c', version: '1' }),
      new Server({ name: 's', version: '1' }, { capabilities: {} }),
    ]) {
      const handlers = protocol as unknown as Record<string, unknown>;
      for (const name of ['_onrequest', '_onnotification', '_onresponse'])
        assert.equal(typeof handlers[name], 'function', `${protocol.constructor.name}.${name}`);
    }
  });
});
