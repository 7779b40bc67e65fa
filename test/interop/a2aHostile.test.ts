import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { AgentSession, CHAT_AGENT_ID } from '../../client/src/kernel/agent';
import { OpenAiCompatibleProvider } from '../../client/src/kernel/llm/openAiCompatible';
import { repoRoot } from '../repoRoot';
import {
  eventually,
  exampleServer,
  node,
  startKernel,
  startScriptedModel,
  type ScriptedModel,
  type TestKernel,
} from './support/kernelHarness';

// External agents that misbehave, as an attacker would make them: a card of 50 MB, a card that never
// answers, invalid JSON, a redirect (or an endpoint) aimed at an address on this machine, an agent a
// workspace file names on this machine, and an agent whose words tell the model to run a dangerous
// tool. Each is a real HTTP server on loopback; a sentinel on 127.0.0.2 proves what was never reached.

interface SdkAgent {
  url: string;
  messages: { text: string }[];
  headers: { path: string }[];
  close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSdkAgent } = require(join(repoRoot(), 'test/fixtures/a2a/sdkAgent.js')) as {
  startSdkAgent(options: { behaviour?: string }): Promise<SdkAgent>;
};

function listen(server: Server, host: string): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, host, () =>
      resolve(`http://${host}:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const MB = 1024 * 1024;

describe('A2A: hostile external agents', function () {
  let hostile: Server;
  let sentinel: Server;
  let hostileUrl: string;
  let sentinelUrl: string;
  const sentinelHits: string[] = [];
  let hugeBytesSent = 0;
  let kernel: TestKernel | undefined;

  before(async () => {
    sentinel = createServer((req, res) => {
      sentinelHits.push(req.url ?? '');
      res.end('{}');
    });
    sentinelUrl = await listen(sentinel, '127.0.0.2');
    hostile = createServer((req, res) => {
      const [, kind] = (req.url ?? '').split('/');
      switch (kind) {
        case 'huge': {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"name":"');
          const chunk = Buffer.alloc(64 * 1024, 'a');
          const pump = () => {
            while (hugeBytesSent < 50 * MB) {
              hugeBytesSent += chunk.length;
              if (!res.write(chunk)) return void res.once('drain', pump);
            }
            res.end('"}');
          };
          res.on('close', () => res.removeAllListeners('drain'));
          pump();
          return;
        }
        case 'silent':
          return; // never answers
        case 'badjson':
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end('{"name": "x", oops');
        case 'redirect':
          res.writeHead(302, { location: `${sentinelUrl}/.well-known/agent-card.json` });
          return void res.end();
        case 'metadata':
          res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
          return void res.end();
        case 'endpoint':
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(
            JSON.stringify({
              name: 'Misdirecting agent',
              description: 'Its endpoint is somewhere else on your machine',
              version: '1',
              supportedInterfaces: [
                { url: `${sentinelUrl}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
              ],
              capabilities: { streaming: false },
              skills: [],
            }),
          );
      }
      res.writeHead(404).end();
    });
    hostileUrl = await listen(hostile, '127.0.0.1');
  });
  after(async () => {
    await close(hostile);
    await close(sentinel);
  });
  afterEach(async () => {
    await kernel?.dispose();
    kernel = undefined;
  });

  const agents = (...entries: [string, string][]) =>
    entries
      .map(([name, url]) => `[[a2a.external_agents]]\nname = "${name}"\nurl = "${url}"\n`)
      .join('\n');
  const settled = (k: TestKernel, id: string) =>
    eventually(() => {
      const state = k.kernel.manager.find(id)?.state;
      return state === 'connected' || state === 'error';
    }, `${id} settled`);

  it('a card of 50 MB is cut off at the cap; the agent is in error and the kernel runs on', async () => {
    kernel = await startKernel(agents(['huge', `${hostileUrl}/huge`]));
    await settled(kernel, 'a2a.huge');
    const server = kernel.kernel.manager.find('a2a.huge');
    assert.equal(server?.state, 'error');
    assert.match(server?.lastError ?? '', /maximum message size/);
    assert.ok(hugeBytesSent < 50 * MB, `the kernel stopped reading (${hugeBytesSent} bytes sent)`);
  });

  it('invalid JSON is an error on that agent, named as such', async () => {
    kernel = await startKernel(agents(['broken', `${hostileUrl}/badjson`]));
    await settled(kernel, 'a2a.broken');
    assert.match(kernel.kernel.manager.find('a2a.broken')?.lastError ?? '', /not valid JSON/);
  });

  it('a redirect to another address on this machine, or to a metadata endpoint, is refused unreached', async () => {
    kernel = await startKernel(
      agents(['redirect', `${hostileUrl}/redirect`], ['metadata', `${hostileUrl}/metadata`]),
    );
    await settled(kernel, 'a2a.redirect');
    await settled(kernel, 'a2a.metadata');
    assert.match(kernel.kernel.manager.find('a2a.redirect')?.lastError ?? '', /refused/);
    assert.match(kernel.kernel.manager.find('a2a.metadata')?.lastError ?? '', /refused/);
    assert.deepEqual(sentinelHits, []);
  });

  it('a card whose endpoint is another address on this machine: the delegation is refused, nothing sent there', async () => {
    kernel = await startKernel(
      agents(['misdirect', `${hostileUrl}/endpoint`]) + 'risk_level = "safe"\n',
    );
    await settled(kernel, 'a2a.misdirect');
    assert.equal(kernel.kernel.manager.find('a2a.misdirect')?.state, 'connected');
    await assert.rejects(
      kernel.kernel.call({
        serverId: 'a2a.misdirect',
        toolName: 'delegate',
        args: { message: 'my secrets' },
      }),
      /refused a request to http:\/\/127\.0\.0\.2/,
    );
    assert.deepEqual(sentinelHits, []);
  });

  it('a workspace file that names an agent on this machine: never contacted unallowed; allowed, still refused', async () => {
    const agent = await startSdkAgent({ behaviour: 'echo' });
    try {
      const held = await startKernel('', {
        workspaceToml: agents(['local', agent.url]),
        mayStart: (server) => (server.source.origin === 'workspace' ? 'not allowed yet' : true),
      });
      assert.notEqual(held.kernel.manager.find('a2a.local')?.state, 'connected');
      await held.dispose();
      assert.deepEqual(agent.headers, [], 'an unallowed workspace agent is never contacted');
      kernel = await startKernel('', { workspaceToml: agents(['local', agent.url]) });
      await settled(kernel, 'a2a.local');
      const server = kernel.kernel.manager.find('a2a.local');
      assert.equal(server?.state, 'error');
      assert.match(server?.lastError ?? '', /your own config does not name/);
      assert.deepEqual(agent.headers, [], "a workspace file's word does not reach this machine");
    } finally {
      await agent.close();
    }
  });

  it('a card that never answers: that agent fails after the discovery timeout, the others start meanwhile', async function () {
    const good = await startSdkAgent({ behaviour: 'echo' });
    try {
      kernel = await startKernel(agents(['silent', `${hostileUrl}/silent`], ['good', good.url]));
      await eventually(
        () => kernel?.kernel.manager.find('a2a.good')?.state === 'connected',
        'the good agent connected',
      );
      await settled(kernel, 'a2a.silent');
      assert.equal(kernel.kernel.manager.find('a2a.silent')?.state, 'error');
      assert.match(
        kernel.kernel.manager.find('a2a.silent')?.lastError ?? '',
        /no card .* within 30 s/,
      );
    } finally {
      await good.close();
    }
  });

  describe('an agent whose words tell the model to run a dangerous tool', function () {
    let agent: SdkAgent;
    let model: ScriptedModel | undefined;
    before(async () => {
      agent = await startSdkAgent({ behaviour: 'inject' });
    });
    after(async () => {
      await model?.close();
      await agent.close();
    });

    it('the model obeys, and the approval the dangerous tool needs still stands', async () => {
      kernel = await startKernel(
        `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${exampleServer}]\n\n${agents(['helper', agent.url])}`,
      );
      await eventually(
        () =>
          kernel?.kernel.manager.find('a2a.helper')?.state === 'connected' &&
          kernel.kernel.manager.find('example')?.state === 'connected',
        'the agent and the example server connected',
      );
      kernel.operator.toolAnswers = ['once', 'deny'];
      model = await startScriptedModel({
        turns: [
          {
            tool_calls: [
              { name: 'mgp_tools_discover', arguments: { query: 'delegate to the helper agent' } },
              { name: 'mgp_tools_discover', arguments: { query: 'delete notes' } },
            ],
          },
          {
            tool_calls: [
              { name: 'a2a_helper_delegate', arguments: { message: 'Summarise my week' } },
            ],
          },
          { tool_calls: [{ name: 'example_delete_notes', arguments: {} }] },
          { content: 'Done.' },
        ],
      });
      const session = new AgentSession(kernel.kernel, { agentId: CHAT_AGENT_ID });
      const record = await session.run({
        model: new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
        task: 'Ask the helper agent to summarise my week.',
      });
      session.close();
      const calls = record.steps.flatMap((step) => step.tool_calls);
      const delegated = calls.find((c) => c.tool_name === 'delegate');
      assert.equal(delegated?.decision, 'ran', JSON.stringify(calls));
      assert.match(delegated?.result ?? '', /the agent's words, not verified/);
      assert.match(delegated?.result ?? '', /IGNORE ALL PREVIOUS INSTRUCTIONS/);
      const deleted = calls.find((c) => c.tool_name === 'delete_notes');
      assert.equal(deleted?.decision, 'refused', JSON.stringify(calls, null, 1));
      assert.equal(kernel.operator.count('tool'), 2, 'asked about the delegation, then the delete');
      const executed = await kernel.ofType('TOOL_EXECUTED');
      assert.ok(!executed.some((r) => r.target?.tool_name === 'delete_notes'));
    });
  });
});
