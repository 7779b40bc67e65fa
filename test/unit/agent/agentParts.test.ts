import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import {
  gatewayAgentId,
  LoopGuard,
  ModelToolNames,
  parseArguments,
  resultText,
} from '../../../client/src/kernel/agent';
import { withInjections } from '../../../client/src/kernel/agent/prompt';
import { openAiChat } from '../../../client/src/kernel/llm/openAiChat';
import { repoRoot } from '../../repoRoot';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startScriptedModel } = require(join(repoRoot(), 'test/fixtures/models/scriptedModel.js'));

describe('agent loop parts', () => {
  describe('model tool names', () => {
    it('gives every tool one name a model API accepts, stable and never shared', () => {
      const names = new ModelToolNames();
      assert.equal(
        names.nameOf({ serverId: 'example', toolName: 'delete_notes' }),
        'example_delete_notes',
      );
      assert.equal(
        names.nameOf({ serverId: 'mgp', toolName: 'mgp.tools.discover' }),
        'mgp_tools_discover',
      );
      assert.equal(names.nameOf({ serverId: 'my.srv', toolName: 'do it!' }), 'my_srv_do_it_');
      // Another tool that sanitizes to the same name gets a suffix; asking again gives the same.
      assert.equal(names.nameOf({ serverId: 'my', toolName: 'srv.do it?' }), 'my_srv_do_it__2');
      assert.equal(names.nameOf({ serverId: 'my.srv', toolName: 'do it!' }), 'my_srv_do_it_');
      const long = names.nameOf({ serverId: 'server', toolName: 'x'.repeat(100) });
      assert.ok(/^[A-Za-z0-9_-]{1,64}$/.test(long), long);
      assert.deepEqual(names.resolve(long), { serverId: 'server', toolName: 'x'.repeat(100) });
      assert.equal(names.resolve('never_named'), undefined);
    });
  });

  it('names gateway clients from an untrusted name', () => {
    assert.equal(gatewayAgentId('Claude Desktop'), 'agent.gateway.claude-desktop');
    assert.equal(gatewayAgentId('../../etc'), 'agent.gateway.etc');
    assert.equal(gatewayAgentId(''), 'agent.gateway.unknown');
    assert.equal(gatewayAgentId(undefined), 'agent.gateway.unknown');
  });

  describe('loop guard', () => {
    it('trips at the limit of identical calls in a row, arguments compared as values', () => {
      const guard = new LoopGuard(3);
      assert.equal(guard.check('a', { x: 1, y: [1, { z: 2 }] }), undefined);
      assert.equal(guard.check('a', { y: [1, { z: 2 }], x: 1 }), undefined);
      assert.match(
        guard.check('a', { x: 1, y: [1, { z: 2 }] }) ?? '',
        /a with the same arguments 3 times in a row/,
      );
    });

    it('starts over when the tool or the arguments change', () => {
      const guard = new LoopGuard(2);
      assert.equal(guard.check('a', { x: 1 }), undefined);
      assert.equal(guard.check('a', { x: 2 }), undefined);
      assert.equal(guard.check('b', { x: 2 }), undefined);
      assert.ok(guard.check('b', { x: 2 }));
      assert.throws(() => new LoopGuard(1), /at least 2/);
    });
  });

  it('parses arguments into an object or says what is wrong', () => {
    assert.deepEqual(parseArguments('{"a":1}'), { args: { a: 1 } });
    assert.deepEqual(parseArguments('  '), { args: {} });
    assert.match((parseArguments('{"a":') as { problem: string }).problem, /not valid JSON/);
    assert.match((parseArguments('[1]') as { problem: string }).problem, /not an array/);
    assert.match((parseArguments('"x"') as { problem: string }).problem, /not string/);
  });

  it("gives the model a result's text, names other content, and cuts it to the budget", () => {
    const shown = resultText(
      {
        content: [
          { type: 'text', text: 'abc' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///x', name: 'x' },
        ],
      },
      1000,
    );
    assert.equal(shown.text, 'abc\n[image image/png, 3 bytes]\n[resource file:///x "x"]');
    assert.deepEqual(resultText({ content: [], structuredContent: { n: 1 } }, 100).text, '{"n":1}');
    const cut = resultText({ content: [{ type: 'text', text: 'x'.repeat(50) }] }, 10);
    assert.equal(cut.truncated, true);
    assert.match(cut.text, /^x{10}\n\[truncated: 40 of 50 characters omitted\]$/);
  });

  it('places context injections as MCPL §10.4 says, leaving the conversation as it was', () => {
    const messages = [
      { role: 'system' as const, content: 'rules' },
      { role: 'user' as const, content: 'hi' },
      { role: 'assistant' as const, content: 'hello' },
      { role: 'user' as const, content: 'task' },
    ];
    const out = withInjections(messages, [
      { namespace: 'a', position: 'system', content: 'S' },
      { namespace: 'b', position: 'beforeUser', content: 'B' },
      { namespace: 'c', position: 'afterUser', content: 'A' },
    ]);
    assert.deepEqual(
      out.map((m) => m.content),
      ['rules\n\n<a>\nS\n</a>', 'hi', 'hello', '<b>\nB\n</b>', 'task', '<c>\nA\n</c>'],
    );
    assert.equal(messages.length, 4);
  });

  describe('OpenAI-compatible tool calling', () => {
    let model: {
      url: string;
      requests: { tools?: unknown[]; stream?: boolean }[];
      close(): Promise<void>;
    };
    afterEach(async () => model?.close());
    const signal = new AbortController().signal;

    it('sends the tools, streams the text and assembles tool calls split across events', async () => {
      model = await startScriptedModel({
        turns: [
          {
            content: 'Looking it up.',
            tool_calls: [{ name: 'lookup', arguments: { q: 'x' }, id: 'c1' }],
          },
        ],
      });
      const texts: string[] = [];
      const turn = await openAiChat(
        { baseUrl: model.url, model: 'm' },
        {
          messages: [{ role: 'user', content: 'find x' }],
          tools: [{ name: 'lookup', description: 'd', inputSchema: { type: 'object' } }],
        },
        signal,
        (delta) => texts.push(delta),
      );
      assert.equal(turn.text, 'Looking it up.');
      assert.deepEqual(texts, ['Looking ', 'it ', 'up.']);
      assert.deepEqual(turn.toolCalls, [{ id: 'c1', name: 'lookup', arguments: '{"q":"x"}' }]);
      assert.equal(turn.stopReason, 'toolUse');
      assert.equal(model.requests[0].stream, true);
      assert.deepEqual(model.requests[0].tools, [
        {
          type: 'function',
          function: { name: 'lookup', description: 'd', parameters: { type: 'object' } },
        },
      ]);
    });

    it('reads an endpoint that answers one JSON body instead of a stream', async () => {
      const http = await import('node:http');
      const server = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            model: 'plain',
            choices: [
              {
                message: {
                  content: null,
                  tool_calls: [{ id: 't', function: { name: 'f', arguments: '{}' } }],
                },
                finish_reason: 'tool_calls',
              },
            ],
          }),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      try {
        const turn = await openAiChat(
          { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' },
          { messages: [], tools: [] },
          signal,
        );
        assert.deepEqual(turn.toolCalls, [{ id: 't', name: 'f', arguments: '{}' }]);
        assert.equal(turn.model, 'plain');
      } finally {
        server.close();
      }
    });

    it('cuts off a model that floods, and reports an endpoint error', async () => {
      model = await startScriptedModel({
        turns: [{ content: 'word '.repeat(1000) }, { error: 'overloaded' }],
      });
      await assert.rejects(
        openAiChat(
          { baseUrl: model.url, model: 'm', maxAnswerChars: 100 },
          { messages: [], tools: [] },
          signal,
        ),
        /exceeds 100 characters/,
      );
      await assert.rejects(
        openAiChat({ baseUrl: model.url, model: 'm' }, { messages: [], tools: [] }, signal),
        /answered 500: overloaded/,
      );
    });
  });
});
