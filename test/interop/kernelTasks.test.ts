import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskSnapshot } from '../../client/src/kernel/connection/toolTasks';
import type { KeptTask } from '../../client/src/kernel/tasks/taskBoard';
import type { RunToWebview } from '@shared/toolPanelMessages';
import { KernelError } from '../../client/src/kernel/domain/errors';
import { findTool, ToolRuns, viewOf } from '../../client/src/vscode/runTool/toolRuns';
import {
  eventually,
  eventuallyValue,
  everythingServer,
  fixtureServer,
  node,
  startKernel,
  taskExampleServer,
  TestKernel,
  textOf,
} from './support/kernelHarness';
import { startHttpTaskServer } from './support/taskServer';

const APPROVED = 'approved_tools = ["count_slowly", "write_report"]\n';
const stdioTasks = (extra = APPROVED) =>
  `[[servers]]\nid = "tasks"\ncommand = ${node}\nargs = [${taskExampleServer}]\n${extra}`;

describe('MCP tasks (task example server, server-everything)', function () {
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  it('declares the client tasks capability, so a server may ask for elicitation as a task', async () => {
    t = await startKernel(
      `[[servers]]\nid = "everything"\ncommand = ${node}\nargs = [${everythingServer}, "stdio"]\n`,
    );
    t.operator.elicitContent = { name: 'Ada', favoriteColor: 'Blue' };
    // server-everything offers this tool only to a client whose tasks capability covers elicitation.
    await eventually(
      () =>
        t!.kernel.manager
          .get('everything')
          .tools.some((tool) => tool.name === 'trigger-elicitation-request-async'),
      'the async elicitation tool',
    );
    const { result } = await t.kernel.call({
      serverId: 'everything',
      toolName: 'trigger-elicitation-request-async',
      args: {},
    });
    const text = textOf(result);
    assert.match(text, /\[COMPLETED\]/, text);
    assert.match(text, /Ada/, text);
    assert.equal(t.operator.count('elicit'), 1);
  });

  it('runs an optional task tool as a task when asked: statuses, then the result', async () => {
    t = await startKernel(stdioTasks());
    const statuses: TaskSnapshot[] = [];
    const { result } = await t.kernel.call({
      serverId: 'tasks',
      toolName: 'count_slowly',
      args: { to: 3, step_ms: 20 },
      task: { onStatus: (task) => statuses.push(task) },
    });
    assert.equal(textOf(result), 'Counted to 3.');
    assert.ok(statuses.length >= 2, JSON.stringify(statuses));
    assert.equal(statuses[0].status, 'working');
    assert.equal(statuses.at(-1)!.status, 'completed');
    assert.ok(statuses.every((s) => s.taskId === statuses[0].taskId));
    const listed = await t.kernel.manager.get('tasks').session().listTasks();
    assert.ok(listed.tasks.some((task) => task.taskId === statuses[0].taskId));
    const executed = await t.ofType('TOOL_EXECUTED');
    assert.equal(executed.length, 1);
  });

  it('runs an optional task tool plainly when not asked', async () => {
    t = await startKernel(stdioTasks());
    const statuses: TaskSnapshot[] = [];
    const { result } = await t.kernel.call({
      serverId: 'tasks',
      toolName: 'count_slowly',
      args: { to: 2, step_ms: 10 },
    });
    assert.equal(textOf(result), 'Counted to 2.');
    assert.equal(statuses.length, 0);
  });

  it('refuses a task of a server that does not run tool tasks', async () => {
    t = await startKernel(
      `[[servers]]\nid = "everything"\ncommand = ${node}\nargs = [${everythingServer}, "stdio"]\n`,
    );
    await assert.rejects(
      t.kernel.call({
        serverId: 'everything',
        toolName: 'echo',
        args: { message: 'hi' },
        task: {},
      }),
      (error: unknown) =>
        error instanceof KernelError &&
        error.code === 'Unsupported' &&
        /echo cannot run as a task/.test(error.message),
    );
  });

  it('asks for approval before it creates the task: a refusal creates none', async () => {
    t = await startKernel(`[kernel]\nmoderate_tools_require_approval = true\n${stdioTasks('')}`);
    t.operator.toolAnswers = ['deny'];
    await assert.rejects(
      t.kernel.tasks.run({ serverId: 'tasks', toolName: 'write_report', args: { to: 2 } }).created,
    );
    assert.equal(t.operator.count('tool'), 1);
    assert.deepEqual((await t.kernel.manager.get('tasks').session().listTasks()).tasks, []);
  });

  it('cancels a task with tasks/cancel', async () => {
    t = await startKernel(stdioTasks());
    const run = t.kernel.tasks.run({
      serverId: 'tasks',
      toolName: 'count_slowly',
      args: { to: 1000, step_ms: 50 },
    });
    const created = await run.created;
    assert.equal(t.kernel.tasks.get('tasks', created.taskId)?.task.status, 'working');
    await t.kernel.tasks.cancel('tasks', created.taskId);
    await assert.rejects(
      run.outcome,
      (error: unknown) => error instanceof KernelError && error.code === 'Cancelled',
    );
    const onServer = await t.kernel.manager.get('tasks').session().getTask(created.taskId);
    assert.equal(onServer.status, 'cancelled');
    assert.equal(t.kernel.tasks.get('tasks', created.taskId)?.task.status, 'cancelled');
    // Ended, it is still kept across a restart, for its tool's name.
    assert.deepEqual(t.kernel.tasks.keptIds(), {
      tasks: [{ taskId: created.taskId, toolName: 'count_slowly' }],
    });
  });

  it('the Run Tool form runs a tool as a task through the board, and its Cancel cancels the task', async () => {
    t = await startKernel(stdioTasks());
    const kernel = t.kernel;
    const posted: RunToWebview[] = [];
    const runs = new ToolRuns({
      kernel,
      post: (message) => posted.push(message),
      images: false,
      showStreams: () => undefined,
      runAsTask: (request) => kernel.tasks.run(request),
    });
    try {
      const entry = findTool(kernel, { serverId: 'tasks', toolName: 'count_slowly' })!;
      assert.equal(viewOf(kernel, entry).taskSupport, 'optional');
      const key = { serverId: 'tasks', toolName: 'count_slowly' };
      runs.handle({
        type: 'run',
        runId: 1,
        ...key,
        args: { to: 2, step_ms: 20 },
        stream: false,
        task: true,
      });
      const ended = await eventuallyValue(
        () => posted.find((m) => m.type === 'runResult' || m.type === 'runError'),
        'the run to end',
      );
      assert.equal(ended.type, 'runResult', JSON.stringify(ended));
      if (ended.type === 'runResult')
        assert.deepEqual(ended.result.items, [{ kind: 'text', text: 'Counted to 2.' }]);
      const [onBoard] = kernel.tasks.list();
      assert.equal(onBoard?.task.status, 'completed', 'the task is on the board (the Tasks view)');
      assert.ok(
        posted.some(
          (m) => m.type === 'runProgress' && m.progress.message?.includes(onBoard.taskId),
        ),
      );

      runs.handle({
        type: 'run',
        runId: 2,
        ...key,
        args: { to: 1000, step_ms: 50 },
        stream: false,
        task: true,
      });
      const running = await eventuallyValue(
        () => kernel.tasks.list().find((x) => x.taskId !== onBoard.taskId),
        'the second task',
      );
      runs.handle({ type: 'cancelRun', runId: 2 });
      await eventuallyValue(
        () => posted.find((m) => m.type === 'runError' && m.runId === 2),
        'the cancelled run to end',
      );
      const onServer = await kernel.manager.get('tasks').session().getTask(running.taskId);
      assert.equal(onServer.status, 'cancelled');
    } finally {
      runs.dispose();
    }
  });

  it("checks an adopted task's result against the tool's outputSchema, as a direct call's", async () => {
    t = await startKernel(
      `[[servers]]\nid = "broken"\ncommand = ${node}\nargs = [${fixtureServer('task-tools.js')}]\napproved_tools = ["broken_count"]\n`,
    );
    const direct = await t.kernel.tasks.run({
      serverId: 'broken',
      toolName: 'broken_count',
      args: { ms: 10 },
    }).outcome;
    const mismatch = direct.result.outputSchemaMismatch;
    assert.ok(mismatch, 'a direct call marks the result');
    const connection = t.kernel.manager.get('broken').session();
    const tool = t.kernel.manager.get('broken').tools.find((x) => x.name === 'broken_count')!;
    // Tasks the board did not start (as after a reload): one still running, one ended.
    const startOutside = (ms: number) =>
      new Promise<string>((resolve, reject) => {
        connection
          .callTool(tool, { ms }, { task: { onStatus: (task) => resolve(task.taskId) } })
          .catch(reject);
      });
    const running = await startOutside(1500);
    const ended = await startOutside(0);
    await eventually(
      async () => (await connection.getTask(ended)).status === 'completed',
      'the second task to end',
    );
    await t.kernel.tasks.adopt('broken', [
      { taskId: running, toolName: 'broken_count' },
      { taskId: ended, toolName: 'broken_count' },
    ]);
    assert.equal(t.kernel.tasks.get('broken', running)?.task.status, 'working');
    // The board follows the running one to its end; the ended one's result comes from tasks/result.
    const followed = await eventuallyValue(
      () => t!.kernel.tasks.get('broken', running)?.result,
      'the followed result',
    );
    for (const result of [followed, await t.kernel.tasks.result('broken', ended)]) {
      assert.deepEqual(result.outputSchemaMismatch, mismatch);
      assert.equal(textOf(result), textOf(direct.result));
    }
    // The calls that started them never reach the audit: each ended task is recorded on its own.
    const endedTasks = async () =>
      (await t!.records()).filter((r) => r.event_type === 'dev.mgp-kernel.task_result');
    await eventually(async () => (await endedTasks()).length === 2, 'both tasks in the audit');
    const recorded = await endedTasks();
    assert.deepEqual(recorded.map((r) => r.details.task_id).sort(), [running, ended].sort());
    for (const record of recorded) {
      assert.deepEqual(record.target, { server_id: 'broken', tool_name: 'broken_count' });
      assert.equal(record.result, 'SUCCESS');
      assert.equal(record.details.output_schema_mismatch, true);
    }
  });

  /**
   * Runs count_slowly as a task on a kernel over the HTTP task server (whose tasks outlive sessions),
   * lets `before` decide when to stop that kernel, then starts a second kernel on the same state
   * folder, as a window reload does, and hands it the ids the first kept.
   */
  async function acrossRestart(
    args: { to: number; step_ms: number },
    before: (run: ReturnType<TestKernel['kernel']['tasks']['run']>) => Promise<void>,
    after: (second: TestKernel, taskId: string, kept: KeptTask[] | undefined) => Promise<void>,
  ): Promise<void> {
    const { url, child } = await startHttpTaskServer();
    const dir = mkdtempSync(join(tmpdir(), 'mgp-kernel-'));
    const toml = `[[servers]]\nid = "tasks"\ntransport = "http"\nurl = "${url}"\n${APPROVED}`;
    try {
      const first = await startKernel(toml, { dir });
      const run = first.kernel.tasks.run({ serverId: 'tasks', toolName: 'count_slowly', args });
      const { taskId } = await run.created;
      await before(run);
      const kept = first.kernel.tasks.keptIds().tasks;
      await first.stop();
      const second = await startKernel(toml, { dir });
      t = second;
      await second.kernel.tasks.adopt('tasks', kept ?? []);
      await after(second, taskId, kept);
    } finally {
      child.kill();
    }
  }

  it('picks up a running task after a restart, from the ids kept (Streamable HTTP)', async () => {
    await acrossRestart(
      { to: 15, step_ms: 100 },
      async (run) => void run.outcome.catch(() => undefined),
      async (second, taskId, kept) => {
        assert.deepEqual(kept, [{ taskId, toolName: 'count_slowly' }]);
        const adopted = second.kernel.tasks.get('tasks', taskId);
        assert.ok(adopted, 'the task is on the board again');
        assert.equal(adopted.toolName, 'count_slowly', 'with the tool it runs');
        // Followed to its end if it was still running; its result from the server either way.
        assert.equal(textOf(await second.kernel.tasks.result('tasks', taskId)), 'Counted to 15.');
        await eventually(() => adopted.task.status === 'completed', 'the adopted task to end');
        // tasks/list finds it too (the example server's tasks outlive sessions).
        await second.kernel.tasks.refresh();
        assert.equal(second.kernel.tasks.list().length, 1);
      },
    );
  });

  it('an ended task keeps its tool name after a restart, which tasks/list alone cannot give', async () => {
    await acrossRestart(
      { to: 2, step_ms: 10 },
      async (run) => void (await run.outcome),
      async (second, taskId) => {
        await second.kernel.tasks.refresh();
        const adopted = second.kernel.tasks.get('tasks', taskId);
        assert.equal(adopted?.task.status, 'completed');
        assert.equal(adopted?.toolName, 'count_slowly');
        assert.equal(textOf(await second.kernel.tasks.result('tasks', taskId)), 'Counted to 2.');
      },
    );
  });
});
