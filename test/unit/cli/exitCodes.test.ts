import { strict as assert } from 'node:assert';
import type { AgentRunRecord, ToolCallDecision } from '../../../client/src/kernel/agent/transcript';
import { KernelError, refusedBy } from '../../../client/src/kernel/domain/errors';
import {
  EXIT,
  exitCodeOfError,
  exitCodeOfResult,
  exitCodeOfRun,
} from '../../../client/src/cli/exitCodes';

function run(reason: AgentRunRecord['stop']['reason'], decisions: ToolCallDecision[] = []) {
  const tool_calls = decisions.map((decision, i) => ({
    id: String(i),
    name: 't',
    arguments: {},
    decision,
    is_error: decision !== 'ran',
    result: '',
    duration_ms: 1,
  }));
  return {
    agent_id: 'agent.cli',
    task: 'x',
    steps: [
      {
        index: 0,
        model: 'm',
        offered: [],
        context_tokens: 0,
        text: '',
        tool_calls,
        inference_ms: 1,
      },
    ],
    stop: { reason, message: '' },
    answer: '',
    peak_context_tokens: 0,
    duration_ms: 1,
  } as AgentRunRecord;
}

describe('exit codes of mgp call and mgp agent', () => {
  it('tells a refusal, a limit, a cancellation and an error apart', () => {
    assert.equal(
      exitCodeOfError(refusedBy('approval', new KernelError('PermissionDenied', 'no'))),
      EXIT.refused,
    );
    assert.equal(exitCodeOfError(new KernelError('Timeout', 'slow')), EXIT.limit);
    assert.equal(exitCodeOfError(new KernelError('Cancelled', 'stop')), EXIT.cancelled);
    assert.equal(exitCodeOfError(new KernelError('NotConnected', 'gone')), EXIT.error);
    assert.equal(exitCodeOfError(new Error('anything else')), EXIT.error);
  });

  it("reads a result: the tool's own error, and a block the kernel answered itself", () => {
    assert.equal(exitCodeOfResult({ content: [] }), EXIT.done);
    assert.equal(exitCodeOfResult({ content: [], isError: true }), EXIT.error);
    const blocked = { content: [], isError: true, _mgp: { code: 1011, blocked_by: 'code_safety' } };
    assert.equal(exitCodeOfResult(blocked), EXIT.refused);
  });

  it("reads an agent's run: an answer after a refused call is not a plain success", () => {
    assert.equal(exitCodeOfRun(run('answered', ['ran'])), EXIT.done);
    assert.equal(exitCodeOfRun(run('answered', ['ran', 'refused'])), EXIT.refused);
    assert.equal(exitCodeOfRun(run('answered', ['failed'])), EXIT.done);
    assert.equal(exitCodeOfRun(run('max_steps')), EXIT.limit);
    assert.equal(exitCodeOfRun(run('loop_guard')), EXIT.limit);
    assert.equal(exitCodeOfRun(run('cancelled')), EXIT.cancelled);
    assert.equal(exitCodeOfRun(run('model_error')), EXIT.error);
  });
});
