import { strict as assert } from 'node:assert';
import {
  cl100kTokens,
  SessionToolCache,
  toEntry,
  toolDefinitionJson,
  toolTokens,
  type ToolIndexEntry,
} from '../../../client/src/kernel/discovery';
import { tool } from './fixtures';

/** A tool whose definition costs about `tokens` tokens with the fixed counter below. */
const sized = (name: string, size: number): ToolIndexEntry =>
  toEntry('s', tool(name, 'x'.repeat(size)), 'connected');
/** One token per character of description, so sizes are exact. */
const byDescription = (text: string) => JSON.parse(text).description.length;

describe('discovery: session cache and context budget', () => {
  it('counts tokens with the cl100k tokenizer over the JSON definition', () => {
    const entry = toEntry(
      'fs',
      tool('read_file', 'Read the contents of a file', {
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      }),
      'connected',
    );
    assert.equal(
      toolDefinitionJson(entry),
      '{"name":"read_file","description":"Read the contents of a file","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}',
    );
    assert.equal(cl100kTokens('hello world'), 2);
    const tokens = toolTokens(entry);
    assert.ok(tokens > 20 && tokens < 40, String(tokens));
  });

  it('evicts the least recently used cached tools when over the cache limit', () => {
    const cache = new SessionToolCache({
      budget: { max_tokens: 1000, pinned_reserve: 0, discovery_reserve: 0, cache_limit: 300 },
      countTokens: byDescription,
    });
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => sized(n, 100));
    cache.use(a);
    cache.use(b);
    cache.use(c);
    cache.use(a); // a is now the most recently used
    assert.deepEqual(cache.use(d), ['s.b']);
    assert.deepEqual(cache.snapshot().cached, ['s.d', 's.a', 's.c'], 'most recently used first');
    assert.equal(cache.snapshot().total_tokens, 300);
  });

  it('never evicts pinned tools; pinned tools over their reserve shrink the cache', () => {
    const cache = new SessionToolCache({
      budget: { max_tokens: 1000, pinned_reserve: 100, discovery_reserve: 300, cache_limit: 600 },
      countTokens: byDescription,
    });
    assert.equal(cache.cacheLimit, 600);
    cache.pin(sized('p1', 200));
    cache.pin(sized('p2', 200));
    assert.equal(cache.cacheLimit, 300, '1000 - 300 discovery - 400 pinned');
    for (const n of ['a', 'b', 'c', 'd']) cache.use(sized(n, 100));
    const snap = cache.snapshot();
    assert.deepEqual(snap.pinned, ['s.p1', 's.p2']);
    assert.deepEqual(snap.cached, ['s.d', 's.c', 's.b']);
    assert.equal(snap.total_tokens, 700);
    assert.equal(snap.max_tokens, 1000);
    const result = cache.evict(['s.p1', 'b', 'nope']);
    assert.deepEqual(result.evicted, ['s.b']);
    assert.deepEqual(result.refused, [
      { tool: 's.p1', reason: 'pinned' },
      { tool: 'nope', reason: 'not_cached' },
    ]);
    assert.ok(cache.isPinned('s.p1'));
    cache.use(sized('p1', 200));
    assert.deepEqual(
      cache.snapshot().cached,
      ['s.d', 's.c'],
      'using a pinned tool does not cache it',
    );
  });

  it('trims discovery results to the discovery reserve, keeping rank order', () => {
    const cache = new SessionToolCache({
      budget: { discovery_reserve: 250 },
      countTokens: byDescription,
    });
    const ranked = [sized('a', 100), sized('b', 100), sized('c', 100), sized('d', 10)];
    const { fitted, tokens } = cache.fitDiscovery(ranked);
    assert.deepEqual(
      fitted.map((e) => e.name),
      ['a', 'b'],
    );
    assert.equal(tokens, 200);
  });

  it('uses the MGP §16.8 defaults', () => {
    assert.deepEqual(new SessionToolCache().budget, {
      max_tokens: 8000,
      pinned_reserve: 2000,
      discovery_reserve: 3000,
      cache_limit: 3000,
    });
  });

  it('drops cached tools whose server went away', () => {
    const cache = new SessionToolCache({ countTokens: byDescription });
    const a = sized('a', 10);
    cache.use(a);
    cache.use(sized('b', 10));
    cache.refresh((id) => (id === 's.a' ? a : undefined));
    assert.deepEqual(cache.snapshot().cached, ['s.a']);
  });
});
