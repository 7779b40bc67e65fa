import { strict as assert } from 'node:assert';
import { isApprovalsFromWebview, isRevokeTarget } from '@shared/approvalsMessages';
import { isAuditFromWebview, isAuditViewFilter } from '@shared/auditMessages';

describe('panel message contracts', () => {
  it('accepts well-formed messages from the Approvals webview and nothing else', () => {
    assert.equal(isApprovalsFromWebview({ type: 'ready' }), true);
    assert.equal(
      isApprovalsFromWebview({ type: 'answer', requestId: 'r1', answer: 'server_session' }),
      true,
    );
    assert.equal(isApprovalsFromWebview({ type: 'showTrace', traceId: 't-1' }), true);
    assert.equal(
      isApprovalsFromWebview({ type: 'answer', requestId: 'r1', answer: 'forever' }),
      false,
    );
    assert.equal(isApprovalsFromWebview({ type: 'answer', requestId: '', answer: 'once' }), false);
    assert.equal(isApprovalsFromWebview({ type: 'answer', answer: 'once' }), false);
    assert.equal(isApprovalsFromWebview({ type: 'showTrace' }), false);
    assert.equal(isApprovalsFromWebview({ type: 'runTool' }), false);
    assert.equal(isApprovalsFromWebview('ready'), false);
    assert.equal(isApprovalsFromWebview(null), false);
  });

  it('checks every kind of revoke target for the fields the kernel needs', () => {
    assert.equal(isRevokeTarget({ kind: 'always', serverId: 'a', toolName: 't' }), true);
    assert.equal(isRevokeTarget({ kind: 'session', serverId: 'a', toolName: 't' }), true);
    assert.equal(isRevokeTarget({ kind: 'server_session', serverId: 'a' }), true);
    assert.equal(
      isRevokeTarget({ kind: 'permission', serverId: 'a', permission: 'memory.write' }),
      true,
    );
    assert.equal(
      isRevokeTarget({
        kind: 'access',
        agentId: 'agent.x',
        serverId: 'a',
        entryType: 'server_grant',
      }),
      true,
    );
    assert.equal(
      isRevokeTarget({
        kind: 'access',
        agentId: 'agent.x',
        serverId: 'a',
        entryType: 'tool_grant',
        toolName: 't',
      }),
      true,
    );
    assert.equal(isRevokeTarget({ kind: 'always', serverId: 'a' }), false);
    assert.equal(isRevokeTarget({ kind: 'session', serverId: 'a', toolName: 3 }), false);
    assert.equal(isRevokeTarget({ kind: 'permission', serverId: 'a' }), false);
    assert.equal(
      isRevokeTarget({
        kind: 'access',
        agentId: 'agent.x',
        serverId: 'a',
        entryType: 'tool_grant',
      }),
      false,
    );
    assert.equal(
      isRevokeTarget({
        kind: 'access',
        agentId: 'agent.x',
        serverId: 'a',
        entryType: 'everything',
      }),
      false,
    );
    assert.equal(isRevokeTarget({ kind: 'all' }), false);
    assert.equal(
      isApprovalsFromWebview({
        type: 'revoke',
        target: { kind: 'server_session', serverId: 'example' },
      }),
      true,
    );
    assert.equal(
      isApprovalsFromWebview({ type: 'revoke', target: { kind: 'server_session' } }),
      false,
    );
  });

  it('accepts well-formed messages from the Audit Trail webview and nothing else', () => {
    const options = {
      filter: { types: ['TOOL_EXECUTED'], serverId: 'example', since: '2026-01-01T00:00:00.000Z' },
      groupByTrace: true,
      newestFirst: true,
    };
    for (const message of [
      { type: 'ready' },
      { type: 'verify' },
      { type: 'setOptions', options, seq: 1 },
      { type: 'rows', version: 3, start: 200, count: 100 },
      { type: 'detail', seq: 42 },
      { type: 'toggleGroup', trace: 't-1' },
      { type: 'expandAll', expanded: false },
      { type: 'export', format: 'csv' },
      { type: 'export', format: 'jsonl' },
    ])
      assert.equal(isAuditFromWebview(message), true, JSON.stringify(message));
    for (const message of [
      { type: 'setOptions', options },
      { type: 'setOptions', options, seq: -1 },
      { type: 'setOptions', options: { filter: {}, groupByTrace: 'yes', newestFirst: true } },
      { type: 'setOptions', options: { filter: {}, groupByTrace: false } },
      { type: 'setOptions', options: { filter: { since: 'yesterday' }, groupByTrace: false } },
      { type: 'setOptions', options: { filter: { types: 'TOOL_EXECUTED' }, groupByTrace: false } },
      { type: 'rows', version: 1, start: -1, count: 10 },
      { type: 'rows', version: 1, start: 0.5, count: 10 },
      { type: 'detail', seq: '42' },
      { type: 'export', format: 'xml' },
      { type: 'expandAll' },
      { type: 'deleteLog' },
      undefined,
    ])
      assert.equal(isAuditFromWebview(message), false, JSON.stringify(message));
  });

  it('checks the filter field by field', () => {
    assert.equal(isAuditViewFilter({}), true);
    assert.equal(
      isAuditViewFilter({
        result: 'denied',
        traceId: 'abc',
        toolName: 't',
        until: '2026-02-01T10:00:00Z',
      }),
      true,
    );
    assert.equal(isAuditViewFilter({ serverId: 7 }), false);
    assert.equal(isAuditViewFilter([]), false);
  });
});
