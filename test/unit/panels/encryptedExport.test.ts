import { strict as assert } from 'node:assert';
import { directorySource } from '../../../client/src/vscode/auditTrail/auditSource';
import { decryptedText, encryptedExport } from '../../../client/src/vscode/auditTrail/traceFiles';
import type { AnchorKeyStore } from '../../../client/src/kernel/audit/anchorSeal';
import { traceKey } from '../../../client/src/kernel/audit/traceEncryption';
import { tempDir, writeLog } from '../audit/support';

function store(kind: string): AnchorKeyStore {
  const entries = new Map<string, string>();
  return {
    kind,
    description: kind === 'editor' ? "VS Code's secret storage" : 'the OS keyring',
    get: async (name) => entries.get(name),
    set: async (name, value) => void entries.set(name, value),
  };
}

describe('Audit Trail: encrypted exports (MCP draft §3)', () => {
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => (temp = tempDir('mgp-encrypted-export-')));
  afterEach(() => temp.remove());

  it('exports the filtered records encrypted, making the key once, and reads them back', async () => {
    await writeLog(temp.dir, 12);
    const keys = store('editor');
    const source = directorySource(temp.dir, keys);
    const plain: string[] = [];
    await source.export('jsonl', (chunk) => void plain.push(chunk), { types: ['TOOL_EXECUTED'] });
    const first = await encryptedExport(source, keys, { types: ['TOOL_EXECUTED'] });
    assert.equal(first.madeKey, true);
    assert.equal(first.count, 10, 'two of the twelve are blocks, filtered out');
    assert.doesNotMatch(first.text, /TOOL_EXECUTED/);
    assert.equal(JSON.parse(first.text).key_store, 'editor');
    assert.equal(await decryptedText(first.text, keys), plain.join(''));
    const second = await encryptedExport(source, keys, {});
    assert.equal(second.madeKey, false);
    assert.equal(second.count, 12);
  });

  it('says where the key is of a file the mgp command encrypted, and refuses amb-3body-xor', async () => {
    const cli = (await traceKey(store('cli'), true)).key!;
    const text = JSON.stringify(cli.encrypt(Buffer.from('x')));
    await assert.rejects(
      decryptedText(text, store('editor')),
      /decrypt it with `mgp audit decrypt FILE`/,
    );
    await assert.rejects(
      decryptedText('{"ciphertext":"AA==","algo":"amb-3body-xor"}', store('editor')),
      /amb-3body-xor is refused: it is not a vetted cipher/,
    );
    await assert.rejects(
      decryptedText(
        JSON.stringify((await traceKey(store('editor'), true)).key!.encrypt(Buffer.from('y'))),
        store('editor'),
      ),
      /there is no key to decrypt it with/,
    );
  });
});
