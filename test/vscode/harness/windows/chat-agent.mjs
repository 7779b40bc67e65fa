// The @mgp chat participant in VS Code's chat view, on a scripted model: the loopback fixture behind
// the kernel's OpenAI-compatible endpoint, which MGP Kernel registers as a VS Code language model
// (vscode.lm.registerLanguageModelChatProvider), so it is the model picked in the chat view. The model
// finds a tool it was never given, the kernel asks approval inline (buttons in the chat), the result
// names its server and tool with a link to its trace; a follow-up streams a tool's output as
// progress, with the earlier turns as history; "Allow for this session" lets the same tool run again
// in the conversation without asking; Stop during a streaming tool reaches the server (its record
// says cancelled); /tools, /servers and /audit; the trace link opens the Audit Trail filtered to that
// call. Screenshots in dark and light themes.
import { strict as assert } from 'node:assert';
import { createRequire } from 'node:module';
import {
  ask,
  auditRecords,
  chatView,
  lastResponse,
  responseDone,
  switchWorkbenchTheme,
  watchLiveCodeBlock,
} from '../chat.mjs';
import { writeSettings } from '../codeServer.mjs';
import { waitFor } from '../patience.mjs';
import {
  approvePermissions,
  findWebviewFrame,
  openWorkbench,
  pickInQuickInput,
  serverRow,
  startWorkspaceServers,
} from '../uiKit.mjs';

const require = createRequire(import.meta.url);
const { startScriptedModel } = require('../../../fixtures/models/scriptedModel.js');

export const title = 'the @mgp chat participant on a scripted model';
export const window = { settings: { 'chat.disableAIFeatures': false } };

const DELETE_TASK = 'Delete my note called groceries.';
const STREAM_TASK = 'Now stream me a few words of sample text.';
const DELETE_ANSWER = 'I deleted the note "groceries" after you allowed it.';
const SESSION_TASK = 'Delete my notes called milk and eggs.';
const SESSION_ANSWER = 'I deleted both notes; you were asked once.';
const CANCEL_TASK = 'Stream me a very long sample text.';
const STREAM_ANSWER = 'Here is the text the tool streamed.';

/** What the model was asked, read from one OpenAI request: the task, tool results since, tools offered. */
function requestFacts(parsed) {
  const messages = parsed.messages ?? [];
  const taskAt = messages.findLastIndex((m) => m.role === 'user');
  return {
    task: String(messages[taskAt]?.content ?? ''),
    before: messages.slice(0, taskAt),
    results: messages.slice(taskAt + 1).filter((m) => m.role === 'tool'),
    offered: (parsed.tools ?? []).map((t) => t.function.name),
  };
}

/**
 * The model's side of the conversation, decided from each request (VS Code may ask the model other
 * things, a chat title for one: those get a plain answer). `seen` records what the tests check.
 */
function scriptedTurn(seen) {
  return (parsed) => {
    const { task, before, results, offered } = requestFacts(parsed);
    if (task === SESSION_TASK) {
      // The same dangerous tool twice in one turn: the second call runs on the first answer.
      const titles = ['milk', 'eggs'];
      if (results.length === 0)
        return {
          tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'delete a note' } }],
        };
      if (results.length <= titles.length)
        return {
          tool_calls: [
            { name: 'example_delete_notes', arguments: { title: titles[results.length - 1] } },
          ],
        };
      return { content: SESSION_ANSWER };
    }
    if (task === CANCEL_TASK) {
      // Long enough (minutes) that only a cancellation ends it while the test waits.
      seen.inferencesAfterCancel += seen.cancelled ? 1 : 0;
      if (results.length === 0)
        return {
          tool_calls: [
            { name: 'mgp_tools_discover', arguments: { query: 'stream text word by word' } },
          ],
        };
      return {
        tool_calls: [{ name: 'example_stream_text', arguments: { words: 10000, delay_ms: 50 } }],
      };
    }
    const plan =
      task === DELETE_TASK
        ? { query: 'delete a note', tool: 'example_delete_notes', args: { title: 'groceries' } }
        : task === STREAM_TASK
          ? {
              query: 'stream text word by word',
              tool: 'example_stream_text',
              args: { words: 120, delay_ms: 40 },
            }
          : undefined;
    if (!plan) return { content: 'Notes' };
    seen.offered.push(offered);
    if (task === STREAM_TASK)
      seen.historyHadAnswer ||= before.some(
        (m) => m.role === 'assistant' && String(m.content).includes(DELETE_ANSWER),
      );
    if (results.length === 0)
      return { tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: plan.query } }] };
    if (results.length === 1 && offered.includes(plan.tool))
      return { tool_calls: [{ name: plan.tool, arguments: plan.args }] };
    return {
      content: task === DELETE_TASK ? DELETE_ANSWER : STREAM_ANSWER,
      chunkDelayMs: 60,
    };
  };
}

export async function run(kit) {
  const { page, server, workspace, dirs, step, shot, THEMES } = kit;
  const seen = { offered: [], historyHadAnswer: false, cancelled: false, inferencesAfterCancel: 0 };
  const model = await startScriptedModel({
    turns: Array.from({ length: 200 }, () => scriptedTurn(seen)),
  });
  let deleteTrace;
  try {
    writeSettings(dirs, {
      ...window.settings,
      'mgp.models.openaiCompatible.url': model.url,
      'mgp.models.openaiCompatible.model': 'scripted',
    });

    await step('the example workspace runs both servers', async () => {
      await openWorkbench(page, server, workspace);
      await startWorkspaceServers(page, ['example', 'everything', 'live']);
      await approvePermissions(page, 'example');
      await serverRow(page, 'example', 'connected');
      await serverRow(page, 'everything', 'connected');
    });

    await step('the chat view opens with the endpoint as its model', async () => {
      await page.keyboard.press('Control+Alt+I');
      await chatView(page).waitFor();
      await page
        .locator('.interactive-input-part', { hasText: 'scripted (MGP endpoint)' })
        .waitFor();
    });

    await step(
      '@mgp finds delete_notes by itself and the kernel asks approval inline',
      async () => {
        await ask(page, `@mgp ${DELETE_TASK}`);
        const question = lastResponse(page).locator('.rendered-markdown', {
          hasText: 'to run delete_notes?',
        });
        await question.waitFor();
        const text = await question.textContent();
        assert.match(text, /Allow example to run delete_notes\? \(asked by the @mgp chat\)/);
        assert.match(text, /Risk dangerous \(/);
        assert.doesNotMatch(text, /heuristic\)|agent\.chat/);
        assert.match(text, /"title":\s*"groceries"/);
        assert.match(text, /Description \(from the server — untrusted\)/);
        assert.deepEqual(seen.offered[0], ['mgp_tools_discover', 'mgp_tools_request']);
        assert.ok(seen.offered[1].includes('example_delete_notes'), 'the found tool is offered');
        // The dialog's answers, Deny first for a dangerous tool.
        await lastResponse(page).getByRole('button', { name: 'Allow For…' }).waitFor();
        const answers = (await lastResponse(page).getByRole('button').allTextContents())
          .map((text) => text.trim())
          .filter((text) => ['Deny', 'Allow', 'Allow For…'].includes(text));
        assert.deepEqual(answers, ['Deny', 'Allow', 'Allow For…']);
        await shot('chat-agent-approval-dark');
      },
    );

    await step(
      'Allow runs it once: the result names server and tool, with its trace, audited under agent.chat',
      async () => {
        await lastResponse(page).getByRole('button', { name: 'Allow', exact: true }).click();
        await responseDone(page, DELETE_ANSWER);
        // The tool's name, its output, then what the kernel decided with the trace link.
        assert.match(
          await lastResponse(page).textContent(),
          /example\s*·\s*delete_notes[\s\S]*Deleted\s0\snotes[\s\S]*↳ ran\s*·\s*approval: once\s*·\s*trace [0-9a-f]{8}/,
        );
        const result = lastResponse(page).locator('.rendered-markdown', { hasText: '↳ ran' });
        await waitFor(
          () =>
            auditRecords(dirs).some(
              (r) => r.event_type === 'TOOL_EXECUTED' && r.target.tool_name === 'delete_notes',
            ),
          'the call in the audit log',
        );
        const executed = auditRecords(dirs).find(
          (r) => r.event_type === 'TOOL_EXECUTED' && r.target.tool_name === 'delete_notes',
        );
        assert.deepEqual(executed.actor, { type: 'agent', id: 'agent.chat' });
        deleteTrace = executed.trace_id;
        assert.ok(
          auditRecords(dirs).some(
            (r) =>
              r.event_type === 'PERMISSION_GRANTED' &&
              r.trace_id === deleteTrace &&
              r.details.requested_by === 'agent.chat',
          ),
          'the approval is recorded in the same trace',
        );
        assert.match(await result.textContent(), new RegExp(`trace ${deleteTrace.slice(0, 8)}`));
        await lastResponse(page)
          .locator('.interactive-result-code-block', { hasText: 'Deleted 0 notes' })
          .waitFor();
        await shot('chat-agent-result-dark');
      },
    );

    await step(
      'a follow-up streams the tool output as progress, with the earlier turns as history',
      async () => {
        const shownLive = await watchLiveCodeBlock(page, 'lorem ipsum dolor');
        await ask(page, `@mgp ${STREAM_TASK}`);
        // The output shows live, as a code block, while the call runs.
        await lastResponse(page)
          .locator('.interactive-result-code-block', { hasText: 'lorem ipsum dolor' })
          .waitFor();
        assert.equal(await shownLive(), true, 'the output showed while the call ran');
        await shot('chat-agent-streaming-dark');
        await responseDone(page, STREAM_ANSWER);
        assert.ok(seen.historyHadAnswer, 'the earlier answer came back from the chat history');
        assert.match(
          await lastResponse(page).textContent(),
          /mgp\.tools\.discover — ran\s*·\s*trace [0-9a-f]{8}[\s\S]*example\s*·\s*stream_text[\s\S]*lorem\sipsum[\s\S]*↳ ran\s*·\s*trace/,
        );
        // What discovery found reads as a list of tools with their servers, not as its JSON.
        const found = lastResponse(page).locator('.rendered-markdown', { hasText: 'Found:' });
        assert.match(await found.first().textContent(), /example\s*·\s*stream_text\s*—\s*\d+%/);
        assert.doesNotMatch(await lastResponse(page).textContent(), /"tool_id"/);
      },
    );

    await step(
      '"Allow For…" this session: the second call of the same tool asks nothing; both are audited',
      async () => {
        // This turn and the next are shown in the light theme: an approval, then a streamed result.
        await switchWorkbenchTheme(
          kit,
          THEMES.find((t) => t.file === 'light'),
        );
        await ask(page, `@mgp ${SESSION_TASK}`);
        const questions = lastResponse(page).locator('.rendered-markdown', {
          hasText: 'to run delete_notes?',
        });
        await questions.first().waitFor();
        assert.match(await questions.first().textContent(), /"title":\s*"milk"/);
        await lastResponse(page).getByRole('button', { name: 'Deny' }).waitFor();
        await shot('chat-agent-approval-light');
        await lastResponse(page).getByRole('button', { name: 'Allow For…' }).click();
        await pickInQuickInput(page, 'This session');
        await responseDone(page, SESSION_ANSWER);
        assert.equal(await questions.count(), 1, 'asked once, for the first call only');
        assert.match(
          await lastResponse(page).textContent(),
          /↳ ran\s*·\s*approval: session\s*·[\s\S]*↳ ran\s*·\s*approval: session_grant\s*·/,
        );
        const executed = () =>
          auditRecords(dirs).filter(
            (r) =>
              r.event_type === 'TOOL_EXECUTED' &&
              r.target.tool_name === 'delete_notes' &&
              r.details.approval?.startsWith('session'),
          );
        await waitFor(() => executed().length === 2, 'both calls in the audit log');
        const [first, second] = executed();
        assert.deepEqual(
          [first.details.approval, second.details.approval],
          ['session', 'session_grant'],
        );
        for (const record of [first, second])
          assert.deepEqual(record.actor, { type: 'agent', id: 'agent.chat' });
        // The answer is recorded like every approval: a grant for the session, in the first call's
        // trace, asked for agent.chat; the second call's trace holds no question.
        const grants = auditRecords(dirs).filter(
          (r) => r.event_type === 'PERMISSION_GRANTED' && r.details.kind === 'tool_call',
        );
        const grant = grants.find((r) => r.trace_id === first.trace_id);
        assert.equal(grant?.details.scope, 'session');
        assert.equal(grant?.details.requested_by, 'agent.chat');
        assert.ok(!grants.some((r) => r.trace_id === second.trace_id));
        await shot('chat-agent-session-approval-light');
      },
    );

    await step(
      'Stop while a streaming tool runs: the server gets mgp/stream/cancel, the record says cancelled',
      async () => {
        await ask(page, `@mgp ${CANCEL_TASK}`);
        // The response still loading: the last one drawn may yet be the earlier stream's, done.
        await page
          .locator('.interactive-response.chat-response-loading .interactive-result-code-block', {
            hasText: 'lorem ipsum dolor',
          })
          .first()
          .waitFor();
        await shot('chat-agent-streaming-light');
        seen.cancelled = true;
        await page
          .locator('.interactive-input-part')
          .getByRole('button', { name: /^Cancel/ })
          .click();
        await waitFor(
          () =>
            auditRecords(dirs).some(
              (r) =>
                r.event_type === 'TOOL_EXECUTED' &&
                r.target.tool_name === 'stream_text' &&
                r.details.cancelled === true,
            ),
          'the cancelled call in the audit log',
        );
        const cancelled = auditRecords(dirs).find(
          (r) =>
            r.event_type === 'TOOL_EXECUTED' &&
            r.target.tool_name === 'stream_text' &&
            r.details.cancelled === true,
        );
        assert.deepEqual(cancelled.actor, { type: 'agent', id: 'agent.chat' });
        assert.equal(cancelled.details.streamed, true);
        assert.equal(seen.inferencesAfterCancel, 0, 'the model is not asked again');
        await switchWorkbenchTheme(
          kit,
          THEMES.find((t) => t.file === 'dark'),
        );
        await shot('chat-agent-cancelled-dark');
      },
    );

    await step('/tools lists what the conversation loaded; /servers the servers', async () => {
      await ask(page, '@mgp /tools');
      await responseDone(page, 'Loaded in this conversation');
      const tools = await lastResponse(page).textContent();
      assert.match(tools, /example\.delete_notes/);
      assert.match(tools, /example\.stream_text/);
      assert.match(tools, /Tool context: \d+ of \d+ tokens/);
      await ask(page, '@mgp /servers');
      await responseDone(page, 'everything');
      const servers = await lastResponse(page).locator('table').textContent();
      assert.match(servers, /example\s*connected/);
    });

    await step(
      "/audit lists the conversation's calls; a trace link opens the Audit Trail at that call",
      async () => {
        await ask(page, '@mgp /audit');
        await responseDone(page, "This conversation's tool calls");
        await shot('chat-agent-audit-dark');
        await lastResponse(page)
          .getByRole('link', { name: `trace ${deleteTrace.slice(0, 8)}` })
          .click();
        await page.locator('.tab', { hasText: 'Audit Trail' }).waitFor();
        const frame = await findWebviewFrame(page, 'Audit Trail');
        await frame.waitForFunction(
          (trace) => document.querySelector('input[data-filter="trace"]')?.value === trace,
          deleteTrace,
        );
        // The table draws the filtered rows after the filter shows: wait for them.
        await frame.waitForFunction((trace) => {
          const drawn = [...document.querySelectorAll('.window .row[data-seq]')];
          return drawn.length > 0 && drawn.every((r) => r.dataset.trace === trace);
        }, deleteTrace);
        const rows = await frame
          .locator('.window .row[data-seq]')
          .evaluateAll((all) =>
            all.map(
              (r) =>
                `${r.querySelector('[data-col="type"]').textContent} ${r.querySelector('[data-col="tool"]').textContent} ${r.dataset.trace}`,
            ),
          );
        assert.ok(rows.length > 0 && rows.every((r) => r.endsWith(deleteTrace)), rows.join('\n'));
        assert.ok(
          rows.some((r) => r.startsWith('Tool executed delete_notes')),
          rows.join('\n'),
        );
        await shot('chat-agent-audit-trail');
      },
    );

    await step('the conversation reads in the light theme', async () => {
      await kit.runFromPalette('View: Close All Editors');
      await switchWorkbenchTheme(
        kit,
        THEMES.find((t) => t.file === 'light'),
      );
      await shot('chat-agent-light');
    });
  } finally {
    await model.close();
  }
}
