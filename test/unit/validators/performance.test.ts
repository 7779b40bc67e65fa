import { strict as assert } from 'node:assert';
import { performance } from 'node:perf_hooks';
import { runValidators, type ValidationInput } from '../../../client/src/kernel/security/validators';
import type { ValidatorName } from '../../../client/src/kernel/security/types';

const CALLS = 10_000;

/** Median time per call in microseconds, after a warm-up. */
async function medianMicros(names: ValidatorName[], input: ValidationInput): Promise<number> {
  for (let i = 0; i < 500; i++) await runValidators(names, input);
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
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
    ['sandbox', ['sandbox'], { toolName: 'run_command', args: { command: 'git log --oneline -n 20 -- src/', cwd: '/work/project', timeout_ms: 30000 }, security }],
    ['readonly', ['readonly'], { toolName: 'db_query', args: { sql: 'SELECT id, name FROM users WHERE created_at > ? ORDER BY id LIMIT 50', params: ['2024-01-01'] }, security }],
    ['network_restricted', ['network_restricted'], { toolName: 'fetch', args: { url: 'https://93.184.216.34/index.html', max_length: 5000, raw: false }, security }],
    ['code_safety', ['code_safety'], { toolName: 'run_python', args: { code: 'import json\nimport math\n\nvalues = [math.sqrt(i) for i in range(10)]\nprint(json.dumps(values))\n' }, security: { ...security, code_safety: { level: 'strict', language: 'python' } } }],
    ['all four', ['sandbox', 'readonly', 'network_restricted', 'code_safety'], { toolName: 'tool', args: { query: 'status of build 42', limit: 10, verbose: false }, security }],
  ];

  for (const [label, names, input] of typical) {
    it(`${label}: well under 50 µs on a typical small argument object`, async () => {
      const median = await medianMicros(names, input);
      console.log(`      ${label}: median ${median.toFixed(1)} µs per call`);
      // The target is 50 µs; the bound leaves room for a loaded test machine.
      assert.ok(median < 150, `median ${median.toFixed(1)} µs`);
    });
  }
});
