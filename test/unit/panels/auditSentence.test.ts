import { strict as assert } from 'node:assert';
import { STANDARD_EVENT_TYPES } from '../../../client/src/kernel/audit/auditEvent';
import {
  SERVER_AUDIT_DROPPED,
  SERVER_REPORTED,
} from '../../../client/src/kernel/audit/serverReports';
import {
  auditPermission,
  auditSentence,
  auditTypeWords,
  SentenceRecord,
} from '@shared/auditSentence';

const copilot = { type: 'agent', id: 'agent.copilot' };
const you = { type: 'operator', id: 'agent.vscode' };
const kernel = { type: 'kernel', id: 'mgp-kernel' };

function event(
  event_type: string,
  result: string,
  details: Record<string, unknown> = {},
  more: Partial<SentenceRecord> = {},
): SentenceRecord {
  return {
    event_type,
    actor: copilot,
    target: { server_id: 'files', tool_name: 'write_file' },
    result,
    details,
    ...more,
  };
}

/** Each kind of record the kernel writes (as in client/src/kernel), its sentence and permission cell. */
const CASES: [string, SentenceRecord, string, string][] = [
  [
    'a call approved once',
    event('TOOL_EXECUTED', 'SUCCESS', { approval: 'once', duration_ms: 12 }),
    'Copilot called files.write_file; approved once by you',
    'Allowed once',
  ],
  [
    'a call under a standing approval',
    event('TOOL_EXECUTED', 'SUCCESS', { approval: 'persistent_grant' }),
    'Copilot called files.write_file; allowed by your standing approval',
    'Standing approval',
  ],
  [
    'a call that needed no approval, by you',
    event('TOOL_EXECUTED', 'SUCCESS', { approval: 'not_required' }, { actor: you }),
    'You called files.write_file',
    'No approval needed',
  ],
  [
    'a call the tool answered with an error',
    event('TOOL_EXECUTED', 'ERROR', { approval: 'config_rule' }),
    'Copilot called files.write_file; the tool answered with an error; allowed by a rule in mgp.toml',
    'Rule in mgp.toml',
  ],
  [
    'a call that failed, then fell back',
    event('TOOL_EXECUTED', 'FAILURE', { error: 'timed out', fallback_tool: 'write_slowly' }),
    'Copilot called files.write_file; it failed: timed out (write_slowly was tried instead)',
    '',
  ],
  [
    'a block by a validator',
    event(
      'VALIDATION_FAILED',
      'BLOCKED',
      {
        validators: ['sandbox'],
        violations: [
          { validator: 'sandbox', rule: 'recursive_delete', message: 'rm -rf /', argument: '' },
        ],
      },
      { target: { server_id: 'echo', tool_name: 'add' } },
    ),
    'echo.add was blocked by the sandbox check: rm -rf /',
    '',
  ],
  [
    'a block with several violations',
    event('VALIDATION_FAILED', 'BLOCKED', {
      violations: [
        { validator: 'network_restricted', message: 'a private address' },
        { validator: 'readonly', message: 'a write' },
      ],
    }),
    'files.write_file was blocked by the network check: a private address (and 1 more)',
    '',
  ],
  [
    'the block that follows a validation failure',
    event('TOOL_BLOCKED', 'BLOCKED', { reason: 'validation_failed', validators: ['readonly'] }),
    'files.write_file was blocked for Copilot: the read-only check refused its arguments',
    '',
  ],
  [
    'a block for a denied permission',
    event('TOOL_BLOCKED', 'DENIED', { reason: 'permission_denied', permissions: ['fs.write'] }),
    'files.write_file was blocked for Copilot: it needs fs.write, which you denied',
    'fs.write',
  ],
  [
    'a block for a refused approval',
    event('TOOL_BLOCKED', 'DENIED', {
      reason: 'approval_denied',
      why: 'the operator denied the call',
    }),
    'files.write_file was blocked for Copilot: it was not approved (the operator denied the call)',
    'Not approved',
  ],
  [
    'a block for missing access',
    event('TOOL_BLOCKED', 'DENIED', { reason: 'access_denied', access_source: 'default' }),
    'files.write_file was blocked for Copilot: Copilot has no access to files',
    'No access',
  ],
  [
    'a kernel tool that is for people only',
    event(
      'TOOL_BLOCKED',
      'DENIED',
      { reason: 'operator_only' },
      { target: { server_id: 'mgp', tool_name: 'discovery.deregister' } },
    ),
    'mgp.discovery.deregister was blocked for Copilot: it is for people only, not agents',
    'No access',
  ],
  [
    'a block for arguments that do not fit',
    event('TOOL_BLOCKED', 'INVALID', {
      reason: 'invalid_arguments',
      problem: '/path must be string',
    }),
    "files.write_file was blocked for Copilot: its arguments do not match the tool's input (/path must be string)",
    '',
  ],
  [
    'a tool turned off',
    event('TOOL_BLOCKED', 'DISABLED', { reason: 'tool_turned_off' }),
    'files.write_file was blocked for Copilot: you turned it off',
    '',
  ],
  [
    'a server turned off',
    event('TOOL_BLOCKED', 'DISABLED', { reason: 'server_turned_off' }),
    'files.write_file was blocked for Copilot: you turned files off',
    '',
  ],
  [
    'a tool that does not exist',
    event('TOOL_BLOCKED', 'NOT_FOUND', { reason: 'unknown_tool' }),
    'Copilot called files.write_file, which does not exist',
    '',
  ],
  [
    'rejected code',
    event('CODE_REJECTED', 'REJECTED', {
      rejection: { status: 'rejected', reason: 'unsafe', violations: ['import of os'], hints: {} },
    }),
    'The code sent to files.write_file was rejected by the code-safety check: import of os',
    '',
  ],
  [
    'a tool call approved always',
    event(
      'PERMISSION_GRANTED',
      'GRANTED',
      { kind: 'tool_call', scope: 'always', requested_by: 'agent.copilot' },
      { actor: you },
    ),
    'You approved files.write_file for Copilot always in this workspace',
    'Always (this workspace)',
  ],
  [
    'a tool call you asked for, approved once',
    event(
      'PERMISSION_GRANTED',
      'GRANTED',
      { kind: 'tool_call', scope: 'once', requested_by: 'agent.vscode' },
      { actor: you },
    ),
    'You approved files.write_file once',
    'Allowed once',
  ],
  [
    'a tool call denied by you',
    event(
      'PERMISSION_DENIED',
      'DENIED',
      { kind: 'tool_call', scope: 'deny', requested_by: 'agent.copilot' },
      { actor: you },
    ),
    'You denied files.write_file for Copilot',
    'Denied',
  ],
  [
    'a tool call denied by the policy',
    event(
      'PERMISSION_DENIED',
      'DENIED',
      {
        kind: 'tool_call',
        scope: 'policy_denied',
        requested_by: 'agent.copilot',
        reason: 'deny_all',
      },
      { actor: kernel },
    ),
    'The approval policy refused files.write_file for Copilot: deny_all',
    'Denied by policy',
  ],
  [
    'a standing approval revoked',
    event('PERMISSION_REVOKED', 'REVOKED', { kind: 'tool_call', scope: 'always' }, { actor: you }),
    'You revoked the standing approval of files.write_file',
    'Always (this workspace)',
  ],
  [
    "a server's permission granted by you",
    event(
      'PERMISSION_GRANTED',
      'GRANTED',
      { kind: 'server_permission', permission: 'network.fetch', decided_by: 'operator' },
      { actor: you, target: { server_id: 'browser' } },
    ),
    'You granted browser the permission network.fetch',
    'network.fetch',
  ],
  [
    "a server's permission denied by the policy",
    event(
      'PERMISSION_DENIED',
      'DENIED',
      { kind: 'server_permission', permission: 'fs.write', decided_by: 'policy' },
      { actor: kernel, target: { server_id: 'browser' } },
    ),
    'The approval policy denied browser the permission fs.write',
    'fs.write',
  ],
  [
    "a server's permission put off",
    event(
      'PERMISSION_GRANTED',
      'DEFERRED',
      { kind: 'server_permission', permission: 'fs.write', decided_by: 'operator' },
      { actor: you, target: { server_id: 'browser' } },
    ),
    'browser asked for fs.write; the answer was put off',
    'fs.write',
  ],
  [
    "a server's permission withdrawn",
    event(
      'PERMISSION_REVOKED',
      'REVOKED',
      { kind: 'server_permission', permission: 'fs.write' },
      { actor: you, target: { server_id: 'browser' } },
    ),
    'You withdrew fs.write from browser',
    'fs.write',
  ],
  [
    'access given',
    event(
      'ACCESS_GRANTED',
      'ALLOW',
      { agent_id: 'agent.copilot', entry_type: 'server', permission: 'allow' },
      { actor: you, target: { server_id: 'files' } },
    ),
    'You gave Copilot access to files',
    'Access: allow',
  ],
  [
    'access denied for a while',
    event(
      'ACCESS_GRANTED',
      'DENY',
      {
        agent_id: 'agent.gateway.claude',
        entry_type: 'tool',
        permission: 'deny',
        expires_at: '2026-12-01T00:00:00Z',
      },
      { actor: you },
    ),
    'You denied gateway client claude access to files.write_file until 2026-12-01T00:00:00Z',
    'Access: deny',
  ],
  [
    'access removed',
    event(
      'ACCESS_REVOKED',
      'REVOKED',
      { agent_id: 'agent.copilot', entry_type: 'server', entries_removed: 1 },
      { actor: you, target: { server_id: 'files' } },
    ),
    'You removed the access rule of Copilot to files',
    'Access rule removed',
  ],
  [
    'a server started',
    event('SERVER_CONNECTED', 'SUCCESS', {}, { actor: kernel, target: { server_id: 'files' } }),
    'files started and connected',
    '',
  ],
  [
    'a server stopped by you',
    event(
      'SERVER_DISCONNECTED',
      'OPERATOR_REQUEST',
      { reason: 'operator_request' },
      { actor: kernel, target: { server_id: 'files' } },
    ),
    'files stopped (operator request)',
    '',
  ],
  [
    'a generated tool',
    event(
      'TOOL_CREATED_DYNAMIC',
      'SUCCESS',
      { creation_id: 'c1' },
      { target: { server_id: 'mgp.ephemeral', tool_name: 'sum_csv' } },
    ),
    'Copilot created the temporary tool sum_csv',
    '',
  ],
  [
    'a generated tool refused',
    event(
      'TOOL_CREATED_DYNAMIC',
      'BLOCKED',
      {},
      { target: { server_id: 'mgp.ephemeral', tool_name: 'sum_csv' } },
    ),
    'Copilot generated the tool sum_csv; its code was refused',
    '',
  ],
  [
    'a retry',
    event('dev.mgp-kernel.tool_retried', 'RETRY', { attempt: 2, error: 'busy' }, { actor: kernel }),
    'files.write_file was tried again (attempt 2) after: busy',
    '',
  ],
  [
    'a resource read',
    event(
      'dev.mgp-kernel.resource_read',
      'SUCCESS',
      { uri: 'file:///notes.md' },
      { target: { server_id: 'files' } },
    ),
    'Copilot read file:///notes.md from files',
    '',
  ],
  [
    'a prompt refused',
    event(
      'dev.mgp-kernel.prompt_get',
      'DENIED',
      { prompt: 'review' },
      { target: { server_id: 'files' } },
    ),
    'Copilot got the prompt review from files: denied',
    '',
  ],
  [
    'a server registered at run time',
    event(
      'dev.mgp-kernel.server_registration',
      'APPROVED',
      {},
      { target: { server_id: 'tickets' } },
    ),
    'Copilot registered the server tickets',
    '',
  ],
  [
    'a registration refused',
    event('dev.mgp-kernel.server_registration', 'DENIED', {}, { target: { server_id: 'tickets' } }),
    'Registering the server tickets was refused',
    '',
  ],
  [
    'a server removed',
    event(
      'dev.mgp-kernel.server_deregistration',
      'REMOVED',
      {},
      { actor: you, target: { server_id: 'tickets' } },
    ),
    'You removed the server tickets',
    '',
  ],
  [
    'sampling',
    event(
      'dev.mgp-kernel.sampling',
      'REJECTED',
      {},
      { actor: { type: 'server', id: 'files' }, target: { server_id: 'files' } },
    ),
    'files asked the model for a completion: rejected',
    '',
  ],
  [
    'an LLM completion for a server',
    event(
      'dev.mgp-kernel.llm_completion',
      'SUCCESS',
      {},
      { actor: { type: 'server', id: 'files' }, target: { server_id: 'files' } },
    ),
    'files asked the kernel for an LLM completion',
    '',
  ],
  [
    'a tool turned off by you',
    event('dev.mgp-kernel.switched', 'DISABLED', { what: 'tool' }, { actor: you }),
    'You turned files.write_file off',
    '',
  ],
  [
    'a server turned on by you',
    event(
      'dev.mgp-kernel.switched',
      'ENABLED',
      { what: 'server' },
      { actor: you, target: { server_id: 'files' } },
    ),
    'You turned files on',
    '',
  ],
  [
    "a server's own report",
    event(
      SERVER_REPORTED,
      'REPORTED',
      { reported_event_type: 'com.files.cache_cleared', reported_result: 'SUCCESS' },
      { actor: { type: 'server', id: 'files' }, target: { server_id: 'files' } },
    ),
    'files reported com.files.cache_cleared (success)',
    '',
  ],
  [
    'reports dropped',
    event(
      SERVER_AUDIT_DROPPED,
      'DROPPED',
      { dropped: 40 },
      { actor: kernel, target: { server_id: 'files' } },
    ),
    'The kernel dropped 40 audit reports from files: too many at once',
    '',
  ],
  [
    'an MCPL push event',
    event(
      'dev.mgp-kernel.mcpl.push_event',
      'ACCEPTED',
      { feature_set: 'ci' },
      { actor: { type: 'server', id: 'ci' }, target: { server_id: 'ci' } },
    ),
    'ci pushed an event: accepted',
    '',
  ],
  [
    'a custom event of another implementation',
    event('com.example.cache_flush', 'SUCCESS', {}, { actor: you }),
    'You: cache flush on files.write_file',
    '',
  ],
];

describe('Audit records in plain words', () => {
  for (const [what, record, sentence, permission] of CASES)
    it(what, () => {
      assert.equal(auditSentence(record), sentence);
      assert.equal(auditPermission(record), permission);
    });

  it('has a sentence of its own for every standard event type (MGP §6.4)', () => {
    const covered = new Set(CASES.map(([, record]) => record.event_type));
    for (const type of STANDARD_EVENT_TYPES) assert.ok(covered.has(type), `${type} is covered`);
  });

  it('never fails on a record with missing or odd fields', () => {
    const odd: SentenceRecord[] = [
      { event_type: 'TOOL_EXECUTED', result: '' },
      { event_type: 'VALIDATION_FAILED', result: 'BLOCKED', details: { violations: 'none' } },
      { event_type: 'CODE_REJECTED', result: 'REJECTED', details: { rejection: 7 } },
      { event_type: 'PERMISSION_GRANTED', result: 'GRANTED', details: { scope: 3 } },
      { event_type: 'x.y', result: 'OK', actor: { type: 'agent' } },
    ];
    for (const record of odd) {
      assert.equal(typeof auditSentence(record), 'string');
      assert.ok(auditSentence(record).length > 0);
      assert.equal(typeof auditPermission(record), 'string');
    }
  });

  it("keeps an agent's id as it is, at the start of a sentence too", () => {
    const worker = { type: 'agent', id: 'agent.worker-1' };
    assert.equal(
      auditSentence(event('TOOL_EXECUTED', 'SUCCESS', {}, { actor: worker })),
      'agent.worker-1 called files.write_file',
    );
  });

  it('cuts a long error short', () => {
    const sentence = auditSentence(
      event('TOOL_EXECUTED', 'FAILURE', { error: `boom ${'x'.repeat(500)}` }),
    );
    assert.ok(sentence.length < 220, `${sentence.length} characters`);
    assert.ok(sentence.endsWith('…'));
  });

  it('names every event type the kernel writes in words, for the filter', () => {
    assert.equal(auditTypeWords('TOOL_EXECUTED'), 'Tool executed');
    assert.equal(auditTypeWords('PERMISSION_GRANTED'), 'Permission granted');
    assert.equal(auditTypeWords('OPERATOR_REQUEST'), 'Operator request');
    assert.equal(auditTypeWords('dev.mgp-kernel.switched'), 'Switched (dev.mgp-kernel)');
    for (const type of STANDARD_EVENT_TYPES) {
      const words = auditTypeWords(type);
      assert.doesNotMatch(words, /_|^[a-z]|[A-Z]{2}/, `${type} → ${words}`);
    }
  });
});
