import { strict as assert } from 'node:assert';
import { runInIsolate } from '../../client/src/kernel/toolCreation/generatedServer';

// An endless loop runs until the engine's deadline (2 s) interrupts it.
describe('generated tools run in QuickJS (WebAssembly), within limits', function () {
  it('turns errors, endless loops and memory hogs into errors of the call', async () => {
    await assert.rejects(
      runInIsolate("throw new TypeError('bad input')", {}),
      (e: Error) => e.message === 'TypeError: bad input',
    );
    await assert.rejects(runInIsolate('for (;;) {}', {}), /interrupted/i);
    await assert.rejects(runInIsolate("let s = 'x'; for (;;) s += s;", {}), /too long|memory/i);
    await assert.rejects(
      runInIsolate('const a = []; for (;;) a.push({ x: [1, 2, 3] });', {}),
      /memory|interrupted/i,
    );
    await assert.rejects(runInIsolate('await new Promise(() => {})', {}), /never came/);
    assert.equal(await runInIsolate('return 1', {}), '1', 'the next call gets a fresh engine');
  });
});
