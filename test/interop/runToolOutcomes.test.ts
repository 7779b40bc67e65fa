import { strict as assert } from 'node:assert';
import type { RunToWebview } from '@shared/toolPanelMessages';
import { ToolRuns, type EndedRun } from '../../client/src/vscode/runTool/toolRuns';
import { exampleServer, node, startKernel, TestKernel } from './support/kernelHarness';

const example = (extra = '') =>
  `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${exampleServer}]\n${extra}`;

/**
 * The Run Tool panel's host side against the real example server: what each kind of ending posts to
 * the webview (result, the server's own error, the kernel's block), with the raw exchange and trace.
 */
describe('Run Tool outcomes with a real server', function () {
  let t: TestKernel;
  let runs: ToolRuns;
  let posted: RunToWebview[];
  let ended: EndedRun[];
  let onEnded: ((run: EndedRun) => void) | undefined;
  let nextRunId = 1;
  afterEach(async () => {
    runs?.dispose();
    await t?.dispose();
  });

  async function start(extra = '') {
    t = await startKernel(example(extra));
    posted = [];
    ended = [];
    runs = new ToolRuns({
      kernel: t.kernel,
      post: (message) => posted.push(message),
      images: true,
      showStreams: () => undefined,
      onEnded: (run) => {
        ended.push(run);
        onEnded?.(run);
      },
    });
  }

  /** Runs a tool as the panel does and waits for its ending message. */
  async function run(toolName: string, args: Record<string, unknown>) {
    const runId = nextRunId++;
    const done = new Promise<EndedRun>((resolve) => (onEnded = resolve));
    runs.handle({ type: 'run', runId, serverId: 'example', toolName, args, stream: false });
    const record = await done;
    const end = posted.find(
      (m) => (m.type === 'runResult' || m.type === 'runError') && m.runId === runId,
    );
    assert.ok(end, 'the ending was posted');
    return { end, record };
  }

  it('a result comes with the tools/call params as sent (trace id in _mgp) and the result as JSON', async () => {
    await start();
    const { end, record } = await run('add', { a: 2, b: 3 });
    assert.equal(end.type, 'runResult');
    if (end.type !== 'runResult') return;
    assert.equal(end.result.block, undefined);
    const request = JSON.parse(end.exchange?.request ?? 'null');
    assert.equal(request.name, 'add');
    assert.deepEqual(request.arguments, { a: 2, b: 3 });
    assert.equal(request._mgp.trace_id, end.result.traceId, 'MGP §6.5: the trace id went out');
    assert.deepEqual(JSON.parse(end.exchange?.response ?? 'null').structuredContent, { sum: 5 });
    assert.deepEqual(record.args, { a: 2, b: 3 });
    assert.equal(record.traceId, end.result.traceId);
  });

  it("the server's own JSON-RPC error is not a kernel block; its error object is the response", async () => {
    await start();
    const { end } = await run('broken', {});
    assert.equal(end.type, 'runError');
    if (end.type !== 'runError') return;
    assert.equal(end.error.code, 5000);
    assert.equal(end.error.block, undefined, 'the server refused, not the kernel');
    assert.ok(end.exchange?.request, 'the call was sent');
    assert.equal(JSON.parse(end.exchange?.response ?? 'null').error.code, 5000);
  });

  it('a validator block names the check and why, was never sent, and its trace is in the audit trail', async () => {
    await start(`approved_tools = ["run_command"]\n`);
    const { end, record } = await run('run_command', { command: 'rm -rf /' });
    assert.equal(end.type, 'runError');
    if (end.type !== 'runError') return;
    assert.equal(end.error.code, 1010);
    assert.equal(end.error.block?.check, 'Kernel validators');
    assert.match(end.error.block?.why ?? '', /validators blocked/);
    assert.equal(end.exchange?.request, undefined, 'nothing reached the server');
    assert.equal(JSON.parse(end.exchange?.response ?? 'null').error.code, 1010);
    assert.ok(end.traceId);
    assert.equal(record.error?.block?.check, 'Kernel validators');
    const blocked = (await t.ofType('TOOL_BLOCKED')).at(-1);
    assert.equal(blocked?.trace_id, end.traceId, 'the trace link finds the block');
  });

  it('a denied approval is a block by "Approval"', async () => {
    await start();
    t.operator.toolAnswers = ['deny'];
    const { end } = await run('delete_notes', {});
    assert.equal(end.type, 'runError');
    if (end.type !== 'runError') return;
    assert.equal(end.error.code, 1000);
    assert.equal(end.error.block?.check, 'Approval');
  });

  it("a tool the person turned off runs into the kernel's TOOL_DISABLED block, audited", async () => {
    await start();
    await t.kernel.switchboard.setTool('example', 'add', false);
    const { end, record } = await run('add', { a: 2, b: 3 });
    assert.equal(end.type, 'runError');
    if (end.type !== 'runError') return;
    assert.equal(end.error.code, 4002, 'TOOL_DISABLED (MGP §14.3)');
    assert.equal(end.error.block?.check, 'Your switch for this tool');
    assert.match(end.error.block?.why ?? '', /example\.add is turned off/);
    assert.equal(end.exchange?.request, undefined, 'nothing reached the server');
    assert.equal(record.error?.block?.check, 'Your switch for this tool');
    const blocked = (await t.ofType('TOOL_BLOCKED')).at(-1);
    assert.equal(blocked?.trace_id, end.traceId, 'the refusal is in the audit trail');
  });

  it("a code-safety rejection the kernel answers itself is a block, with the rejection's violations", async () => {
    await start(`approved_tools = ["run_code"]\n`);
    const { end } = await run('run_code', { code: "require('child_process').execSync('id')" });
    assert.equal(end.type, 'runResult');
    if (end.type !== 'runResult') return;
    assert.equal(end.result.block?.check, 'Code safety');
    assert.match(end.result.block?.why ?? '', /child_process/);
    assert.equal(end.exchange?.request, undefined, 'nothing reached the server');
  });
});
