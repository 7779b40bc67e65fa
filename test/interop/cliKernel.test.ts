import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../client/src/cli/main';
import { repoRoot } from '../repoRoot';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('mgp CLI on the same kernel (real servers)', function () {
  this.timeout(30000);
  let dir: string;
  let config: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-cli-kernel-'));
    config = join(dir, 'mgp.toml');
    const example = JSON.stringify(join(repoRoot(), 'examples/servers/dist/mgp-example-server.js'));
    writeFileSync(config, `[[servers]]\nid = "example"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${example}]\n\n[[servers]]\nid = "broken"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ["-e", "process.exit(4)"]\n[servers.mgp]\nrestart_policy = "never"\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists tools as stable JSON, and exits 1 because one server failed', async () => {
    const { code, out, err } = await run(['tools', '--config', config, '--json']);
    assert.equal(code, 1);
    const tools = JSON.parse(out) as { name: string; server: string; tool: string; inputSchema: unknown }[];
    assert.deepEqual(tools.map((t) => t.name), ['example.echo', 'example.add', 'example.write_note', 'example.list_notes']);
    assert.deepEqual(Object.keys(tools[0]).filter((k) => (tools[0] as Record<string, unknown>)[k] !== undefined), ['name', 'server', 'tool', 'description', 'inputSchema', 'annotations']);
    assert.match(err, /broken: error/);
  });

  it('calls a tool with --args and prints its result', async () => {
    const { code, out } = await run(['call', 'example', 'add', '--config', config, '--args', '{"a":20,"b":22}', '--json']);
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(out).structuredContent, { sum: 42 });
  });

  it('exits 1 when the tool reports isError, and 2 on bad --args', async () => {
    assert.equal((await run(['call', 'example', 'add', '--config', config, '--args', '{"a":"x","b":1}'])).code, 1);
    assert.equal((await run(['call', 'example', 'add', '--config', config, '--args', '{nope'])).code, 2);
  });

  it('lists resources and prompts of one server', async () => {
    const resources = await run(['resources', '--server', 'example', '--config', config, '--json']);
    assert.equal(resources.code, 0);
    assert.deepEqual(JSON.parse(resources.out).map((r: { server: string; uri: string }) => [r.server, r.uri]), [['example', 'mgp-example://about']]);
    const prompts = await run(['prompts', '--server', 'example', '--config', config]);
    assert.match(prompts.out, /^example\tsummarize-notes\t/m);
  });
});
