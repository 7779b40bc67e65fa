import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { repoRoot } from '../repoRoot';
import { eventually, startKernel, textOf, type TestKernel } from './support/kernelHarness';

// Delegation to external A2A agents through the kernel's pipeline: agents built on the official
// SDK's server classes (`@a2a-js/sdk`, A2A 1.0 and its 0.3 compat module) and an agent that speaks
// OpenFang's dialect, each a real HTTP server on loopback.

interface SdkAgent {
  url: string;
  messages: { text: string; taskId: string; contextId: string; existing: boolean }[];
  headers: { path: string; headers: Record<string, string | undefined> }[];
  methods: string[];
  cancelled: string[];
  close(): Promise<void>;
}

type Behaviour = 'echo' | 'ask' | 'forever' | 'inject' | 'file';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSdkAgent } = require(join(repoRoot(), 'test/fixtures/a2a/sdkAgent.js')) as {
  startSdkAgent(options: {
    protocol?: '1.0' | '0.3';
    behaviour?: Behaviour;
    streaming?: boolean;
    token?: string;
  }): Promise<SdkAgent>;
};

function agentToml(name: string, url: string, extra = ''): string {
  return `[[a2a.external_agents]]\nname = "${name}"\nurl = "${url}"\n${extra}`;
}

describe('A2A delegation through the pipeline (SDK agents, both protocol versions)', function () {
  let agent: SdkAgent | undefined;
  let kernel: TestKernel | undefined;

  afterEach(async () => {
    await kernel?.dispose();
    await agent?.close();
    kernel = undefined;
    agent = undefined;
  });

  const start = async (
    options: Parameters<typeof startSdkAgent>[0],
    extra = '',
    secrets?: Record<string, string>,
  ) => {
    agent = await startSdkAgent(options);
    kernel = await startKernel(agentToml('helper', agent.url, extra), { secrets });
    await eventually(
      () => kernel?.kernel.manager.find('a2a.helper')?.state === 'connected',
      'the agent connected',
    );
    return { agent, kernel };
  };

  for (const protocol of ['1.0', '0.3'] as const)
    for (const streaming of [false, true])
      it(`A2A ${protocol}${streaming ? ', streamed' : ', polled'}: approval asked, message sent, artifacts back, audit with the task id`, async () => {
        const { agent, kernel } = await start({ protocol, streaming });
        const card = kernel.kernel.a2a.cardOf('a2a.helper');
        assert.equal(card?.dialect, protocol === '1.0' ? 'a2a-1.0' : 'a2a-0.3');
        assert.equal(card?.streaming, streaming);
        kernel.operator.toolAnswers = ['once'];
        const outcome = await kernel.kernel.call({
          serverId: 'a2a.helper',
          toolName: 'delegate',
          args: { message: 'hello there' },
        });
        assert.equal(kernel.operator.count('tool'), 1, 'the person was asked before sending');
        assert.equal(outcome.result.isError, false, textOf(outcome.result));
        assert.match(textOf(outcome.result), /echo: hello there/);
        assert.match(textOf(outcome.result), /"length": 11/);
        assert.deepEqual(
          agent.messages.map((m) => m.text),
          ['hello there'],
        );
        const sent =
          protocol === '1.0'
            ? ['SendMessage', 'SendStreamingMessage']
            : ['message/send', 'message/stream'];
        assert.equal(
          agent.methods[0],
          sent[streaming ? 1 : 0],
          `the agent was spoken to in A2A ${protocol}`,
        );
        const taskId = agent.messages[0].taskId;
        const executed = await kernel.ofType('TOOL_EXECUTED');
        assert.equal(executed.length, 1);
        const a2a = (executed[0].details as { a2a?: Record<string, unknown> }).a2a;
        assert.equal(a2a?.task_id, taskId);
        assert.equal(a2a?.state, 'completed');
        assert.equal(a2a?.agent, 'helper');
        assert.equal(executed[0].target?.server_id, 'a2a.helper');
        assert.equal(kernel.kernel.a2a.taskOf('a2a.helper', taskId)?.task.state, 'completed');
      });

  it('a refusal sends nothing to the agent and is audited', async () => {
    const { agent, kernel } = await start({ protocol: '1.0' });
    kernel.operator.toolAnswers = ['deny'];
    await assert.rejects(
      kernel.kernel.call({ serverId: 'a2a.helper', toolName: 'delegate', args: { message: 'x' } }),
    );
    assert.deepEqual(agent.messages, []);
    assert.equal((await kernel.ofType('TOOL_BLOCKED')).length, 1);
  });

  it('input-required comes back as a question; the answer continues the same task', async () => {
    const { agent, kernel } = await start(
      { protocol: '1.0', behaviour: 'ask' },
      'risk_level = "safe"\n',
    );
    const first = await kernel.kernel.call({
      serverId: 'a2a.helper',
      toolName: 'delegate',
      args: { message: 'weather please' },
    });
    assert.equal(first.result.isError, false);
    assert.match(textOf(first.result), /needs more input/);
    assert.match(textOf(first.result), /Which city\?/);
    assert.equal(agent.messages.length, 1, 'the kernel did not answer on its own');
    const taskId = agent.messages[0].taskId;
    assert.match(textOf(first.result), new RegExp(`task_id "${taskId}"`));
    const second = await kernel.kernel.call({
      serverId: 'a2a.helper',
      toolName: 'delegate',
      args: { message: 'Lisbon', task_id: taskId },
    });
    assert.match(textOf(second.result), /weather in Lisbon: sunny/);
    assert.equal(agent.messages[1].taskId, taskId);
    assert.equal(agent.messages[1].existing, true);
  });

  it('cancelling the call cancels the remote task', async () => {
    const { agent, kernel } = await start(
      { protocol: '1.0', behaviour: 'forever' },
      'risk_level = "safe"\n',
    );
    const controller = new AbortController();
    const call = kernel.kernel.call({
      serverId: 'a2a.helper',
      toolName: 'delegate',
      args: { message: 'work forever' },
      signal: controller.signal,
    });
    await eventually(() => agent.messages.length === 1, 'the agent got the message');
    await eventually(
      () => kernel.kernel.a2a.tasksOf('a2a.helper').length === 1,
      'the kernel saw the task',
    );
    controller.abort();
    await assert.rejects(call);
    await eventually(() => agent.cancelled.length === 1, 'the remote task was cancelled');
    assert.equal(agent.cancelled[0], agent.messages[0].taskId);
  });

  it('a task that never ends is cancelled at the agent timeout, and says so', async () => {
    const { agent, kernel } = await start(
      { protocol: '0.3', behaviour: 'forever' },
      'risk_level = "safe"\ntimeout_secs = 1\n',
    );
    const outcome = await kernel.kernel.call({
      serverId: 'a2a.helper',
      toolName: 'delegate',
      args: { message: 'never ends' },
    });
    assert.equal(outcome.result.isError, true);
    assert.match(textOf(outcome.result), /timed out/);
    assert.deepEqual(agent.cancelled, [agent.messages[0].taskId]);
    const executed = await kernel.ofType('TOOL_EXECUTED');
    const a2a = (executed[0].details as { a2a?: Record<string, unknown> }).a2a;
    assert.equal(a2a?.timed_out, true);
  });

  it('the bearer key from secret storage reaches the agent, and only its origin', async () => {
    const { agent, kernel } = await start(
      { protocol: '1.0', token: 'agent-key-1234567890abcdef' },
      'api_key = "${secret:HELPER_KEY}"\nrisk_level = "safe"\n',
      { HELPER_KEY: 'agent-key-1234567890abcdef' },
    );
    const outcome = await kernel.kernel.call({
      serverId: 'a2a.helper',
      toolName: 'delegate',
      args: { message: 'with key' },
    });
    assert.equal(outcome.result.isError, false, textOf(outcome.result));
    const rpc = agent.headers.filter((h) => h.path.startsWith('/a2a'));
    assert.ok(rpc.length > 0);
    for (const request of agent.headers) {
      assert.equal(request.headers.authorization, 'Bearer agent-key-1234567890abcdef');
      assert.match(request.headers['user-agent'] ?? '', /^MGP-Kernel\/.* A2A$/);
    }
    const log = JSON.stringify(await kernel.records());
    assert.ok(!log.includes('agent-key-1234567890abcdef'), 'the key is not in the audit log');
  });

  it('files and data come back as MCP content', async () => {
    const { kernel } = await start({ protocol: '1.0', behaviour: 'file' }, 'risk_level = "safe"\n');
    const outcome = await kernel.kernel.call({
      serverId: 'a2a.helper',
      toolName: 'delegate',
      args: { message: 'report' },
    });
    const resource = outcome.result.content.find((c) => c.type === 'resource');
    assert.ok(resource && resource.type === 'resource' && 'blob' in resource.resource);
    assert.equal(Buffer.from(String(resource.resource.blob), 'base64').toString(), 'report body');
    assert.equal(resource.resource.mimeType, 'text/plain');
    assert.match(textOf(outcome.result), /"rows": 3/);
  });
});

interface OpenFangAgent {
  url: string;
  requests: { method: string; path: string; headers: Record<string, string>; body?: unknown }[];
  cancelled: string[];
  close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startOpenFangAgent } = require(join(repoRoot(), 'test/fixtures/a2a/openfangAgent.js')) as {
  startOpenFangAgent(options: { behaviour?: 'echo' | 'slow' | 'forever' }): Promise<OpenFangAgent>;
};

describe("A2A delegation to an agent that speaks OpenFang's dialect", function () {
  let agent: OpenFangAgent | undefined;
  let kernel: TestKernel | undefined;

  afterEach(async () => {
    await kernel?.dispose();
    await agent?.close();
    kernel = undefined;
    agent = undefined;
  });

  const start = async (behaviour: 'echo' | 'slow' | 'forever', extra = '') => {
    agent = await startOpenFangAgent({ behaviour });
    kernel = await startKernel(agentToml('reviewer', agent.url, `risk_level = "safe"\n${extra}`));
    await eventually(
      () => kernel?.kernel.manager.find('a2a.reviewer')?.state === 'connected',
      'the agent connected',
    );
    return { agent, kernel };
  };

  it('reads agent.json, sends tasks/send with a sessionId, and returns the reply', async () => {
    const { agent, kernel } = await start('echo');
    assert.equal(kernel.kernel.a2a.cardOf('a2a.reviewer')?.dialect, 'openfang');
    const outcome = await kernel.kernel.call({
      serverId: 'a2a.reviewer',
      toolName: 'delegate',
      args: { message: 'check this diff' },
    });
    assert.equal(outcome.result.isError, false, textOf(outcome.result));
    assert.match(textOf(outcome.result), /reviewed: check this diff/);
    const sent = agent.requests.find((r) => r.path === '/a2a/tasks/send');
    const body = sent?.body as { method: string; params: { sessionId?: string; message: unknown } };
    assert.equal(body.method, 'tasks/send');
    assert.equal(typeof body.params.sessionId, 'string');
    assert.deepEqual(body.params.message, {
      role: 'user',
      parts: [{ type: 'text', text: 'check this diff' }],
    });
    const [executed] = await kernel.ofType('TOOL_EXECUTED');
    const a2a = (executed.details as { a2a?: Record<string, unknown> }).a2a;
    assert.equal(a2a?.dialect, 'openfang');
    assert.equal(a2a?.state, 'completed');
    assert.equal(typeof a2a?.task_id, 'string');
  });

  it('polls GET /a2a/tasks/{id} until the task completes, artifacts included', async () => {
    const { agent, kernel } = await start('slow');
    const outcome = await kernel.kernel.call({
      serverId: 'a2a.reviewer',
      toolName: 'delegate',
      args: { message: 'take your time' },
    });
    assert.match(textOf(outcome.result), /slowly reviewed/);
    assert.match(textOf(outcome.result), /"issues": 2/);
    assert.ok(
      agent.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/a2a/tasks/')).length >=
        2,
    );
  });

  it('cancels with POST /a2a/tasks/{id}/cancel, and reads a task with get_task', async () => {
    const { agent, kernel } = await start('forever', 'timeout_secs = 1\n');
    const outcome = await kernel.kernel.call({
      serverId: 'a2a.reviewer',
      toolName: 'delegate',
      args: { message: 'forever' },
    });
    assert.equal(outcome.result.isError, true);
    assert.equal(agent.cancelled.length, 1);
    const read = await kernel.kernel.call({
      serverId: 'a2a.reviewer',
      toolName: 'get_task',
      args: { task_id: agent.cancelled[0] },
    });
    assert.match(textOf(read.result), /ended canceled/);
    await assert.rejects(
      kernel.kernel.call({
        serverId: 'a2a.reviewer',
        toolName: 'get_task',
        args: { task_id: 'no-such-task' },
      }),
      /does not know this task \(404\)/,
    );
  });
});
