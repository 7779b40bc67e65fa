import { strict as assert } from 'node:assert';
import { isAgentTaskFromWebview } from '../../../shared/src/agentTaskMessages';
import { requesterName } from '../../../shared/src/approvalScopes';
import { A2aDirectory } from '../../../client/src/kernel/a2a/directory';
import type { A2aTask, AgentCardSummary } from '../../../client/src/kernel/a2a/types';
import { agentDescription, taskDescription } from '../../../client/src/vscode/agents/agentRows';
import {
  agentTaskView,
  MAX_PART_CHARS,
  partView,
} from '../../../client/src/vscode/agents/agentTaskView';

const CARD: AgentCardSummary = {
  name: 'Helper <script>',
  description: 'Answers questions',
  dialect: 'a2a-1.0',
  endpoint: 'http://127.0.0.1:9/a2a',
  cardUrl: 'http://127.0.0.1:9/.well-known/agent-card.json',
  streaming: true,
  skills: [{ id: 'echo', name: 'Echo', description: 'Says it back', tags: [], examples: [] }],
};

function task(state: A2aTask['state'], extra: Partial<A2aTask> = {}): A2aTask {
  return { id: 'task-1', contextId: 'ctx-1', state, history: [], artifacts: [], ...extra };
}

describe('The Agents view and the A2A task page', () => {
  it('keeps each state a task passes through once, oldest first, and its first message', () => {
    const directory = new A2aDirectory();
    directory.taskSeen('a2a.helper', task('submitted'), 'weather in Paris?');
    directory.taskSeen('a2a.helper', task('working'));
    directory.taskSeen('a2a.helper', task('working'));
    directory.taskSeen('a2a.helper', task('input-required'), 'a later answer');
    const record = directory.taskOf('a2a.helper', 'task-1');
    assert.deepEqual(
      record?.states.map((seen) => seen.state),
      ['submitted', 'working', 'input-required'],
    );
    assert.equal(record?.message, 'weather in Paris?');
  });

  it('shows messages, artifacts and files as text, never the bytes, and bounds long text', () => {
    const directory = new A2aDirectory();
    directory.taskSeen(
      'a2a.helper',
      task('completed', {
        history: [
          { role: 'user', parts: [{ kind: 'text', text: 'hello' }] },
          { role: 'agent', parts: [{ kind: 'data', data: { a: 1 } }] },
        ],
        artifacts: [
          {
            name: 'report',
            parts: [
              { kind: 'file', name: 'r.pdf', mimeType: 'application/pdf', bytes: 'AAAAAAAA' },
              { kind: 'text', text: 'x'.repeat(MAX_PART_CHARS + 10) },
            ],
          },
        ],
      }),
      'hello',
    );
    const record = directory.taskOf('a2a.helper', 'task-1');
    assert.ok(record);
    const view = agentTaskView(record, 'helper', CARD);
    assert.equal(view.ended, true);
    assert.equal(view.waiting, false);
    assert.equal(view.dialect, 'A2A 1.0');
    assert.equal(view.cardName, 'Helper <script>', 'set as text by the page, not HTML');
    assert.deepEqual(view.messages[1], {
      role: 'agent',
      parts: [{ kind: 'data', text: '{\n  "a": 1\n}' }],
    });
    const [file, long] = view.artifacts[0].parts;
    assert.equal(file.text, 'r.pdf · application/pdf · 6 bytes');
    assert.ok(long.text.endsWith('(10 more characters)'));
    assert.equal(
      partView({ kind: 'file', uri: 'https://x.test/f' }).text,
      'a file · unknown type · at https://x.test/f',
    );
  });

  it("a task waiting for input shows the agent's question, in the row and on the page", () => {
    const directory = new A2aDirectory();
    const waiting = task('input-required', {
      statusMessage: { role: 'agent', parts: [{ kind: 'text', text: 'Which\ncity?' }] },
    });
    directory.taskSeen('a2a.helper', waiting, 'weather');
    const record = directory.taskOf('a2a.helper', 'task-1');
    assert.ok(record);
    assert.equal(taskDescription(record), 'input required: Which\\ncity?');
    const view = agentTaskView(record, 'helper', undefined);
    assert.equal(view.waiting, true);
    assert.equal(view.statusText, 'Which\ncity?');
  });

  it("an agent's row says whether it is reachable, its dialect and skills, or why it waits", () => {
    assert.equal(agentDescription('connected', CARD), 'reachable · A2A 1.0 · 1 skill');
    assert.equal(
      agentDescription('registered', undefined, { hold: 'untrusted' }),
      'Restricted Mode: not contacted',
    );
    assert.equal(
      agentDescription('registered', undefined, { hold: 'unapproved' }),
      'not contacted until you allow it',
    );
    assert.equal(
      agentDescription('error', undefined, { lastError: 'card\nnot found' }),
      'unreachable: card\\nnot found',
    );
  });

  it('the page sends only what it may: ready, refresh, cancel, a bounded answer', () => {
    assert.equal(isAgentTaskFromWebview({ type: 'cancel' }), true);
    assert.equal(isAgentTaskFromWebview({ type: 'answer', text: 'Paris' }), true);
    assert.equal(isAgentTaskFromWebview({ type: 'answer', text: '   ' }), false);
    assert.equal(isAgentTaskFromWebview({ type: 'answer', text: 'x'.repeat(20_001) }), false);
    assert.equal(isAgentTaskFromWebview({ type: 'delegate', text: 'x' }), false);
  });
});

describe('who asks, in an approval question', () => {
  it('names an A2A peer by the name of your config, or as the holder of your token', () => {
    assert.equal(requesterName('agent.a2a.tester'), 'the A2A agent "tester"');
    assert.equal(requesterName('agent.a2a.peer'), 'the A2A agent holding your token');
  });
});
