import { strict as assert } from 'node:assert';
import {
  compareRuns,
  draftCallOptions,
  jobEventLine,
  jobSummary,
  repeatLine,
} from '../../../client/src/cli/callDrafts';
import { CALL_FLAGS, callOptions } from '../../../client/src/cli/callCommand';
import { parseCommandLine, UsageError } from '../../../client/src/cli/flags';
import type { StreamSnapshot } from '../../../client/src/kernel';

const parse = (...args: string[]) =>
  callOptions(parseCommandLine('mgp call', ['srv', 'tool', ...args], CALL_FLAGS));

const roll = (rolls: number[], seed: number | null) => ({
  content: [{ type: 'text', text: rolls.join(',') }],
  structuredContent: { rolls },
  _meta: { seed_used: seed, determinism: 'strict', at: Math.random() },
});

describe('mgp call: the MCP draft’s --seed, --prng and --repeat', () => {
  it('reads a seed, a PRNG and a repeat count', () => {
    assert.deepEqual(parse('--seed=-3', '--prng', 'xoroshiro', '--repeat', '10').drafts, {
      seed: -3,
      prng: 'xoroshiro',
      repeat: 10,
    });
    assert.deepEqual(parse().drafts, { seed: undefined, prng: undefined, repeat: undefined });
  });

  it('refuses what it cannot use, saying why', () => {
    assert.throws(() => parse('--seed', '1.5'), /--seed takes a whole number, not "1.5"/);
    assert.throws(() => parse('--seed', ''), UsageError);
    assert.throws(() => parse('--prng', 'mt19937'), /--prng takes lcg or xoroshiro/);
    assert.throws(() => parse('--repeat', '0'), /--repeat takes a whole number of at least 1/);
    assert.throws(() => parse('--repeat', '10001'), /at most 10000/);
    assert.throws(() => parse('--repeat', '2', '--stream'), /not with --stream or --task/);
    assert.throws(
      () => draftCallOptions({ seed: '1' }, { seed: 2 }),
      /--seed and a seed in --args: give it once/,
    );
  });

  it('compares runs by content, structured content and isError, never by _meta', () => {
    const report = compareRuns([roll([1, 2], 7), roll([1, 2], 7), roll([3, 4], 7)]);
    assert.deepEqual(report, { runs: 3, identical: 2, distinct: 2, seedsUsed: [7, 7, 7] });
    assert.equal(
      repeatLine(report, 7),
      'repeat: 2 of 3 results identical to the first (seed 7; seed_used 7; 2 distinct)',
    );
    assert.equal(
      repeatLine(compareRuns([roll([1], null)]), undefined),
      'repeat: 1 of 1 results identical to the first (no seed given; 1 distinct)',
    );
  });

  it('labels a job event by its phase, and sums the stream’s events up', () => {
    assert.equal(
      jobEventLine({
        id: 128,
        phase: 'verify',
        eventType: 'synthesis_token',
        payload: { content: 'x' },
      }),
      '[verify] synthesis_token #128: x',
    );
    assert.equal(jobEventLine({ eventType: 'event' }), '[no phase] event');
    const snapshot = {
      jobs: {
        events: [],
        phases: { observe: 2, abstract: 0, decide: 1, act: 0, verify: 0, none: 0 },
        duplicates: 1,
      },
    } as unknown as StreamSnapshot;
    assert.equal(
      jobSummary(snapshot),
      ', 3 job events (observe 2, decide 1); 1 replayed event dropped',
    );
    assert.equal(jobSummary({} as StreamSnapshot), '');
  });
});
