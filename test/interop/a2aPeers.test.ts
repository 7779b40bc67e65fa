import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../repoRoot';
import {
  exampleServer,
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

interface Audited {
  event_type: string;
  actor: { id: string };
  result: string;
  target: { tool_name?: string };
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
        '',
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
      ].join('\n'),
    );
    // Each task: find the echo tool, call it, answer. Alice may; Bob is refused by access control.
    const task = [
      { tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'echo text' } }] },
      { tool_calls: [{ name: 'example_echo', arguments: { text: 'hello' } }] },
      { content: 'Done.' },
    ];
    model = await startScriptedModel({ turns: [...task, ...task, ...task] });
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
    const calls = auditRecords(join(dir, 'state')).filter((r) => r.target.tool_name === 'echo');
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
});
