import { strict as assert } from 'node:assert';
import {
  parseEncryptedTrace,
  TRACE_KEY_NAME,
  traceAlgorithmRefusal,
  traceKey,
} from '../../../client/src/kernel/audit/traceEncryption';
import type { AnchorKeyStore } from '../../../client/src/kernel/audit/anchorSeal';

function memoryStore(kind = 'cli'): AnchorKeyStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    kind,
    description: `a test store (${kind})`,
    entries,
    get: async (name) => entries.get(name),
    set: async (name, value) => void entries.set(name, value),
  };
}

const plaintext = Buffer.from('{"seq":1,"event_type":"TOOL_EXECUTED"}\n', 'utf8');

describe('encrypted traces (MCP draft §3): AES-256-GCM, the key with the user', () => {
  it('round-trips through the draft’s payload, and the file holds neither the key nor the text', async () => {
    const store = memoryStore();
    const { key } = await traceKey(store, true);
    assert.ok(key);
    const trace = key.encrypt(plaintext);
    assert.equal(trace.algo, 'aes-256-gcm');
    assert.equal(trace.key_store, 'cli');
    const file = JSON.stringify(trace);
    assert.doesNotMatch(file, /TOOL_EXECUTED/);
    assert.ok(!file.includes(store.entries.get(TRACE_KEY_NAME)!));
    assert.doesNotMatch(JSON.stringify(key), new RegExp(store.entries.get(TRACE_KEY_NAME)!));
    const again = (await traceKey(store, false)).key!;
    assert.deepEqual(again.decrypt(parseEncryptedTrace(file)), plaintext);
  });

  it('the same text encrypts differently each time (a fresh nonce)', async () => {
    const { key } = await traceKey(memoryStore(), true);
    assert.notEqual(key!.encrypt(plaintext).ciphertext, key!.encrypt(plaintext).ciphertext);
  });

  it('refuses a changed ciphertext, a changed key id, and another key', async () => {
    const { key } = await traceKey(memoryStore(), true);
    const trace = key!.encrypt(plaintext);
    const bytes = Buffer.from(trace.ciphertext, 'base64');
    bytes[20] ^= 1;
    assert.throws(
      () => key!.decrypt({ ...trace, ciphertext: bytes.toString('base64') }),
      /does not decrypt/,
    );
    assert.throws(() => key!.decrypt({ ...trace, key_id: '0'.repeat(16) }), /another key/);
    const other = (await traceKey(memoryStore('editor'), true)).key!;
    assert.throws(() => other.decrypt(trace), /another key/);
  });

  it('refuses amb-3body-xor with its reason, both to write and to read', () => {
    assert.match(traceAlgorithmRefusal('amb-3body-xor')!, /not a vetted cipher/);
    assert.equal(traceAlgorithmRefusal('aes-256-gcm'), undefined);
    assert.match(traceAlgorithmRefusal('rot13')!, /not an algorithm of encrypted traces/);
    const amb = JSON.stringify({ ciphertext: 'AAAA', algo: 'amb-3body-xor', amb_proof: {} });
    assert.throws(() => parseEncryptedTrace(amb), /amb-3body-xor is refused: it is not a vetted/);
  });

  it('says what is wrong with a file that is not an encrypted trace', () => {
    assert.throws(() => parseEncryptedTrace('not json'), /not JSON/);
    assert.throws(() => parseEncryptedTrace('[]'), /not an encrypted trace/);
    assert.throws(() => parseEncryptedTrace('{"ciphertext":"AA=="}'), /names no algorithm/);
    assert.throws(
      () => parseEncryptedTrace('{"ciphertext":"AA==","algo":"aes-256-gcm"}'),
      /which key/,
    );
  });

  it('without a key and not asked to make one, says so', async () => {
    const found = await traceKey(memoryStore(), false);
    assert.equal(found.key, undefined);
    assert.match(found.why!, /holds no key/);
  });
});
