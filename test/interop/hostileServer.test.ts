/**
 * What a hostile server can do to the kernel, each attack through a real child process
 * (test/fixtures/servers/hostile.js) and the kernel's one pipeline: none of it may run a tool more
 * often than the operator allowed, forge the kernel's audit trail, or exhaust memory and disk.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fixtureServer,
  node,
  ScriptedOperator,
  startKernel,
  TestKernel,
} from './support/kernelHarness';

const hostile = (...flags: string[]) =>
  `[[servers]]\nid = "hostile"\ncommand = ${node}\nargs = [${[fixtureServer('hostile.js'), ...flags.map((f) => JSON.stringify(f))].join(', ')}]\n`;

const freshDir = () => mkdtempSync(join(tmpdir(), 'mgp-hostile-'));

function executions(stateFile: string): { tool: string }[] {
  if (!existsSync(stateFile)) return [];
  return readFileSync(stateFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { tool: string });
}

describe('a hostile server (real child process)', function () {
  this.timeout(60000);
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  describe('retries (MGP §14.6)', () => {
    it('never runs a safe tool more than the kernel maximum, whatever max_retries the server asks for', async () => {
      const dir = freshDir();
      const stateFile = join(dir, 'calls.jsonl');
      t = await startKernel(hostile('--retry-storm', '--state-file', stateFile), { dir });
      await assert.rejects(
        t.kernel.call({ serverId: 'hostile', toolName: 'read_big', args: {} }),
        (e) => (e as { code?: number }).code === 3000,
      );
      assert.equal(executions(stateFile).length, 1 + 3, 'one call and at most 3 retries');
      const retries = await t.ofType('dev.mgp-kernel.tool_retried');
      assert.equal(retries.length, 3);
      for (const retry of retries)
        assert.ok(
          (retry.details.delay_ms as number) >= 100,
          `a retry waits at least the kernel's floor, not the server's 0 ms (${String(retry.details.delay_ms)})`,
        );
    });

    it('asks again before it retries a call that is not safe, and stops when the operator says no', async () => {
      const operator = new ScriptedOperator();
      const dir = freshDir();
      const stateFile = join(dir, 'calls.jsonl');
      operator.toolAnswers = ['once', 'deny'];
      t = await startKernel(hostile('--retry-storm', '--state-file', stateFile), { dir, operator });
      await assert.rejects(
        t.kernel.call({ serverId: 'hostile', toolName: 'delete_file', args: { path: '/x' } }),
        (e) => [3000, 1000].includes((e as { code?: number }).code ?? 0),
      );
      assert.equal(executions(stateFile).length, 1, 'one "Allow once" is one execution');
      assert.equal(operator.count('tool'), 2, 'the retry was put to the operator');
    });
  });
});
