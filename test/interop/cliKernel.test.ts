import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../client/src/cli/main';
import { repoRoot } from '../repoRoot';

const root = repoRoot();

async function run(
  args: string[],
): Promise<{ code: number; out: string; err: string; written: string }> {
  let out = '';
  let err = '';
  let written = '';
  const code = await runCli(args, {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
    write: (t) => (written += t),
  });
  return { code, out, err, written };
}

describe('mgp CLI on the same kernel (real servers)', function () {
  let dir: string;
  let config: string;
  let stateHome: string | undefined;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-cli-kernel-'));
    stateHome = process.env.XDG_STATE_HOME;
    process.env.XDG_STATE_HOME = join(dir, 'state');
    config = join(dir, 'mgp.toml');
    const example = JSON.stringify(join(root, 'examples/servers/dist/mgp-example-server.js'));
    writeFileSync(
      config,
      `[[servers]]\nid = "example"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${example}, "--heartbeat-ms", "100"]\napproved_tools = ["write_note"]\n\n[[servers]]\nid = "broken"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ["-e", "process.exit(4)"]\n[servers.mgp]\nrestart_policy = "never"\n`,
    );
  });
  after(() => {
    if (stateHome === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = stateHome;
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists tools as stable JSON with their effective security, and exits 1 because one server failed', async () => {
    const { code, out, err } = await run(['tools', '--config', config, '--json']);
    assert.equal(code, 1);
    const listing = JSON.parse(out) as {
      tools: {
        name: string;
        security: { risk_level: string };
        security_sources: { risk_level: string };
      }[];
      not_ready: { server: string; state: string; starting: boolean; reason: string }[];
    };
    const byName = Object.fromEntries(listing.tools.map((t) => [t.name, t]));
    assert.equal(byName['example.echo'].security.risk_level, 'safe');
    assert.equal(byName['example.delete_notes'].security.risk_level, 'dangerous');
    assert.equal(byName['example.delete_notes'].security_sources.risk_level, 'heuristic');
    assert.match(err, /broken: error/);
    // The listing says which server it lacks, and why.
    assert.deepEqual(
      listing.not_ready.map(({ server, state, starting }) => ({ server, state, starting })),
      [{ server: 'broken', state: 'error', starting: false }],
    );
    assert.ok(listing.not_ready[0].reason.length > 0);
  });

  it('names the tools of an OpenFang config.toml mcp_{server}_{tool}, and calls them', async () => {
    const openfang = join(dir, 'openfang', 'config.toml');
    mkdirSync(join(dir, 'openfang'), { recursive: true });
    const example = JSON.stringify(join(root, 'examples/servers/dist/mgp-example-server.js'));
    writeFileSync(
      openfang,
      `[[mcp_servers]]\nname = "Example Notes"\ntimeout_secs = 20\n[mcp_servers.transport]\ntype = "stdio"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${example}]\n`,
    );
    const tools = await run(['tools', '--config', openfang, '--json']);
    assert.equal(tools.code, 0, tools.err);
    const names = (JSON.parse(tools.out) as { tools: { name: string }[] }).tools.map((t) => t.name);
    assert.ok(names.includes('mcp_example_notes_echo'), names.join(', '));
    const call = await run([
      'call',
      'Example Notes',
      'echo',
      '--config',
      openfang,
      '--args',
      '{"text":"from openfang"}',
    ]);
    assert.match(call.out, /from openfang/);
  });

  it('calls a tool with --args through the kernel and prints its result', async () => {
    const { code, out } = await run([
      'call',
      'example',
      'add',
      '--config',
      config,
      '--args',
      '{"a":20,"b":22}',
      '--json',
    ]);
    assert.equal(code, 0);
    const result = JSON.parse(out);
    assert.deepEqual(result.structuredContent, { sum: 42 });
    assert.ok(result._kernel.trace_id);
  });

  it('exits 1 when a config file has errors, naming the file, line and key', async () => {
    const bad = join(dir, 'bad.toml');
    writeFileSync(bad, '[[servers]]\nid = "x"\ncommand = "node"\nrestart = 3\n');
    const { code, err } = await run(['tools', '--config', bad]);
    assert.equal(code, 1);
    assert.match(err, /bad\.toml:4:1: error: unknown key "restart".*\[servers\[0\]\.restart\]/);
  });

  it('refuses a call that needs approval when there is no terminal, saying how; runs it with --approve once', async () => {
    const denied = await run(['call', 'example', 'delete_notes', '--config', config]);
    assert.equal(denied.code, 3);
    assert.match(
      denied.err,
      /example asks for memory\.write.* and there is no terminal to ask on: they are denied for this run/,
    );
    assert.match(denied.err, /1000 PERMISSION_DENIED/);
    // Nothing denied without asking was kept: with --approve the permissions and the call go through.
    const approved = await run([
      'call',
      'example',
      'delete_notes',
      '--config',
      config,
      '--approve',
      'once',
    ]);
    assert.equal(approved.code, 0, approved.err);
    assert.match(approved.out, /Deleted 0 notes/);
  });

  it('exits 1 with the MGP code when arguments do not fit the schema, and 2 on bad --args', async () => {
    const invalid = await run([
      'call',
      'example',
      'add',
      '--config',
      config,
      '--args',
      '{"a":"x","b":1}',
    ]);
    assert.equal(invalid.code, 3);
    assert.match(invalid.err, /4000 INVALID_TOOL_ARGS/);
    assert.equal(
      (await run(['call', 'example', 'add', '--config', config, '--args', '{nope'])).code,
      2,
    );
  });

  it('calls kernel tools under the server "mgp"', async () => {
    const { code, out } = await run([
      'call',
      'mgp',
      'mgp.health.ping',
      '--config',
      config,
      '--args',
      '{"server_id":"example"}',
      '--json',
    ]);
    assert.equal(code, 0);
    assert.equal(JSON.parse(out).structuredContent.status, 'healthy');
  });

  it("streams a tool's output as it arrives with --stream", async () => {
    const { code, written, err } = await run([
      'call',
      'example',
      'stream_text',
      '--config',
      config,
      '--args',
      '{"text":"alpha beta gamma delta","delay_ms":5}',
      '--stream',
    ]);
    assert.equal(code, 0, err);
    assert.equal(written.trim(), 'alpha beta gamma delta');
    assert.match(err, /done: \d+ chunks/);
  });

  it('discovers tools by intent, by keywords by default', async () => {
    const { code, out } = await run(['discover', 'add two numbers', '--config', config, '--json']);
    assert.equal(code, 0);
    const answer = JSON.parse(out) as {
      search_strategy: string;
      fallback_strategy?: string;
      tools: { tool_id: string }[];
    };
    assert.equal(answer.tools[0].tool_id, 'example.add');
    assert.equal(answer.search_strategy, 'keyword');
    assert.equal(answer.fallback_strategy, undefined);
  });

  it('discovers by embeddings from MGP_EMBEDDING_MODEL at MGP_MODEL_URL, and by keywords when the endpoint refuses', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fixture = require(join(root, 'test/fixtures/models/embeddingModel.js')) as {
      startEmbeddingModel(o: { apiKey: string }): Promise<{
        url: string;
        requests: { model: string; input: string[] }[];
        close(): Promise<void>;
      }>;
    };
    const model = await fixture.startEmbeddingModel({ apiKey: 'sk-cli' });
    const saved = {
      url: process.env.MGP_MODEL_URL,
      model: process.env.MGP_EMBEDDING_MODEL,
      key: process.env.MGP_MODEL_KEY,
    };
    const restore = (name: string, value: string | undefined) =>
      value === undefined ? delete process.env[name] : (process.env[name] = value);
    try {
      Object.assign(process.env, {
        MGP_MODEL_URL: model.url,
        MGP_EMBEDDING_MODEL: 'use',
        MGP_MODEL_KEY: 'sk-cli',
      });
      const semantic = await run([
        'discover',
        'sum of two values',
        '--strategy',
        'semantic',
        '--config',
        config,
        '--json',
      ]);
      assert.equal(semantic.code, 0, semantic.err);
      const answer = JSON.parse(semantic.out) as {
        search_strategy: string;
        fallback_strategy?: string;
        tools: { tool_id: string }[];
      };
      assert.equal(answer.search_strategy, 'semantic');
      assert.equal(answer.fallback_strategy, undefined);
      assert.equal(answer.tools[0].tool_id, 'example.add');
      assert.ok(
        model.requests.some((r) => r.input.includes('sum of two values')) &&
          model.requests.every((r) => r.model === 'use'),
      );
      process.env.MGP_MODEL_KEY = 'wrong';
      const refused = await run([
        'discover',
        'sum of two values',
        '--strategy',
        'semantic',
        '--config',
        config,
      ]);
      assert.equal(refused.code, 0, refused.err);
      assert.match(refused.err, /semantic \(fell back to keyword\)/);
      assert.match(refused.out, /example\.add/);
    } finally {
      restore('MGP_MODEL_URL', saved.url);
      restore('MGP_EMBEDDING_MODEL', saved.model);
      restore('MGP_MODEL_KEY', saved.key);
      await model.close();
    }
  });

  it('follows events', async () => {
    const { code, out } = await run([
      'events',
      '--config',
      config,
      '--channels',
      'system.*',
      '--count',
      '2',
      '--json',
    ]);
    assert.equal(code, 0);
    const events = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      events.map((e) => e.channel),
      ['system.heartbeat', 'system.heartbeat'],
    );
  });

  it('grants, queries and revokes access (MGP §5)', async () => {
    assert.equal(
      (
        await run([
          'access',
          'grant',
          '--agent',
          'agent.research',
          '--server',
          'example',
          '--tool',
          'echo',
          '--permission',
          'deny',
          '--config',
          config,
        ])
      ).code,
      0,
    );
    const query = await run([
      'access',
      'query',
      '--agent',
      'agent.research',
      '--server',
      'example',
      '--tool',
      'echo',
      '--config',
      config,
      '--json',
    ]);
    assert.deepEqual(
      [JSON.parse(query.out).permission, JSON.parse(query.out).source],
      ['deny', 'tool_grant'],
    );
    assert.equal(
      (
        await run([
          'access',
          'revoke',
          '--agent',
          'agent.research',
          '--server',
          'example',
          '--tool',
          'echo',
          '--config',
          config,
        ])
      ).code,
      0,
    );
  });

  it("records everything in the workspace's audit log, which tails and verifies", async () => {
    const tail = await run(['audit', 'tail', '-n', '200', '--json', '--cwd', dir]);
    assert.equal(tail.code, 0, tail.err);
    const types = new Set(
      tail.out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).event_type),
    );
    for (const type of [
      'TOOL_EXECUTED',
      'TOOL_BLOCKED',
      'PERMISSION_DENIED',
      'PERMISSION_GRANTED',
      'ACCESS_GRANTED',
      'ACCESS_REVOKED',
      'SERVER_CONNECTED',
    ])
      assert.ok(types.has(type), `${type} in ${[...types].join(', ')}`);
    const verify = await run(['audit', 'verify', '--json', '--cwd', dir]);
    assert.equal(verify.code, 0, verify.out);
    assert.equal(JSON.parse(verify.out).ok, true);
  });

  it('lists resources and prompts of one server', async () => {
    const resources = await run(['resources', '--server', 'example', '--config', config, '--json']);
    assert.equal(resources.code, 0);
    assert.deepEqual(
      JSON.parse(resources.out).map((r: { server: string; uri: string }) => [r.server, r.uri]),
      [['example', 'mgp-example://about']],
    );
    const prompts = await run(['prompts', '--server', 'example', '--config', config]);
    assert.match(prompts.out, /^example\tsummarize-notes\t/m);
  });

  it('asks on a terminal (a real pty) and does what the operator answers', () => {
    const cli = join(root, 'dist/cli.js');
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} call example delete_notes --config ${JSON.stringify(config)}`;
    // Four permissions of the example server first (y y y y), then the call itself (o: once).
    const answered = spawnSync('script', ['-qfec', command, '/dev/null'], {
      input: 'y\ny\ny\ny\no\n',
      encoding: 'utf8',
      env: { ...process.env, XDG_STATE_HOME: join(dir, 'state') },
      timeout: 30000,
    });
    assert.match(answered.stdout, /example wants to run delete_notes/);
    assert.match(answered.stdout, /risk: dangerous/);
    assert.match(answered.stdout, /description \(from the server, untrusted\)/);
    assert.match(answered.stdout, /Deleted \d+ notes?/);
    const refused = spawnSync('script', ['-qfec', command, '/dev/null'], {
      input: 'd\n',
      encoding: 'utf8',
      env: { ...process.env, XDG_STATE_HOME: join(dir, 'state') },
      timeout: 30000,
    });
    assert.match(refused.stdout, /1000 PERMISSION_DENIED/);
  });
});

describe('mgp CLI as bundled', function () {
  it('runs as the bundled dist/cli.js with a shebang', function () {
    const cli = join(root, 'dist/cli.js');
    const result = spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8' });
    if (result.error) throw result.error;
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout.trim(), /^\d+\.\d+\.\d+$/);
    assert.ok(
      execFileSync('head', ['-c', '19', cli], { encoding: 'utf8' }).startsWith(
        '#!/usr/bin/env node',
      ),
    );
  });
});
