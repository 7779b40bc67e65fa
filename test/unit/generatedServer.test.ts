import { strict as assert } from 'node:assert';
import { runInIsolate } from '../../client/src/kernel/toolCreation/generatedServer';

describe('generated tools run in QuickJS (WebAssembly), with no host object', function () {
  it('computes on a copy of args and returns text (a string as is, anything else as JSON)', async () => {
    assert.equal(await runInIsolate('return args.a * 2', { a: 21 }), '42');
    assert.equal(await runInIsolate("return 'x'.repeat(args.n)", { n: 3 }), 'xxx');
    assert.equal(
      await runInIsolate('const v = await Promise.resolve(args.list); return v.length', {
        list: [1, 2],
      }),
      '2',
    );
  });

  it('has nothing of the host: no process, require, module, Buffer, fetch or timers, also through Function', async () => {
    const seen = await runInIsolate(
      "const names = ['process', 'require', 'module', 'Buffer', 'fetch', 'setTimeout', 'setInterval', 'queueMicrotask'];\n" +
        "const g = Function('return this')();\n" +
        "return names.filter((n) => typeof g[n] !== 'undefined')",
      {},
    );
    assert.equal(seen, '[]');
  });
});
