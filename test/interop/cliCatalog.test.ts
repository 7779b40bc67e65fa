import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../client/src/cli/main';
import { everythingServer, node } from './support/kernelHarness';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
  });
  return { code, out, err };
}

describe('mgp resources, prompts and complete (server-everything)', function () {
  let dir: string;
  let config: string;
  let stateHome: string | undefined;
  const TEXT_TEMPLATE = 'demo://resource/dynamic/text/{resourceId}';

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-cli-catalog-'));
    stateHome = process.env.XDG_STATE_HOME;
    process.env.XDG_STATE_HOME = join(dir, 'state');
    config = join(dir, 'mgp.toml');
    writeFileSync(
      config,
      `[[servers]]\nid = "everything"\ncommand = ${node}\nargs = [${everythingServer}, "stdio"]\n`,
    );
  });
  after(() => {
    if (stateHome === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = stateHome;
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the templates, and reads one expanded with --arg', async () => {
    const templates = await run(['resources', 'templates', '--config', config, '--json']);
    assert.equal(templates.code, 0, templates.err);
    const listed = JSON.parse(templates.out) as { server: string; uriTemplate: string }[];
    assert.ok(listed.some((t) => t.server === 'everything' && t.uriTemplate === TEXT_TEMPLATE));
    const read = await run([
      'resources',
      'read',
      TEXT_TEMPLATE,
      '--arg',
      'resourceId=12',
      '--config',
      config,
    ]);
    assert.equal(read.code, 0, read.err);
    assert.match(read.out, /^Resource 12: This is a plaintext resource/);
  });

  it('a template without its variables, or with one it does not have, is bad usage', async () => {
    const missing = await run(['resources', 'read', TEXT_TEMPLATE, '--config', config]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /needs --arg resourceId=/);
    const unknown = await run([
      'resources',
      'read',
      TEXT_TEMPLATE,
      '--arg',
      'resourceId=1',
      '--arg',
      'x=2',
      '--config',
      config,
    ]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /no variable x/);
    const malformed = await run(['prompts', 'get', 'p', '--arg', 'novalue', '--config', config]);
    assert.equal(malformed.code, 2);
    assert.match(malformed.err, /--arg takes NAME=VALUE/);
  });

  it('completes a prompt argument, narrowed by --arg, then gets the prompt', async () => {
    const departments = await run([
      'complete',
      'department',
      'S',
      '--server',
      'everything',
      '--prompt',
      'completable-prompt',
      '--config',
      config,
    ]);
    assert.equal(departments.code, 0, departments.err);
    assert.deepEqual(departments.out.trim().split('\n'), ['Sales', 'Support']);
    const names = await run([
      'complete',
      'name',
      '--server',
      'everything',
      '--prompt',
      'completable-prompt',
      '--arg',
      'department=Engineering',
      '--config',
      config,
      '--json',
    ]);
    assert.deepEqual(JSON.parse(names.out).values, ['Alice', 'Bob', 'Charlie']);
    const prompt = await run([
      'prompts',
      'get',
      'completable-prompt',
      '--arg',
      'department=Sales',
      '--arg',
      'name=Eve',
      '--config',
      config,
    ]);
    assert.equal(prompt.code, 0, prompt.err);
    assert.equal(prompt.out.trim(), 'user: Please promote Eve to the head of the Sales team.');
  });

  it('a prompt without its required arguments is bad usage that names them', async () => {
    const result = await run(['prompts', 'get', 'completable-prompt', '--config', config]);
    assert.equal(result.code, 2);
    assert.match(result.err, /needs --arg department=… --arg name=…/);
  });
});
