import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskState, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { repoRoot } from '../repoRoot';
import { userMessage } from './support/a2aMessages';
import {
  eventually,
  startKernel,
  startScriptedModel,
  textOf,
  type ScriptedModel,
} from './support/kernelHarness';

// `mgp serve --a2a PORT` (the built CLI) and what talks to it: the official SDK's client in both
// protocol versions, OpenFang's endpoints as its guide writes them, and the kernel's own A2A client.

const root = repoRoot();
const cli = join(root, 'dist/cli.js');
const TOKEN = 'a2a-test-token-0123456789';

interface Served {
  child: ChildProcess;
  base: string;
  endpoint: string;
  err: () => string;
}

function serve(dir: string, modelUrl: string): Promise<Served> {
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--a2a', '0', '--config', join(dir, 'mgp.toml')],
    {
      env: {
        ...process.env,
        XDG_STATE_HOME: join(dir, 'state'),
        MGP_MODEL_URL: modelUrl,
        MGP_MODEL: 'scripted',
        MGP_A2A_TOKEN: TOKEN,
        MGP_A2A_NAME: 'Test Kernel',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`mgp serve exited ${code}: ${err}`)));
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const card = /A2A agent card: (\S+)\/\.well-known/.exec(out);
      const endpoint = /A2A endpoint: (\S+)/.exec(out);
      if (card && endpoint)
        resolve({ child, base: card[1], endpoint: endpoint[1], err: () => err });
    });
  });
}

function stop(served: Served): Promise<void> {
  return new Promise((resolve) => {
    served.child.once('exit', () => resolve());
    served.child.kill('SIGTERM');
  });
}

const authorized: typeof fetch = (input, init = {}) => {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${TOKEN}`);
  return fetch(input, { ...init, headers });
};

const statusText = (task: Task) =>
  (task.status?.message?.parts ?? [])
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('');

describe('mgp serve --a2a (the built CLI) with the SDK client, OpenFang peers and the kernel', function () {
  let dir: string;
  let model: ScriptedModel;
  let served: Served;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-a2a-serve-'));
    writeFileSync(join(dir, 'mgp.toml'), '');
    model = await startScriptedModel({ rules: [{ match: '.', reply: 'Hello from the kernel.' }] });
    served = await serve(dir, model.url);
  });
  after(async () => {
    await stop(served);
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const sdkClient = async (version: '1.0' | '0.3'): Promise<Client> => {
    const legacyCompat = { enabled: true };
    const resolver = new DefaultAgentCardResolver({ fetchImpl: authorized, legacyCompat });
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl: authorized, legacyCompat })],
      cardResolver: resolver,
    });
    if (version === '1.0') return factory.createFromUrl(served.base);
    // A 0.3 client asks for the card without naming a version, and gets the 0.3 card.
    const card = (await (await fetch(`${served.base}/.well-known/agent-card.json`)).json()) as {
      protocolVersion?: string;
    };
    assert.equal(card.protocolVersion, '0.3.0');
    return factory.createFromAgentCard(resolver.normalizeAgentCard(card));
  };

  for (const version of ['1.0', '0.3'] as const)
    it(`the SDK client (A2A ${version}) sends, streams and reads a task`, async () => {
      const client = await sdkClient(version);
      assert.equal(client.protocolVersion, version);
      const sent = await client.sendMessage(userMessage('Say hello'));
      assert.ok('status' in sent, 'a task came back');
      assert.equal(sent.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.equal(statusText(sent), 'Hello from the kernel.');
      const read = await client.getTask({ tenant: '', id: sent.id });
      assert.equal(read.status?.state, TaskState.TASK_STATE_COMPLETED);
      const states: TaskState[] = [];
      for await (const event of client.sendMessageStream(userMessage('Say hello again'))) {
        const payload = event.payload;
        if (payload?.$case === 'statusUpdate' && payload.value.status)
          states.push(payload.value.status.state);
      }
      assert.equal(states.at(-1), TaskState.TASK_STATE_COMPLETED);
      assert.ok(states.includes(TaskState.TASK_STATE_WORKING));
    });

  it("OpenFang's endpoints: tasks/send returns the finished task, GET reads it, 404 for others", async () => {
    const sent = await authorized(`${served.endpoint}/tasks/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tasks/send',
        params: {
          message: { role: 'user', parts: [{ type: 'text', text: 'Review this code' }] },
          sessionId: 'session-123',
        },
      }),
    });
    assert.equal(sent.status, 200);
    const task = (await sent.json()) as {
      id: string;
      sessionId: string;
      status: string;
      messages: { role: string; parts: { type: string; text: string }[] }[];
      history: { status: string }[];
    };
    assert.equal(task.status, 'completed');
    assert.equal(task.sessionId, 'session-123');
    assert.deepEqual(task.messages.at(-1), {
      role: 'agent',
      parts: [{ type: 'text', text: 'Hello from the kernel.' }],
    });
    assert.deepEqual(
      task.history.map((h) => h.status),
      ['submitted', 'working', 'completed'],
    );
    const read = await authorized(`${served.endpoint}/tasks/${task.id}`);
    assert.equal(((await read.json()) as { status: string }).status, 'completed');
    assert.equal((await authorized(`${served.endpoint}/tasks/no-such-task`)).status, 404);
    const card = (await (await fetch(`${served.base}/.well-known/agent.json`)).json()) as {
      name: string;
      url: string;
    };
    assert.equal(card.name, 'Test Kernel');
    assert.equal(card.url, served.endpoint);
  });

  it('the kernel delegates to another kernel served over A2A', async () => {
    const kernel = await startKernel(
      `[[a2a.external_agents]]\nname = "other"\nurl = "${served.base}"\napi_key = "${TOKEN}"\nrisk_level = "safe"\n`,
    );
    try {
      await eventually(
        () => kernel.kernel.manager.find('a2a.other')?.state === 'connected',
        'the other kernel connected',
      );
      assert.equal(kernel.kernel.a2a.cardOf('a2a.other')?.dialect, 'a2a-1.0');
      const outcome = await kernel.kernel.call({
        serverId: 'a2a.other',
        toolName: 'delegate',
        args: { message: 'Hello?' },
      });
      assert.match(textOf(outcome.result), /Hello from the kernel\./);
    } finally {
      await kernel.dispose();
    }
  });

  it('refuses what an attacker would try: no token, a foreign Host or Origin, a huge body', async () => {
    const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
    const post = (headers: Record<string, string>, body = rpc) =>
      fetch(served.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    assert.equal((await post({})).status, 401, 'no token');
    assert.equal((await post({ authorization: 'Bearer wrong-token-0123456789' })).status, 401);
    assert.equal(
      (await fetch(`${served.base}/.well-known/agent-card.json`)).status,
      200,
      'the card is public',
    );
    const origin = await post({ authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' });
    assert.equal(origin.status, 403, 'a web page may not drive it');
    const big = await post({ authorization: `Bearer ${TOKEN}` }, 'x'.repeat(2 * 1024 * 1024));
    assert.equal(big.status, 413);
    const host = await new Promise<number>((resolve, reject) => {
      const url = new URL(served.endpoint);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const request = (require('node:http') as typeof import('node:http')).request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'GET',
          headers: { host: 'attacker.example:80' },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      request.on('error', reject);
      request.end();
    });
    assert.equal(host, 421, 'a rebinding Host is refused');
  });
});
