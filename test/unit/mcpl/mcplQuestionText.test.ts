import { strict as assert } from 'node:assert';
import {
  inferenceDetail,
  inferenceTitle,
  MAX_SHOWN_LINES,
  scopeDetail,
  scopeTitle,
} from '../../../client/src/kernel/host/mcplQuestionText';

describe('MCPL prompts: what the elevation and inference questions show', () => {
  const scope = {
    serverId: 'notes',
    featureSet: 'files.annotate',
    featureSetDescription: 'Annotate files\u202e',
    label: 'src/\u202etxt.exe',
    payload: { path: 'src/a.ts', reason: 'line one\nline two\u001b[2K' },
    origin: 'elevation' as const,
  };

  it('shows server, feature set, scope and payload, the server part marked untrusted and escaped', () => {
    const detail = scopeDetail(scope);
    assert.match(detail, /^Server: notes\nFeature set: files\.annotate\n/);
    assert.match(detail, /── From the server \(untrusted\) ──\nScope: src\/\\u202etxt\.exe\n/);
    assert.match(detail, /Feature set description: Annotate files\\u202e/);
    assert.match(detail, /"reason": "line one\\nline two\\u001b\[2K"/);
    assert.ok(!/[\u202e\u001b]/.test(detail), 'no control or bidi character reaches the dialog');
    assert.equal(scopeTitle(scope), 'Allow "notes" access to src/\\u202etxt.exe?');
  });

  it('names the tool of a scoped call and cuts a long payload, counting the rest', () => {
    const payload = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
    const detail = scopeDetail({ ...scope, origin: 'tool', toolName: 'annotate', payload });
    assert.match(detail, /Tool: annotate/);
    assert.match(detail, /… 62 more lines/);
    assert.ok(detail.split('\n').length < MAX_SHOWN_LINES + 20);
    assert.equal(
      scopeTitle({ ...scope, origin: 'tool', toolName: 'annotate', label: 'a.ts' }),
      'Allow "notes" to run annotate on a.ts?',
    );
  });

  it('shows which model and every message that will be sent, escaped', () => {
    const question = {
      serverId: 'notes',
      featureSet: 'assist.summarize',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: `Summarize:\n- milk\u2066\n${'x'.repeat(3000)}` },
      ],
      maxTokens: 200,
      model: 'scripted (MGP endpoint)',
    };
    const detail = inferenceDetail(question);
    assert.match(detail, /Model: scripted \(MGP endpoint\)\nUp to 200 tokens/);
    assert.match(
      detail,
      /written by the server \(untrusted\) ──\n\[system\]\nBe brief\.\n\[user\]\nSummarize:\n- milk\\u2066\n/,
    );
    assert.match(detail, /… \(1019 more characters\)/);
    assert.equal(
      inferenceTitle(question),
      'Allow "notes" to use your model "scripted (MGP endpoint)"?',
    );
  });
});
