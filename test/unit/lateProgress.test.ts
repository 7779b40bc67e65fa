import { strict as assert } from 'node:assert';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LateProgress } from '../../client/src/kernel/connection/lateProgress';

const request = (id: number, token?: number): JSONRPCMessage =>
  ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 't', ...(token !== undefined ? { _meta: { progressToken: token } } : {}) },
  }) as JSONRPCMessage;
const progress = (token: number): JSONRPCMessage =>
  ({
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: token, progress: 1 },
  }) as JSONRPCMessage;
const result = (id: number, extra: Record<string, unknown> = {}): JSONRPCMessage =>
  ({ jsonrpc: '2.0', id, result: { content: [], ...extra } }) as JSONRPCMessage;

describe('late progress notifications (after the final response)', () => {
  it('lets progress through while the request runs, and drops it once the request has its response', () => {
    const late = new LateProgress();
    late.sent(request(7, 7));
    assert.equal(late.isLate(progress(7)), false);
    assert.equal(late.isLate(result(7)), false, 'the response itself passes');
    assert.equal(late.isLate(progress(7)), true);
  });

  it('leaves a token never issued to the SDK to report, and keeps a task-starting response open', () => {
    const late = new LateProgress();
    assert.equal(late.isLate(progress(99)), false);
    late.sent(request(3, 3));
    late.isLate(result(3, { task: { taskId: 'task-1', status: 'working' } }));
    assert.equal(late.isLate(progress(3)), false, 'the task goes on reporting progress');
  });

  it('ignores requests without a progress token and errors for them', () => {
    const late = new LateProgress();
    late.sent(request(1));
    assert.equal(
      late.isLate({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } } as JSONRPCMessage),
      false,
    );
    assert.equal(late.isLate(progress(1)), false);
  });
});
