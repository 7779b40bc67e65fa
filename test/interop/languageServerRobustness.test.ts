import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { within } from '../support/patience';
import { LanguageServerProcess } from './lspClient';

/** After each bad document the server still answers a request, and has not exited. */
async function assertResponsive(server: LanguageServerProcess, uri: string): Promise<void> {
  await within(
    server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }),
    'an answer after the bad document',
  );
  assert.equal(server.exited, false, `the server exited; stderr:\n${server.stderr}`);
}

describe('language server under bad input (the real process)', function () {
  let server: LanguageServerProcess;
  let dir: string;
  let probe: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-lsp-bad-'));
    server = new LanguageServerProcess();
    await server.initialize();
    probe = await server.open(
      join(dir, 'probe', 'mgp.toml'),
      '[[servers]]\nid = "probe"\ncommand = "node"\n',
    );
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes a 10 MB file with a notice, and stays responsive', async () => {
    const line = '[[servers]]\nid = "s"\ncommand = "node"\n';
    const text = line.repeat(Math.ceil((10 * 1024 * 1024) / line.length));
    const uri = await server.open(join(dir, 'big', 'mgp.toml'), text);
    const [notice] = await server.diagnosticsFor(uri, (d) => d.length > 0);
    assert.equal(notice.code, 'not-checked');
    assert.match(notice.message, /10\.0 MB/);
    await assertResponsive(server, probe);
  });

  it('reports binary garbage as a syntax error', async () => {
    const uri = await server.open(
      join(dir, 'binary', 'mgp.toml'),
      randomBytes(64 * 1024).toString('latin1'),
    );
    const diagnostics = await server.diagnosticsFor(uri, (d) => d.length > 0);
    assert.equal(diagnostics[0].code, 'toml-syntax');
    await assertResponsive(server, probe);
  });

  it('survives 10,000-deep inline tables', async () => {
    const depth = 10000;
    const text = `[[servers]]\nid = "deep"\ncommand = "node"\nenv = ${'{ a = '.repeat(depth)}1${' }'.repeat(depth)}\n`;
    const uri = await server.open(join(dir, 'deep', 'mgp.toml'), text);
    const diagnostics = await server.diagnosticsFor(uri, (d) => d.length > 0);
    assert.equal(diagnostics[0].severity, 1);
    await assertResponsive(server, probe);
  });

  it('handles unterminated strings of every kind', async () => {
    for (const [name, text] of [
      ['basic', 'a = "open\n'],
      ['literal', "a = 'open\n"],
      ['multiline basic', 'a = """open\nmore\n'],
      ['multiline literal', "a = '''open\nmore\n"],
    ] as const) {
      const uri = await server.open(join(dir, name.replace(' ', '-'), 'mgp.toml'), text);
      const [diagnostic] = await server.diagnosticsFor(uri, (d) => d.length > 0);
      assert.equal(diagnostic.code, 'toml-syntax', name);
    }
    await assertResponsive(server, probe);
  });

  it('keeps up with a burst of 200 edits and publishes for the last one', async () => {
    const uri = await server.open(join(dir, 'burst', 'mgp.toml'), '');
    let version = 1;
    for (let i = 0; i < 200; i++)
      version = await server.change(
        uri,
        `[[servers]]\nid = "s${i}"\ncommand = "node"\ntransport = "${i === 199 ? 'bogus' : 'stdio'}"\n`,
      );
    const diagnostics = await server.diagnosticsFor(
      uri,
      (d) => d.some((x) => x.code === 'schema/enum'),
      version,
    );
    assert.equal(diagnostics.length, 1);
  });
});
