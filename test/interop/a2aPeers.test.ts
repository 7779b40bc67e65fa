import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { repoRoot } from '../repoRoot';
import { userMessage } from './support/a2aMessages';
import {
  eventually,
  exampleServer,
  fixtureServer,
  node,
  startScriptedModel,
  type ScriptedModel,
} from './support/kernelHarness';

// `[[a2a.peers]]`: each peer of the user's own config holds its own token and is its own agent,
// `agent.a2a.<name>`, to access control and the audit trail; its tasks are its own. Against the
// built CLI's `mgp serve --a2a`, over OpenFang's endpoints.

const cli = join(repoRoot(), 'dist/cli.js');
const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdef';
const CAROL = 'carol-token-0123456789abcdef';

interface Audited {
  event_type: string;
  actor: { id: string };
  result: string;
  target: { server_id?: string; tool_name?: string };
}

function auditRecords(dir: string): Audited[] {
  const records: Audited[] = [];
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/^audit-\d+\.jsonl$/.test(name))
        for (const line of readFileSync(full, 'utf8').split('\n'))
          if (line.trim()) records.push(JSON.parse(line) as Audited);
    }
  };
  walk(dir);
  return records;
}

describe('mgp serve --a2a with [[a2a.peers]]: one identity and one set of tasks per peer', function () {
  let dir: string;
  let model: ScriptedModel;
  let child: ReturnType<typeof spawn>;
  let endpoint: string;
  let err = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-a2a-peers-'));
    writeFileSync(
      join(dir, 'mgp.toml'),
      [
        '[kernel]',
        'default_access_policy = "opt-in"',
        '[[kernel.access_grants]]',
        'agent_id = "agent.a2a.alice"',
        'server_id = "example"',
        'permission = "allow"',
        '[[kernel.access_grants]]',
        'agent_id = "agent.a2a.carol"',
        'server_id = "example"',
        'permission = "allow"',
        '',
        '[[a2a.peers]]',
        'name = "carol"',
        'token = "${CAROL_TOKEN}"',
        'approves = true',
        '[[a2a.peers]]',
        'name = "alice"',
        'token = "${ALICE_TOKEN}"',
        '[[a2a.peers]]',
        'name = "bob"',
        'token = "${secret:BOB_TOKEN}"',
        '[[a2a.peers]]',
        'name = "nobody"',
        'token = "${NOT_SET_ANYWHERE}"',
        '',
        '[[servers]]',
        'id = "example"',
        `command = ${node}`,
        `args = [${exampleServer}]`,
        '',
        '# Its echo is dangerous by your config: every call needs an approval.',
        '[[servers]]',
        'id = "plain"',
        `command = ${node}`,
        `args = [${fixtureServer('params-echo.js')}]`,
        '[servers.tools.echo]',
        'risk_level = "dangerous"',
        '[[kernel.access_grants]]',
        'agent_id = "agent.a2a.alice"',
        'server_id = "plain"',
        'permission = "allow"',
        '[[kernel.access_grants]]',
        'agent_id = "agent.a2a.carol"',
        'server_id = "plain"',
        'permission = "allow"',
      ].join('\n'),
    );
    // Each task: find the echo tool, call it, answer. Alice may; Bob is refused by access control.
    const task = [
      { tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'echo text' } }] },
      { tool_calls: [{ name: 'example_echo', arguments: { text: 'hello' } }] },
      { content: 'Done.' },
    ];
    // Then a dangerous call: refused for alice (nobody to ask), asked of carol, who may approve.
    const dangerous = [
      { tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'echo' } }] },
      { tool_calls: [{ name: 'plain_echo', arguments: { text: 'groceries' } }] },
      { content: 'Done.' },
    ];
    model = await startScriptedModel({
      // Last, a task the model takes long over: the peer cancels it.
      turns: [
        ...task,
        ...task,
        ...task,
        ...dangerous,
        ...dangerous,
        { content: 'Too late.', delayMs: 30_000 },
      ],
    });
    child = spawn(
      process.execPath,
      [cli, 'serve', '--a2a', '0', '--config', join(dir, 'mgp.toml')],
      {
        env: {
          ...process.env,
          XDG_STATE_HOME: join(dir, 'state'),
          MGP_MODEL_URL: model.url,
          MGP_MODEL: 'scripted',
          ALICE_TOKEN: ALICE,
          BOB_TOKEN: BOB,
          CAROL_TOKEN: CAROL,
          MGP_A2A_TOKEN: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stderr?.on('data', (chunk) => (err += chunk));
    endpoint = await new Promise((resolve, reject) => {
      let out = '';
      child.on('exit', (code) => reject(new Error(`mgp serve exited ${code}: ${err}`)));
      child.stdout?.on('data', (chunk) => {
        out += chunk;
        const match = /A2A endpoint: (\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
    });
  });

  after(async () => {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const as = (token: string, path: string, body?: unknown) =>
    fetch(`${endpoint}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
  const send = async (token: string, text: string) => {
    const response = await as(token, '/tasks/send', {
      jsonrpc: '2.0',
      id: 1,
      method: 'tasks/send',
      params: { message: { role: 'user', parts: [{ type: 'text', text }] } },
    });
    assert.equal(response.status, 200);
    return (await response.json()) as { id: string; status: string };
  };

  it('a peer whose token is not set is left out and named; its empty token lets nobody in', async () => {
    assert.match(err, /peer left out, its token is missing: nobody \(.*NOT_SET_ANYWHERE/);
    assert.equal((await as('', '/agents')).status, 401);
  });

  it("each peer's task runs as its own agent: access rules and the audit trail tell them apart", async () => {
    const alice = await send(ALICE, 'Echo hello');
    assert.equal(alice.status, 'completed');
    const bob = await send(BOB, 'Echo hello');
    assert.equal(bob.status, 'completed');
    const calls = auditRecords(join(dir, 'state')).filter(
      (r) => r.target.server_id === 'example' && r.target.tool_name === 'echo',
    );
    assert.deepEqual(
      calls.map((r) => [r.actor.id, r.event_type]),
      [
        ['agent.a2a.alice', 'TOOL_EXECUTED'],
        ['agent.a2a.bob', 'TOOL_BLOCKED'],
      ],
      JSON.stringify(calls, null, 1),
    );
  });

  it("a peer cannot read or cancel another peer's task: to it, the task does not exist", async () => {
    const alice = await send(ALICE, 'Echo again');
    assert.equal((await as(ALICE, `/tasks/${alice.id}`)).status, 200);
    assert.equal((await as(BOB, `/tasks/${alice.id}`)).status, 404);
    assert.equal((await as(BOB, `/tasks/${alice.id}/cancel`, {})).status, 404);
  });

  it('a call that needs approval is refused for a peer that may not approve, asked of one that may', async () => {
    const alice = await send(ALICE, 'Echo groceries');
    assert.equal(alice.status, 'completed');
    const client = async (token: string) => {
      const authorized: typeof fetch = (input, init = {}) => {
        const headers = new Headers(init.headers);
        headers.set('Authorization', `Bearer ${token}`);
        return fetch(input, { ...init, headers });
      };
      return new ClientFactory({
        transports: [new JsonRpcTransportFactory({ fetchImpl: authorized })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl: authorized }),
      }).createFromUrl(endpoint.replace(/\/a2a$/, ''));
    };
    const carol = await client(CAROL);
    const asked = await carol.sendMessage(userMessage('Echo groceries'));
    assert.ok('status' in asked);
    assert.equal(asked.status?.state, TaskState.TASK_STATE_INPUT_REQUIRED);
    const question = (asked.status?.message?.parts ?? [])
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join('');
    assert.match(question, /plain wants to run its tool "echo" for agent\.a2a\.carol/);
    assert.match(question, /Answer "allow" to run it once, or "deny"/);
    const done = await carol.sendMessage(userMessage('allow', asked.id, asked.contextId));
    assert.ok('status' in done);
    assert.equal(done.status?.state, TaskState.TASK_STATE_COMPLETED);
    // The approved call's record is written as its result returns: wait for it.
    const echoes = () =>
      auditRecords(join(dir, 'state')).filter(
        (r) => r.target.server_id === 'plain' && /^TOOL_/.test(r.event_type),
      );
    await eventually(() => echoes().length === 2, "carol's call is in the audit trail");
    assert.deepEqual(
      echoes().map((r) => [r.actor.id, r.event_type]),
      [
        ['agent.a2a.alice', 'TOOL_BLOCKED'],
        ['agent.a2a.carol', 'TOOL_EXECUTED'],
      ],
    );
  });

  it("the SDK client cancels a running task: it ends canceled, and the agent's loop stops", async () => {
    const authorized: typeof fetch = (input, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('Authorization', `Bearer ${CAROL}`);
      return fetch(input, { ...init, headers });
    };
    const carol = await new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl: authorized })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: authorized }),
    }).createFromUrl(endpoint.replace(/\/a2a$/, ''));
    const started = await carol.sendMessage({
      ...userMessage('Think about it for a long time'),
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        returnImmediately: true,
      },
    });
    assert.ok('status' in started);
    assert.notEqual(started.status?.state, TaskState.TASK_STATE_COMPLETED);
    const cancelled = await carol.cancelTask({ tenant: '', id: started.id, metadata: undefined });
    assert.equal(cancelled.status?.state, TaskState.TASK_STATE_CANCELED);
    const read = await carol.getTask({ tenant: '', id: started.id });
    assert.equal(read.status?.state, TaskState.TASK_STATE_CANCELED);
  });
});
