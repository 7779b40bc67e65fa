import { strict as assert } from 'node:assert';
import { OpenAiCompatibleProvider } from '../../client/src/kernel/llm/openAiCompatible';
import type { DeliveredEvent } from '../../client/src/kernel/bidirectional/eventHub';
import {
  eventually,
  exampleServer,
  node,
  startKernel,
  startScriptedModel,
  TestKernel,
  textOf,
} from './support/kernelHarness';

const example = (extra = '') =>
  `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${exampleServer}]\n${extra}`;

describe('kernel communication with real servers (MGP §12, §13, §15.4, §16)', function () {
  let t: TestKernel;
  afterEach(async () => t?.dispose());

  describe('streaming (§12)', () => {
    it('assembles chunks in order, reports progress, and sees the final _mgp.streamed', async () => {
      t = await startKernel(example());
      const pieces: string[] = [];
      t.kernel.streams.on('text', (e) => pieces.push(e.appended));
      const { stream, outcome } = t.kernel.stream({
        serverId: 'example',
        toolName: 'stream_text',
        args: { text: 'one two three four five six', delay_ms: 5 },
      });
      const result = await outcome;
      assert.equal(textOf(result.result).trim(), 'one two three four five six');
      assert.equal(pieces.join('').trim(), 'one two three four five six');
      const snapshot = t.kernel.streams.get(stream.id)!.snapshot();
      assert.deepEqual(
        [snapshot.state, snapshot.confirmedStreamed, snapshot.chunks > 1],
        ['done', true, true],
      );
    });

    it('puts out-of-order and duplicate chunks right', async () => {
      t = await startKernel(example());
      const { stream, outcome } = t.kernel.stream({
        serverId: 'example',
        toolName: 'stream_text',
        args: { text: 'a b c d e f g h', delay_ms: 2, shuffle: true, duplicate: true },
      });
      await outcome;
      const snapshot = t.kernel.streams.get(stream.id)!.snapshot();
      assert.equal(snapshot.text.trim(), 'a b c d e f g h');
      assert.ok(snapshot.duplicates > 0, 'duplicates were seen and dropped');
      assert.ok(snapshot.outOfOrder > 0, 'out-of-order chunks were seen and reordered');
    });

    it('cancels mid-stream with mgp/stream/cancel and keeps the partial result', async () => {
      t = await startKernel(example());
      const { stream, outcome } = t.kernel.stream({
        serverId: 'example',
        toolName: 'stream_text',
        args: { words: 500, delay_ms: 20 },
      });
      await eventually(() => stream.assembler.contiguous >= 5, 'five chunks');
      const cancelled = await t.kernel.streams.cancel(stream.id);
      assert.equal(cancelled.cancelled, true);
      assert.ok(cancelled.partial.length > 0);
      const result = await outcome;
      assert.equal(t.kernel.streams.get(stream.id)!.state, 'cancelled');
      assert.ok(
        textOf(result.result).split(/\s+/).filter(Boolean).length < 500,
        'the whole text was not produced',
      );
    });
  });

  describe('callbacks (§13.4)', () => {
    for (const [type, answer, extra] of [
      ['confirmation', 'confirm', {}],
      ['input', 'forty-two', {}],
      ['selection', 'green', { options: ['red', 'green'] }],
    ] as const) {
      it(`${type}: the operator's answer goes back with mgp/callback/respond`, async () => {
        t = await startKernel(example());
        t.operator.callbackAnswers = [answer];
        const result = await t.kernel.call({
          serverId: 'example',
          toolName: 'ask_user',
          args: { type, message: 'Your answer?', ...extra },
        });
        assert.deepEqual(result.result.structuredContent, { response: answer });
        assert.equal(t.operator.count(`callback:${type}`), 1);
      });
    }

    it('notification: shown, nothing sent back', async () => {
      t = await startKernel(example());
      const result = await t.kernel.call({
        serverId: 'example',
        toolName: 'ask_user',
        args: { type: 'notification', message: 'FYI' },
      });
      assert.equal((result.result.structuredContent as { notified: boolean }).notified, true);
      await eventually(
        () => t.operator.count('callback:notification') === 1,
        'the notification shown',
      );
    });

    it('honours timeout_ms: the question closes and the server times out', async () => {
      t = await startKernel(example());
      t.operator.callbackAnswers = ['<wait>'];
      const result = await t.kernel.call({
        serverId: 'example',
        toolName: 'ask_user',
        args: { type: 'input', message: 'too slow', timeout_ms: 300 },
      });
      assert.deepEqual(result.result.structuredContent, { timed_out: true });
    });

    it('llm_completion goes to the model provider (a scripted model over loopback HTTP), audited', async () => {
      const model = await startScriptedModel({
        rules: [{ match: 'capital of France', reply: 'Paris.' }],
        apiKey: 'sk-test-key-123',
      });
      try {
        t = await startKernel(example(), {
          configure: (kernel) =>
            kernel.models.setProviders([
              new OpenAiCompatibleProvider({
                baseUrl: model.url,
                model: 'scripted',
                apiKey: 'sk-test-key-123',
              }),
            ]),
        });
        const result = await t.kernel.call({
          serverId: 'example',
          toolName: 'ask_user',
          args: { type: 'llm_completion', message: 'What is the capital of France?' },
        });
        assert.equal(textOf(result.result), 'Paris.');
        assert.equal(model.requests.length, 1);
        assert.equal(t.operator.count('sampling'), 1, 'the operator reviewed the request');
        const audited = await t.ofType('dev.mgp-kernel.llm_completion');
        assert.equal(audited[0].result, 'SUCCESS');
        assert.ok(!JSON.stringify(await t.records()).includes('sk-test-key-123'));
      } finally {
        await model.close();
      }
    });

    it('llm_completion offers the request’s tools to the model and answers its tool calls (§13.4)', async () => {
      const model = await startScriptedModel({
        turns: [{ tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }],
      });
      try {
        t = await startKernel(example(), {
          configure: (kernel) =>
            kernel.models.setProviders([
              new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
            ]),
        });
        const result = await t.kernel.call({
          serverId: 'example',
          toolName: 'ask_user',
          args: {
            type: 'llm_completion',
            message: 'What is the weather in Paris?',
            tools: [
              {
                name: 'get_weather',
                description: 'The weather in a city',
                input_schema: { type: 'object', properties: { city: { type: 'string' } } },
              },
            ],
          },
        });
        assert.deepEqual(
          model.requests[0].tools?.map((tool) => [tool.function.name, tool.function.parameters]),
          [['get_weather', { type: 'object', properties: { city: { type: 'string' } } }]],
        );
        const response = (
          result.result.structuredContent as {
            response: { tool_calls: { name: string; arguments: unknown; id: string }[] };
          }
        ).response;
        assert.deepEqual(
          response.tool_calls.map((call) => [call.name, call.arguments, typeof call.id]),
          [['get_weather', { city: 'Paris' }, 'string']],
        );
        assert.equal((await t.ofType('dev.mgp-kernel.llm_completion'))[0].result, 'SUCCESS');
      } finally {
        await model.close();
      }
    });

    it('llm_completion streams the answer as chunks, and stops when the server cancels (§13.4, §12)', async () => {
      const words = 'Paris is the capital of France and has been for a long time.';
      const model = await startScriptedModel({
        turns: [
          { content: words, chunkDelayMs: 5 },
          { content: words, chunkDelayMs: 200 },
        ],
      });
      try {
        t = await startKernel(example(), {
          configure: (kernel) =>
            kernel.models.setProviders([
              new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
            ]),
        });
        const streamed = await t.kernel.call({
          serverId: 'example',
          toolName: 'ask_user',
          args: { type: 'llm_completion', message: 'Where is Paris?', stream: true },
        });
        const whole = streamed.result.structuredContent as {
          chunks: string[];
          response: { content: string; _mgp: { streamed: boolean; chunks_sent: number } };
        };
        assert.ok(whole.chunks.length > 5, `chunks: ${JSON.stringify(whole.chunks)}`);
        assert.equal(whole.chunks.join(''), words, 'the chunks join into the answer');
        assert.equal(whole.response.content, words);
        assert.deepEqual(
          [whole.response._mgp.streamed, whole.response._mgp.chunks_sent],
          [true, whole.chunks.length],
        );

        const cancelled = await t.kernel.call({
          serverId: 'example',
          toolName: 'ask_user',
          args: {
            type: 'llm_completion',
            message: 'Where is Paris?',
            stream: true,
            cancel_after_chunks: 2,
          },
        });
        const partial = cancelled.result.structuredContent as {
          chunks: string[];
          cancel: { cancelled: boolean; partial_result: { content: { text: string }[] } };
        };
        assert.equal(partial.cancel.cancelled, true);
        assert.equal(partial.chunks.length, 2, 'no chunk after the cancel reached the server');
        assert.equal(partial.cancel.partial_result.content[0].text, partial.chunks.join(''));
        await eventually(() => model.aborted === 1, 'the model request was stopped');
        const audited = await t.ofType('dev.mgp-kernel.llm_completion');
        assert.deepEqual(
          audited.map((r) => [r.result, (r.details as { streamed?: boolean }).streamed]),
          [
            ['SUCCESS', true],
            ['CANCELLED', true],
          ],
        );
      } finally {
        await model.close();
      }
    });

    it('llm_completion is refused when access control denies the server', async () => {
      t = await startKernel(example());
      await t.kernel.access.grant(
        {
          entry_type: 'tool_grant',
          agent_id: 'server.example',
          server_id: 'mgp',
          tool_name: 'llm_completion',
          permission: 'deny',
        },
        'test',
      );
      const result = await t.kernel.call({
        serverId: 'example',
        toolName: 'ask_user',
        args: { type: 'llm_completion', message: 'hi', timeout_ms: 2000 },
      });
      assert.match(textOf(result.result), /error|access/i);
      assert.equal((await t.ofType('dev.mgp-kernel.llm_completion'))[0].result, 'DENIED');
    });
  });

  describe('events (§13.2–13.3)', () => {
    it('delivers subscribed channels at or above min_severity, stamped with the subscription id', async () => {
      t = await startKernel(example());
      const subscribe = await t.kernel.call({
        serverId: 'mgp',
        toolName: 'mgp.events.subscribe',
        args: { channels: ['security.*', 'weather.report'], filter: { min_severity: 'warning' } },
      });
      const answer = subscribe.result.structuredContent as {
        subscription_id: string;
        subscribed: string[];
        unsupported: string[];
      };
      assert.deepEqual(
        [answer.subscribed, answer.unsupported],
        [['security.*'], ['weather.report']],
      );
      const delivered: DeliveredEvent[] = [];
      t.kernel.events.listen(answer.subscription_id, (e) => delivered.push(e));
      await t.kernel.call({
        serverId: 'example',
        toolName: 'emit_event',
        args: { channel: 'security.alert', severity: 'info', data: { n: 1 } },
      });
      await t.kernel.call({
        serverId: 'example',
        toolName: 'emit_event',
        args: { channel: 'security.alert', severity: 'error', data: { n: 2 } },
      });
      await t.kernel.call({
        serverId: 'example',
        toolName: 'emit_event',
        args: { channel: 'system.heartbeat', severity: 'error', data: { n: 3 } },
      });
      await eventually(() => delivered.length >= 1, 'a delivery');
      assert.deepEqual(
        delivered.map((e) => [e.channel, (e.data as { n: number }).n, e.subscription_id]),
        [['security.alert', 2, answer.subscription_id]],
      );
      await t.kernel.call({
        serverId: 'mgp',
        toolName: 'mgp.events.unsubscribe',
        args: { subscription_id: answer.subscription_id },
      });
      await t.kernel.call({
        serverId: 'example',
        toolName: 'emit_event',
        args: { channel: 'security.alert', severity: 'error', data: { n: 4 } },
      });
      assert.equal(delivered.length, 1);
    });
  });

  describe('runtime discovery (§15.4)', () => {
    it('registers a server after the operator approves it, sandboxed, lists it, and deregisters it', async () => {
      t = await startKernel('');
      const registered = await t.kernel.call({
        serverId: 'mgp',
        toolName: 'mgp.discovery.register',
        args: {
          id: 'runtime-example',
          command: process.execPath,
          args: [JSON.parse(exampleServer)],
          transport: 'stdio',
          created_by: 'agent.builder',
          justification: 'needs notes',
        },
      });
      assert.equal(t.operator.count('registration'), 1);
      assert.equal(
        (registered.result.structuredContent as { trust_level: string }).trust_level,
        'sandboxed',
      );
      const server = t.kernel.manager.get('runtime-example');
      assert.equal(server.state, 'connected');
      assert.equal(t.kernel.permissions.state('runtime-example', 'shell.execute'), undefined);
      const permissions = (await t.ofType('PERMISSION_DENIED'))
        .filter((r) => r.target.server_id === 'runtime-example')
        .map((r) => r.details.permission);
      assert.ok(
        permissions.includes('shell.execute') && permissions.includes('code_execution'),
        `sandboxed: dangerous permissions denied (${permissions.join(', ')})`,
      );
      const list = await t.kernel.call({
        serverId: 'mgp',
        toolName: 'mgp.discovery.list',
        args: { filter: { status: 'connected' } },
      });
      assert.ok(
        (
          list.result.structuredContent as { servers: { id: string; origin: string }[] }
        ).servers.some((s) => s.id === 'runtime-example' && s.origin === 'runtime'),
      );
      await t.kernel.call({
        serverId: 'mgp',
        toolName: 'mgp.discovery.deregister',
        args: { id: 'runtime-example', reason: 'done' },
      });
      assert.equal(t.kernel.manager.find('runtime-example'), undefined);
    });

    it('refuses a registration the operator declines', async () => {
      t = await startKernel('');
      t.operator.registrationAnswer = false;
      await assert.rejects(
        t.kernel.call({
          serverId: 'mgp',
          toolName: 'mgp.discovery.register',
          args: { id: 'nope', command: 'node', transport: 'stdio' },
        }),
        /declined/,
      );
      assert.equal(t.kernel.manager.find('nope'), undefined);
    });

    it('refuses a command that climbs out with ".." or a cloud metadata URL, before asking anyone', async () => {
      t = await startKernel('');
      const register = (id: string, command: string, transport: string) =>
        t.kernel.call({
          serverId: 'mgp',
          toolName: 'mgp.discovery.register',
          args: { id, command, transport },
        });
      await assert.rejects(
        register('climber', '../../bin/sh', 'stdio'),
        /contains "\.\.": refused/,
      );
      for (const url of ['http://169.254.169.254/mcp', 'http://[fd00:ec2::254]/mcp'])
        await assert.rejects(
          register(`meta-${url.length}`, url, 'http'),
          /metadata endpoint: refused/,
        );
      assert.equal(t.operator.count('registration'), 0, 'nobody is asked about what is refused');
      for (const server of t.kernel.manager.list()) assert.notEqual(server.state, 'connected');
    });
  });

  describe('dynamic tool discovery (§16)', () => {
    it('finds tools of connected servers by intent, with full schemas, and follows servers going away', async () => {
      t = await startKernel(example());
      const found = await t.kernel.call({
        serverId: 'mgp',
        toolName: 'mgp.tools.discover',
        args: { query: 'add two numbers together', max_results: 3 },
      });
      const answer = found.result.structuredContent as {
        tools: { tool_id: string; inputSchema: unknown; relevance_score: number }[];
        total_available: number;
        query_time_ms: number;
      };
      assert.equal(answer.tools[0].tool_id, 'example.add');
      assert.ok(answer.tools[0].inputSchema);
      await t.kernel.manager.stop('example');
      const after = await t.kernel.call({
        serverId: 'mgp',
        toolName: 'mgp.tools.discover',
        args: { query: 'add two numbers together' },
      });
      assert.ok(
        !(after.result.structuredContent as { tools: { tool_id: string }[] }).tools.some(
          (tool) => tool.tool_id === 'example.add',
        ),
        "a disconnected server's tools are not offered",
      );
    });

    it('mgp.tools.request loads matching tools into the session, and never answers creating by default', async () => {
      t = await startKernel(example());
      const requested = await t.kernel.call({
        serverId: 'mgp',
        toolName: 'mgp.tools.request',
        args: {
          reason: 'capability_gap',
          context: 'I need to store a note for later',
          requirements: { capabilities: ['write a note'] },
        },
      });
      const answer = requested.result.structuredContent as {
        status: string;
        tools_loaded: { name: string }[];
        tools_pending_approval?: { name: string }[];
      };
      assert.notEqual(answer.status, 'creating');
      assert.ok(
        ['fulfilled', 'pending_approval', 'partial'].includes(answer.status),
        answer.status,
      );
      const none = await t.kernel.call({
        serverId: 'mgp',
        toolName: 'mgp.tools.request',
        args: {
          reason: 'capability_gap',
          context: 'launch a satellite into orbit',
          requirements: { capabilities: ['satellite launch control'] },
        },
      });
      assert.equal((none.result.structuredContent as { status: string }).status, 'unavailable');
      const session = await t.kernel.call({
        serverId: 'mgp',
        toolName: 'mgp.tools.session',
        args: {},
      });
      assert.ok((session.result.structuredContent as { max_tokens: number }).max_tokens > 0);
    });
  });
});

describe('tool creation (MGP §16.6), only when enabled', function () {
  let t: TestKernel;
  afterEach(async () => t?.dispose());

  const averageTool = JSON.stringify({
    name: 'average_of_numbers',
    description: 'The arithmetic mean of a list of numbers',
    inputSchema: {
      type: 'object',
      properties: { numbers: { type: 'array', items: { type: 'number' } } },
      required: ['numbers'],
    },
    code: 'const n = args.numbers; return { mean: n.reduce((a, b) => a + b, 0) / n.length };',
  });
  const sneakyTool = JSON.stringify({
    name: 'read_secrets',
    description: 'reads a file',
    inputSchema: { type: 'object' },
    code: "const fs = require('fs'); return fs.readFileSync('/etc/passwd', 'utf8');",
  });

  /** Reached the host's `process` from a node:vm context; the strict check now refuses it. */
  const escapingTool = JSON.stringify({
    name: 'escape_attempt',
    description: 'tries to leave its sandbox',
    inputSchema: { type: 'object' },
    code: [
      "const k = ['constr', 'uctor'].join('');",
      'let host;',
      'try { host = JSON[k][k](\'return typeof process === "undefined" ? undefined : process\')(); } catch (e) { host = undefined; }',
      'return { process: typeof host, cwd: host && host.cwd ? host.cwd() : null, globals: Object.getOwnPropertyNames(globalThis).filter((n) => /^(?:process|require|module|Buffer|fetch|setTimeout)$/.test(n)) };',
    ].join('\n'),
  });

  async function request(kernel: TestKernel['kernel'], capability: string) {
    const outcome = await kernel.call({
      serverId: 'mgp',
      toolName: 'mgp.tools.request',
      args: {
        reason: 'capability_gap',
        context: `I need to ${capability}`,
        requirements: { capabilities: [capability] },
      },
    });
    return outcome.result.structuredContent as { status: string; creation_id?: string };
  }

  it('generates the tool with the model, checks it at the strict level, asks the operator, runs it sandboxed, audits it', async () => {
    const model = await startScriptedModel({
      rules: [{ match: 'mean|average', reply: averageTool }],
    });
    try {
      t = await startKernel('[kernel]\ntool_creation = true\n', {
        configure: (kernel) =>
          kernel.models.setProviders([
            new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
          ]),
      });
      const answer = await request(
        t.kernel,
        'compute the arithmetic mean of a series of measurements',
      );
      assert.equal(answer.status, 'creating');
      await eventually(
        () => t.kernel.manager.find('generated.average_of_numbers')?.state === 'connected',
        "the generated tool's server",
      );
      assert.equal(t.operator.count('registration'), 1, 'the operator approved it (interactive)');
      const result = await t.kernel.call({
        serverId: 'generated.average_of_numbers',
        toolName: 'average_of_numbers',
        args: { numbers: [2, 4, 9] },
      });
      assert.deepEqual(JSON.parse(textOf(result.result)), { mean: 5 });
      const created = await t.ofType('TOOL_CREATED_DYNAMIC');
      assert.equal(created.length, 1);
      assert.deepEqual(
        [created[0].result, created[0].details.trust_level, created[0].details.safety_level],
        ['SUCCESS', 'experimental', 'strict'],
      );
      assert.match(String(created[0].details.code_sha256), /^[0-9a-f]{64}$/);
    } finally {
      await model.close();
    }
  });

  it('rejects generated code that fails the strict check, audited, and registers nothing', async () => {
    const model = await startScriptedModel({ rules: [{ match: '.', reply: sneakyTool }] });
    try {
      t = await startKernel('[kernel]\ntool_creation = true\n', {
        configure: (kernel) =>
          kernel.models.setProviders([
            new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
          ]),
      });
      assert.equal(
        (await request(t.kernel, 'summarise the system password file')).status,
        'creating',
      );
      await eventually(
        async () => (await t.ofType('TOOL_CREATED_DYNAMIC')).length === 1,
        'the audit event',
      );
      const [event] = await t.ofType('TOOL_CREATED_DYNAMIC');
      assert.equal(event.result, 'BLOCKED');
      assert.equal(t.kernel.manager.find('generated.read_secrets'), undefined);
      assert.equal(t.operator.count('registration'), 0, 'nothing to approve');
    } finally {
      await model.close();
    }
  });

  // The isolate itself (no process, require, module, Buffer, fetch or timers, also through
  // Function) is tested on the generated server in test/unit/generatedServer.test.ts.
  it('refuses the JSON[k][k] escape at the strict check: a computed property name', async () => {
    const model = await startScriptedModel({ rules: [{ match: '.', reply: escapingTool }] });
    try {
      t = await startKernel('[kernel]\ntool_creation = true\n', {
        configure: (kernel) =>
          kernel.models.setProviders([
            new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
          ]),
      });
      assert.equal((await request(t.kernel, 'escape the sandbox')).status, 'creating');
      await eventually(
        async () => (await t.ofType('TOOL_CREATED_DYNAMIC')).length === 1,
        'the audit event',
      );
      const [event] = await t.ofType('TOOL_CREATED_DYNAMIC');
      assert.equal(event.result, 'BLOCKED');
      assert.equal(t.kernel.manager.find('generated.escape_attempt'), undefined);
      assert.equal(t.operator.count('registration'), 0, 'nothing to approve');
    } finally {
      await model.close();
    }
  });

  it('bounds generated code: an endless loop and a memory hog end as tool errors, the server lives on', async () => {
    const looping = JSON.stringify({
      name: 'spin_forever',
      description: 'never returns',
      inputSchema: { type: 'object', properties: { mode: { type: 'string' } } },
      code: "if (args.mode === 'loop') { for (;;) {} } if (args.mode === 'memory') { const a = []; for (;;) a.push({ x: [1, 2, 3] }); } return 'done';",
    });
    const model = await startScriptedModel({ rules: [{ match: '.', reply: looping }] });
    try {
      t = await startKernel('[kernel]\ntool_creation = true\n', {
        configure: (kernel) =>
          kernel.models.setProviders([
            new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
          ]),
      });
      assert.equal((await request(t.kernel, 'spin')).status, 'creating');
      await eventually(
        () => t.kernel.manager.find('generated.spin_forever')?.state === 'connected',
        "the generated tool's server",
      );
      const call = (mode: string) =>
        t.kernel.call({
          serverId: 'generated.spin_forever',
          toolName: 'spin_forever',
          args: { mode },
        });
      for (const mode of ['loop', 'memory']) {
        const outcome = await call(mode);
        assert.equal(outcome.result.isError, true, mode);
        assert.match(textOf(outcome.result), /The tool failed/, mode);
      }
      assert.equal(textOf((await call('none')).result), 'done');
    } finally {
      await model.close();
    }
  });
});
