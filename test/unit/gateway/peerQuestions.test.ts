import { strict as assert } from 'node:assert';
import type { ToolApprovalRequest } from '../../../client/src/kernel/host/interaction';
import {
  peerAnswer,
  peerQuestion,
  PeerQuestions,
} from '../../../client/src/kernel/gateway/a2a/peerQuestions';

const request: ToolApprovalRequest = {
  id: 'r1',
  serverId: 'plain',
  toolName: 'echo',
  args: { text: 'groceries' },
  security: {
    risk_level: 'dangerous',
    permissions_required: [],
    side_effects: [],
    reversible: false,
    sources: { risk_level: 'config' },
  } as unknown as ToolApprovalRequest['security'],
  agentId: 'agent.a2a.carol',
  traceId: 'trace-1',
  requestedAt: '2026-12-07T00:00:00Z',
};

describe("an A2A peer's answer to an approval question", () => {
  it('only "allow" (or yes, once) runs the call, and only once; anything else denies it', () => {
    for (const text of ['allow', 'Allow.', ' yes ', 'once!'])
      assert.equal(peerAnswer(text), 'once');
    for (const text of ['deny', 'no', 'allow always', 'sure, go ahead', '', undefined])
      assert.equal(peerAnswer(text), 'deny', String(text));
  });

  it('the question names the server, the tool, the caller, the arguments and how to answer', () => {
    const question = peerQuestion(request);
    assert.match(question, /plain wants to run its tool "echo" for agent\.a2a\.carol/);
    assert.match(question, /"text": "groceries"/);
    assert.match(question, /Answer "allow" to run it once, or "deny"\.$/);
  });

  it('a call no task registered is denied without asking anyone', async () => {
    const questions = new PeerQuestions();
    const refused: string[] = [];
    const interaction = questions.interaction((r, why) => refused.push(`${r.toolName}: ${why}`));
    assert.equal(await interaction.approveToolCall(request), 'deny');
    assert.equal(refused.length, 1);
    const forget = questions.register('trace-1', async () => 'allow');
    assert.equal(await interaction.approveToolCall(request), 'once');
    forget();
    assert.equal(await interaction.approveToolCall(request), 'deny');
  });
});
