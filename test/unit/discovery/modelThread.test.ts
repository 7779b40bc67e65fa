import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { within } from '../../support/patience';

const discoveryDir = join(__dirname, '../../../client/src/kernel/discovery');

/** Runs `code` in a fresh node process and resolves with its exit code and output. */
function runNode(code: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (exitCode) => resolve({ code: exitCode, out }));
  });
}

describe("discovery: the model's thread", () => {
  before(function () {
    if (!existsSync(join(discoveryDir, 'modelWorker.js'))) this.skip();
  });

  it('holds the process open while a request waits, and never after it was answered', async () => {
    const thread = JSON.stringify(join(discoveryDir, 'modelThread.js'));
    const dir = JSON.stringify(discoveryDir);
    const { code, out } = await within(
      runNode(`
        const source = require(${thread}).modelThread(${dir});
        source([{ name: 'add', lead: 'Add two numbers', params: 'a b' }]).then((vectors) =>
          console.log('vectors', vectors.length, vectors[0].length > 0));
      `),
      'a process that used the model thread to end by itself',
    );
    assert.equal(code, 0, out);
    assert.match(out, /^vectors 1 true$/m);
  });
});
