import { strict as assert } from 'node:assert';
import { performance } from 'node:perf_hooks';
import {
  runValidators,
  type ValidationInput,
} from '../../../client/src/kernel/security/validators';
import type { ValidatorName } from '../../../client/src/kernel/model/security';

const CALLS = 10_000;

/** Median time per call in microseconds, after a warm-up. */
async function medianMicros(
  names: ValidatorName[],
  input: ValidationInput,
  calls = CALLS,
): Promise<number> {
  for (let i = 0; i < Math.min(500, calls / 2); i++) await runValidators(names, input);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await runValidators(names, input);
    times.push((performance.now() - start) * 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const security = { risk_level: 'dangerous' as const, permissions_required: [], side_effects: [] };

describe('validators: time per call (median of 10,000, no DNS)', function () {
  this.timeout(60_000);

  const typical: [string, ValidatorName[], ValidationInput][] = [
    [
      'sandbox',
      ['sandbox'],
      {
        toolName: 'run_command',
        args: {
          command: 'git log --oneline -n 20 -- src/',
          cwd: '/work/project',
          timeout_ms: 30000,
        },
        security,
      },
    ],
    [
      'readonly',
      ['readonly'],
      {
        toolName: 'db_query',
        args: {
          sql: 'SELECT id, name FROM users WHERE created_at > ? ORDER BY id LIMIT 50',
          params: ['2024-01-01'],
        },
        security,
      },
    ],
    [
      'network_restricted',
      ['network_restricted'],
      {
        toolName: 'fetch',
        args: { url: 'https://93.184.216.34/index.html', max_length: 5000, raw: false },
        security,
      },
    ],
    [
      'code_safety',
      ['code_safety'],
      {
        toolName: 'run_python',
        args: {
          code: 'import json\nimport math\n\nvalues = [math.sqrt(i) for i in range(10)]\nprint(json.dumps(values))\n',
        },
        security: { ...security, code_safety: { level: 'strict', language: 'python' } },
      },
    ],
    [
      'all four',
      ['sandbox', 'readonly', 'network_restricted', 'code_safety'],
      {
        toolName: 'tool',
        args: { query: 'status of build 42', limit: 10, verbose: false },
        security,
      },
    ],
  ];

  for (const [label, names, input] of typical) {
    // SQL is parsed by real grammars (node-sql-parser), which costs about a millisecond a statement;
    // everything else targets 50 µs. The bounds leave room for a loaded test machine.
    const sql = label === 'readonly';
    const bound = sql ? 5000 : 150;
    it(`${label}: well under ${sql ? '2 ms (a SQL parse)' : '50 µs'} on a typical small argument object`, async () => {
      const median = await medianMicros(names, input, sql ? 1000 : CALLS);
      console.log(`      ${label}: median ${median.toFixed(1)} µs per call`);
      assert.ok(median < bound, `median ${median.toFixed(1)} µs`);
    });
  }
});

describe('validators: hostile inputs take linear time', function () {
  this.timeout(60_000);
  const hostile: [string, string][] = [
    ['rm and 60,000 flags', `rm ${'-r '.repeat(60_000)}`],
    ['100,000 redirections', '>'.repeat(100_000)],
    ['200,000 slashes', '/'.repeat(200_000)],
    ['100,000 backslashes', '\\'.repeat(100_000)],
    ['50,000 unclosed regex classes', '=/['.repeat(50_000)],
    ['30,000 UPDATEs', 'update '.repeat(30_000)],
    ['30,000 URLs', 'http://'.repeat(30_000)],
    ['15,000 import statements', 'import a:'.repeat(15_000)],
  ];
  const all: ValidatorName[] = ['sandbox', 'readonly', 'network_restricted', 'code_safety'];
  for (const [label, text] of hostile) {
    it(`${label}: five calls with all four validators in well under 5 s`, async () => {
      const started = performance.now();
      for (const key of ['command', 'body', 'sql', 'url', 'code']) {
        await runValidators(
          all,
          {
            toolName: 'tool',
            args: { [key]: text },
            security: { ...security, code_safety: { level: 'strict' } },
          },
          { resolveHost: async () => [] },
        );
      }
      const ms = performance.now() - started;
      assert.ok(ms < 5000, `${ms.toFixed(0)} ms for 5 calls`);
    });
  }
});
