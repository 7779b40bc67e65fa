import { strict as assert } from 'node:assert';
import {
  ENTRY_MAX_CHARS,
  joinValue,
  partCount,
  splitValue,
} from '../../../client/src/kernel/auth/keyringChunks';

const readFrom = (entries: string[]) => async (index: number) => entries[index];

describe('keyring values cut into entries Windows can hold', () => {
  it('keeps a value that fits in one entry whole', async () => {
    const value = JSON.stringify({ tokens: { access_token: 'a'.repeat(1000) } });
    assert.deepEqual(splitValue(value), [value]);
    assert.equal(partCount(value), 1);
    assert.equal(await joinValue(value, readFrom([])), value);
  });

  it('cuts a long value into entries within the limit, and joins them back in order', async () => {
    for (const length of [ENTRY_MAX_CHARS + 1, 4000, 25_000]) {
      const value = Array.from({ length }, (_, i) => String.fromCharCode(33 + (i % 90))).join('');
      const entries = splitValue(value);
      assert.ok(entries.length > 1);
      for (const entry of entries) assert.ok(entry.length <= ENTRY_MAX_CHARS, `${entry.length}`);
      assert.equal(partCount(entries[0]), entries.length);
      assert.equal(await joinValue(entries[0], readFrom(entries)), value);
    }
  });

  it('a value missing one of its parts reads as absent, not as a shorter value', async () => {
    const entries = splitValue('x'.repeat(3000));
    assert.equal(await joinValue(entries[0], readFrom([entries[0], entries[1]])), undefined);
  });

  it('a short value that looks like a header is cut too, so it reads back as written', async () => {
    const value = '\u0001mgp-parts:3\nnot really';
    const entries = splitValue(value);
    assert.equal(await joinValue(entries[0], readFrom(entries)), value);
  });
});
