import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../repoRoot';
import { cliPath } from './support/gatewayProcess';

const MIB = 1024 * 1024;

describe('mgp through a pipe: nothing written is lost at exit', function () {
  this.timeout(120000);
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-pipes-'));
    const fixture = join(repoRoot(), 'test/fixtures/servers/huge-message.js');
    writeFileSync(
      join(dir, 'mgp.toml'),
      [
        '[[servers]]',
        'id = "huge"',
        `command = ${JSON.stringify(process.execPath)}`,
        `args = [${JSON.stringify(fixture)}, "--mb", "4"]`,
        'tool_result_max_chars = 8000000',
      ].join('\n'),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a result of several megabytes reaches the reader whole, read slowly', async () => {
    const child = spawn(
      process.execPath,
      [
        cliPath,
        'call',
        'huge',
        'echo',
        '--args',
        '{"text":"a"}',
        '--config',
        join(dir, 'mgp.toml'),
      ],
      { env: { ...process.env, XDG_STATE_HOME: join(dir, 'state') } },
    );
    let bytes = 0;
    // A reader slower than the writer: the pipe fills, and the CLI must wait for it to drain.
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      child.stdout.pause();
      setImmediate(() => child.stdout.resume());
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0);
    assert.equal(bytes, 4 * MIB + 1, 'the text and its line break');
  });
});
