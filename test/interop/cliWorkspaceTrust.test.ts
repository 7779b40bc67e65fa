import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { MemoryAuditSink } from '../../client/src/kernel/audit/auditSink';
import { stateDirectory } from '../../client/src/kernel/audit/location';
import { launchFingerprint } from '../../client/src/kernel/config/launchFingerprint';
import { loadKernelConfig } from '../../client/src/kernel/config/load';
import { LaunchApprovals } from '../../client/src/kernel/security/launchApprovals';
import { repoRoot } from '../repoRoot';
import { eventually, startScriptedModel } from './support/kernelHarness';

// A cloned repository whose mgp.toml runs `sh -c 'touch MARKER && exec node example-server'`: the
// marker says whether the repository's command ran. `mgp` is the built CLI in its own process, run in
// the repository as a person would, with a home and a state folder of its own.

const root = repoRoot();
const cli = join(root, 'dist/cli.js');
const example = join(root, 'examples/servers/dist/mgp-example-server.js');

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

describe('mgp in a cloned repository: its servers start only once you allowed them', () => {
  let home: string;
  let repo: string;
  let marker: string;
  let env: Record<string, string | undefined>;

  /** The repository's server: touches the marker, then runs the example server. */
  const evilToml = (extra = '') =>
    `[[servers]]\nid = "evil"\ncommand = "sh"\nargs = ["-c", "touch \\"$0\\" && exec \\"$1\\" \\"$2\\"${extra}", ${JSON.stringify(marker)}, ${JSON.stringify(process.execPath)}, ${JSON.stringify(example)}]\n`;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'mgp-trust-'));
    repo = join(home, 'repo');
    mkdirSync(repo);
    // Inside the repository: once allowed, a server writes there (its sandbox lets it), nowhere else.
    marker = join(repo, 'the-repository-ran-this');
    writeFileSync(join(repo, 'mgp.toml'), evilToml());
    env = { ...process.env, HOME: home, XDG_STATE_HOME: join(home, 'state') };
    delete env.MGP_PREAPPROVED_SERVERS;
    delete env.MGP_CONFIG_PATH;
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  /** `mgp ARGS` in the repository (or `cwd`), stdin a pipe (no terminal). */
  function mgp(args: string[], extraEnv: Record<string, string> = {}, cwd = repo): Promise<Ran> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [cli, ...args], {
        cwd,
        env: { ...env, ...extraEnv },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out, err }));
      child.stdin.end();
    });
  }

  /**
   * `mgp ARGS` in the repository on a real pty (script(1)), typing `input`, then no to the four
   * permissions the example server asks for once it runs; stdout holds stderr too.
   */
  function mgpOnTerminal(args: string[], input: string): string {
    const command = [process.execPath, cli, ...args].map((w) => JSON.stringify(w)).join(' ');
    const ran = spawnSync('script', ['-qfec', command, '/dev/null'], {
      input: `${input}${'n\n'.repeat(4)}`,
      cwd: repo,
      env,
      encoding: 'utf8',
      timeout: 60000,
    });
    return ran.stdout;
  }

  function assertRefused(ran: Ran): void {
    assert.equal(existsSync(marker), false, "the repository's command did not run");
    assert.match(ran.err, /MCP server evil comes from this folder and you have not allowed it/);
    assert.match(ran.err, /declared in .*repo\/mgp\.toml:1/);
    assert.match(
      ran.err,
      /stdio: sh -c 'touch "\$0" && exec "\$1" "\$2"' \S*the-repository-ran-this/,
    );
    assert.match(ran.err, /there is no terminal to ask you on/);
    assert.match(ran.err, /^ {2}mgp servers allow evil --cwd \S*\/repo$/m);
  }

  it('tools, call, discover and agent refuse to start it without a terminal, and say what to run', async () => {
    assertRefused(await mgp(['tools']));
    const call = await mgp(['call', 'evil', 'add', '--args', '{"a":1,"b":2}']);
    assert.equal(call.code, 3);
    assertRefused(call);
    assertRefused(await mgp(['discover', 'add two numbers']));
    const model = await startScriptedModel({ turns: [{ content: 'Done.' }] });
    try {
      assertRefused(
        await mgp(['agent', 'add 1 and 2'], { MGP_MODEL_URL: model.url, MGP_MODEL: 'scripted' }),
      );
    } finally {
      await model.close();
    }
  });

  /** `mgp serve` on stdio in the repository, driven by an SDK client that says yes to anything asked. */
  async function serve(args: string[]) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'serve', '--expose', 'all', ...args],
      cwd: repo,
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client(
      { name: 'Eager Client', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: {} };
    });
    await client.connect(transport);
    // Answered once the kernel has started (or held back) every server.
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    return { client, tools, stderr: () => stderr, asked };
  }

  it('mgp serve on stdio refuses it, and its MCP client cannot allow it; --trust starts it', async () => {
    const refused = await serve([]);
    try {
      assert.equal(existsSync(marker), false, "the repository's command did not run");
      assert.ok(!refused.tools.includes('add'), refused.tools.join(', '));
      await eventually(
        () => /^ {2}mgp servers allow evil --cwd /m.test(refused.stderr()),
        'the refusal on stderr',
      );
      assertRefused({ code: 0, out: '', err: refused.stderr() });
      assert.deepEqual(refused.asked, [], 'the client was not asked');
    } finally {
      await refused.client.close();
    }
    const trusted = await serve(['--trust']);
    try {
      assert.ok(existsSync(marker));
      assert.ok(trusted.tools.includes('add'), trusted.tools.join(', '));
    } finally {
      await trusted.client.close();
    }
  });

  it('--trust starts it for this run only; MGP_PREAPPROVED_SERVERS starts it', async () => {
    const trusted = await mgp(['tools', '--trust', '--json']);
    assert.equal(trusted.code, 0, trusted.err);
    assert.ok(existsSync(marker));
    const listed = (JSON.parse(trusted.out) as { tools: { name: string }[] }).tools;
    assert.ok(listed.some((t) => t.name === 'evil.add'));
    rmSync(marker);
    assertRefused(await mgp(['tools']));
    const preapproved = await mgp(['tools'], { MGP_PREAPPROVED_SERVERS: 'other, evil' });
    assert.equal(preapproved.code, 0, preapproved.err);
    assert.ok(existsSync(marker));
  });

  it('honours what the editor allowed, and asks again when the command line changes', async () => {
    // The editor's code path: its config (every workspace file, like ConfigService) and the record it
    // writes, here its approvals of before the record moved to the state folder.
    const config = await loadKernelConfig({ workspaceFolders: [repo], home, env: {} });
    const editor = new LaunchApprovals({
      stateDir: stateDirectory({ workspaceFolder: repo, env, home }),
      audit: new MemoryAuditSink(),
      operator: 'agent.vscode',
      env: {},
    });
    await editor.adopt({ evil: launchFingerprint(config.servers[0]) });
    const allowed = await mgp(['call', 'evil', 'add', '--args', '{"a":20,"b":22}', '--json']);
    assert.equal(allowed.code, 0, allowed.err);
    assert.deepEqual(JSON.parse(allowed.out).structuredContent, { sum: 42 });
    assert.ok(existsSync(marker));
    rmSync(marker);
    writeFileSync(join(repo, 'mgp.toml'), evilToml(' --quiet'));
    const changed = await mgp(['tools']);
    assert.equal(existsSync(marker), false);
    assert.match(changed.err, /MCP server evil from this folder changed since you allowed it/);
    assert.match(changed.err, /--quiet/);
  });

  it('mgp servers shows who waits; the command a refusal names records the yes, audited; revoke takes it back', async () => {
    const listed = await mgp(['servers']);
    assert.match(listed.out, /^evil\tstdio\t.*\twaits for your yes(\t.*)?$/m);
    // The command the refusal prints, run as printed, from another folder.
    const printed = /^ {2}mgp (servers allow .*)$/m.exec((await mgp(['tools'])).err)?.[1];
    assert.ok(printed);
    const allow = await mgp(printed.split(' '), {}, home);
    assert.equal(allow.code, 0, allow.err);
    assert.match(allow.out, /evil: allowed \(stdio: sh -c /);
    assert.equal(existsSync(marker), false, 'allowing starts nothing');
    const json = await mgp(['servers', '--json']);
    assert.equal(JSON.parse(json.out)[0].approval, 'allowed');
    const ran = await mgp(['tools']);
    assert.equal(ran.code, 0, ran.err);
    assert.ok(existsSync(marker));
    const audit = await mgp(['audit', 'tail', '--json', '-n', '100']);
    const grants = audit.out
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { event_type: string; result: string; details: { via: string } },
      )
      .filter((record) => record.event_type === 'dev.mgp-kernel.launch_approval');
    assert.deepEqual(
      grants.map((g) => [g.result, g.details.via]),
      [['ALLOWED', 'command']],
    );
    rmSync(marker);
    assert.equal((await mgp(['servers', 'revoke', 'evil'])).code, 0);
    assertRefused(await mgp(['tools']));
  });

  it('your own config needs no approval: servers.toml, MGP_CONFIG_PATH, --config FILE', async () => {
    const named = await mgp(['tools', '--config', join(repo, 'mgp.toml')]);
    assert.equal(named.code, 0, named.err);
    assert.ok(existsSync(marker));
    rmSync(marker);
    const fromEnv = await mgp(['tools', '--cwd', home], {
      MGP_CONFIG_PATH: join(repo, 'mgp.toml'),
    });
    assert.equal(fromEnv.code, 0, fromEnv.err);
    assert.ok(existsSync(marker));
    rmSync(marker);
    mkdirSync(join(home, '.config/mgp'), { recursive: true });
    writeFileSync(join(home, '.config/mgp/servers.toml'), evilToml());
    rmSync(join(repo, 'mgp.toml'));
    const own = await mgp(['tools']);
    assert.equal(own.code, 0, own.err);
    assert.ok(existsSync(marker));
  });

  it('asks on a terminal (a real pty), showing what would run; yes is remembered, once is not', () => {
    const declined = mgpOnTerminal(['tools'], 'n\n');
    assert.match(declined, /MCP server evil comes from this folder and you have not allowed it/);
    assert.match(declined, /declared in .*repo\/mgp\.toml:1/);
    assert.match(declined, /stdio: sh -c 'touch "\$0" && exec "\$1" "\$2"'/);
    assert.match(declined, /Start it\? \[y\]es/);
    assert.match(declined, /evil not started: you said no/);
    assert.equal(existsSync(marker), false);
    const once = mgpOnTerminal(['tools'], 'o\n');
    assert.match(once, /evil\.add/);
    assert.ok(existsSync(marker));
    rmSync(marker);
    const yes = mgpOnTerminal(['tools'], 'y\n');
    assert.match(yes, /evil\.add/);
    assert.ok(existsSync(marker));
    rmSync(marker);
    const again = mgpOnTerminal(['tools'], '');
    assert.doesNotMatch(again, /Start it\?/, 'remembered: not asked again');
    assert.ok(existsSync(marker));
    rmSync(marker);
    writeFileSync(join(repo, 'mgp.toml'), evilToml(' --quiet'));
    const changed = mgpOnTerminal(['tools'], '\n');
    assert.match(changed, /MCP server evil from this folder changed since you allowed it/);
    assert.equal(existsSync(marker), false);
  });
});
