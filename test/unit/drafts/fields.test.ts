import { strict as assert } from 'node:assert';
import {
  declaredDraftFields,
  keepDeclaredDraftFields,
  seedRefusal,
  withSeed,
} from '../../../client/src/kernel/drafts/fields';

const seeded = {
  type: 'object',
  properties: { sides: { type: 'integer' }, seed: { type: 'integer' }, prng: { type: 'string' } },
};
const plain = { type: 'object', properties: { text: { type: 'string' } } };
const cognitive = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    agent_mode: { enum: ['implicit', 'explicit'] },
    algebra: { type: 'string' },
    resource_hints: { type: 'object' },
  },
};

describe('MCP draft request fields: only where the tool declares them', () => {
  it('names the draft fields a schema declares, and none of a schema without properties', () => {
    assert.deepEqual(declaredDraftFields(seeded), ['seed', 'prng']);
    assert.deepEqual(declaredDraftFields(cognitive), ['agent_mode', 'algebra', 'resource_hints']);
    assert.deepEqual(declaredDraftFields({ type: 'object' }), []);
    assert.deepEqual(declaredDraftFields(undefined), []);
  });

  it('leaves out a draft field the schema does not declare, and says which', () => {
    const args = { text: 'hi', seed: 42, agent_mode: 'implicit', algebra: 'I(A(R(O(K))))' };
    const { args: kept, dropped } = keepDeclaredDraftFields(plain, args);
    assert.deepEqual(kept, { text: 'hi' });
    assert.deepEqual(dropped, ['agent_mode', 'algebra', 'seed']);
    assert.equal(args.seed, 42, 'the caller’s object is not changed');
  });

  it('passes a declared field through as the caller gave it, the same object when nothing is left out', () => {
    const args = {
      query: 'q',
      agent_mode: 'explicit',
      resource_hints: { max_context: 32768, device: 'cpu' },
    };
    const kept = keepDeclaredDraftFields(cognitive, args);
    assert.equal(kept.args, args);
    assert.deepEqual(kept.dropped, []);
  });

  it('a property that only looks like a draft field is not one: it goes through untouched', () => {
    const args = { seeds: [1, 2], Seed: 3 };
    assert.deepEqual(keepDeclaredDraftFields(plain, args).dropped, []);
  });

  it('puts a seed (and a PRNG) into the arguments of a tool that declares them', () => {
    assert.deepEqual(withSeed(seeded, { sides: 6 }, { seed: 7, prng: 'lcg' }), {
      sides: 6,
      seed: 7,
      prng: 'lcg',
    });
    assert.deepEqual(withSeed(seeded, { sides: 6 }, {}), { sides: 6 });
  });

  it('refuses, with the reason, a seed or a PRNG for a tool that does not declare it', () => {
    assert.match(seedRefusal(plain, { seed: 1 }) ?? '', /declares no `seed`/);
    assert.match(seedRefusal({ properties: { seed: {} } }, { prng: 'lcg' }) ?? '', /no `prng`/);
    assert.equal(seedRefusal(seeded, { seed: 1, prng: 'xoroshiro' }), undefined);
    assert.throws(() => withSeed(plain, {}, { seed: 1 }), /declares no `seed`/);
  });
});
