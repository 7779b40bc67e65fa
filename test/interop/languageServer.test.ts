import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CodeAction,
  CodeLens,
  CompletionItem,
  DocumentSymbol,
  Hover,
  MarkupContent,
} from 'vscode-languageserver-protocol';
import { KernelStateNotification } from '@shared/lspMessages';
import { LanguageServerProcess } from './lspClient';

const VALID =
  '[[servers]]\nid = "demo"\ncommand = "node"\nargs = ["server.js"]\ntransport = "stdio"\n';

describe('language server over LSP (the real dist/server.js process)', function () {
  let server: LanguageServerProcess;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-lsp-'));
    server = new LanguageServerProcess();
    await server.initialize();
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes no diagnostics for a valid mgp.toml, then a syntax error at its position after a change', async () => {
    const uri = await server.open(join(dir, 'mgp.toml'), VALID);
    assert.deepEqual(await server.diagnosticsFor(uri), []);
    const version = await server.change(uri, '[[servers]]\nid = "demo\n');
    const [diagnostic] = await server.diagnosticsFor(uri, (d) => d.length > 0, version);
    assert.equal(diagnostic.code, 'toml-syntax');
    assert.equal(diagnostic.range.start.line, 1);
  });

  it('puts a schema error on the value with a human message', async () => {
    const uri = await server.open(
      join(dir, 'a', 'mgp.toml'),
      '[[servers]]\nid = "x"\nurl = "https://example.com/mcp"\ntransport = "carrier-pigeon"\n',
    );
    const diagnostics = await server.diagnosticsFor(uri, (d) => d.length > 0);
    const transport = diagnostics.find((d) => d.code === 'schema/enum');
    assert.ok(transport, JSON.stringify(diagnostics));
    assert.deepEqual(transport.range, {
      start: { line: 3, character: 12 },
      end: { line: 3, character: 28 },
    });
    assert.match(
      transport.message,
      /^transport must be one of stdio, http, sse; got "carrier-pigeon"/,
    );
  });

  it('offers a "did you mean" quick fix for a misspelled key', async () => {
    const text = '[[servers]]\nid = "x"\ncomand = "node"\n';
    const uri = await server.open(join(dir, 'b', 'mgp.toml'), text);
    const diagnostics = await server.diagnosticsFor(uri, (d) =>
      d.some((x) => x.code === 'schema/additionalProperties'),
    );
    const unknown = diagnostics.find((d) => d.code === 'schema/additionalProperties')!;
    assert.deepEqual(unknown.range.start, { line: 2, character: 0 });
    const actions = (await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: unknown.range,
      context: { diagnostics: [unknown] },
    })) as CodeAction[];
    const fix = actions.find((a) => a.title === 'Change to command');
    assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
    assert.deepEqual(fix.edit?.changes?.[uri], [{ range: unknown.range, newText: 'command' }]);
  });

  it('completes the keys of a [[servers]] table from the schema', async () => {
    const uri = await server.open(join(dir, 'c', 'mgp.toml'), '[[servers]]\nid = "x"\n\n');
    const items = (await server.connection.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: { line: 2, character: 0 },
    })) as CompletionItem[];
    const labels = items.map((i) => i.label);
    for (const key of ['command', 'args', 'transport', 'url', 'env', 'mgp'])
      assert.ok(labels.includes(key), `${key} in ${labels.join(', ')}`);
    assert.ok(!labels.includes('id'), 'id is already present');
  });

  it('completes enum values and permission names', async () => {
    const uri = await server.open(
      join(dir, 'd', 'mgp.toml'),
      '[[servers]]\nid = "x"\ntransport = "\n[servers.mgp]\npermissions_required = ["\n',
    );
    const transports = (await server.connection.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: { line: 2, character: 13 },
    })) as CompletionItem[];
    assert.deepEqual(transports.map((i) => i.label).sort(), ['http', 'sse', 'stdio']);
    const permissions = (await server.connection.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: { line: 4, character: 25 },
    })) as CompletionItem[];
    assert.ok(permissions.some((i) => i.label === 'filesystem.read'));
    assert.ok(permissions.some((i) => i.label === 'shell.execute'));
  });

  it('documents a key on hover, citing the spec', async () => {
    const uri = await server.open(
      join(dir, 'e', 'mgp.toml'),
      '[[servers]]\nid = "x"\ncommand = "node"\n[servers.mgp]\nrestart_policy = "on_failure"\n',
    );
    await server.diagnosticsFor(uri);
    const hover = (await server.connection.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: { line: 4, character: 3 },
    })) as Hover;
    const value = (hover.contents as MarkupContent).value;
    assert.match(value, /restart_policy/);
    assert.match(value, /§11\.6/);
    assert.match(value, /on_failure/);
  });

  it('lists servers in the outline', async () => {
    const uri = await server.open(
      join(dir, 'f', 'mgp.toml'),
      `${VALID}[servers.mgp]\ntrust_level = "standard"\n\n[[servers]]\nid = "remote"\nurl = "https://example.com/mcp"\ntransport = "http"\n`,
    );
    const symbols = (await server.connection.sendRequest('textDocument/documentSymbol', {
      textDocument: { uri },
    })) as DocumentSymbol[];
    assert.deepEqual(
      symbols.map((s) => [s.name, s.detail]),
      [
        ['demo', 'stdio · node'],
        ['remote', 'http · https://example.com/mcp'],
      ],
    );
    assert.deepEqual(
      symbols[0].children?.map((c) => c.name),
      ['mgp'],
    );
  });

  it('shows live kernel state: a start failure on the server header, undeclared feature sets, overridden servers', async () => {
    const path = join(dir, 'g', 'mgp.toml');
    const text = `${VALID}[servers.mcpl]\nenabled_feature_sets = ["memory.retrieval", "files.edit"]\n`;
    const uri = await server.open(path, text);
    await server.diagnosticsFor(uri);
    await server.connection.sendNotification(KernelStateNotification, {
      servers: [
        {
          id: 'demo',
          file: path,
          state: 'error',
          error: 'spawn node ENOENT',
          featureSets: [{ name: 'memory.retrieval' }],
        },
      ],
      shadowed: [{ id: 'demo', file: path, winnerFile: '/elsewhere/mgp.toml', winnerLine: 3 }],
    });
    const diagnostics = await server.diagnosticsFor(uri, (d) =>
      d.some((x) => String(x.code).startsWith('live/')),
    );
    const failed = diagnostics.find((d) => d.code === 'live/start-failed');
    assert.ok(failed);
    assert.deepEqual(failed.range, {
      start: { line: 0, character: 0 },
      end: { line: 0, character: 11 },
    });
    assert.match(failed.message, /spawn node ENOENT/);
    const undeclared = diagnostics.filter((d) => d.code === 'live/undeclared-feature-set');
    assert.equal(undeclared.length, 1);
    assert.match(undeclared[0].message, /"files\.edit".*-32003/);
    assert.ok(diagnostics.some((d) => d.code === 'live/overridden' && d.severity === 3));
  });

  it('offers to add a missing required key under the table header', async () => {
    const uri = await server.open(join(dir, 'i', 'mgp.toml'), '[[servers]]\ncommand = "node"\n');
    const diagnostics = await server.diagnosticsFor(uri, (d) =>
      d.some((x) => x.code === 'schema/required'),
    );
    const missing = diagnostics.find((d) => d.code === 'schema/required')!;
    assert.deepEqual(missing.range, {
      start: { line: 0, character: 0 },
      end: { line: 0, character: 11 },
    });
    const actions = (await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: missing.range,
      context: { diagnostics: [missing] },
    })) as CodeAction[];
    const add = actions.find((a) => a.title === 'Add the missing key "id"');
    assert.deepEqual(add?.edit?.changes?.[uri], [
      {
        range: { start: { line: 0, character: 11 }, end: { line: 0, character: 11 } },
        newText: '\nid = ""',
      },
    ]);
  });

  it('completes feature sets the connected server declares, and server ids', async () => {
    const path = join(dir, 'j', 'mgp.toml');
    const uri = await server.open(
      path,
      '[kernel]\npinned_tools = ["\n[[servers]]\nid = "mem"\ncommand = "node"\n[servers.mcpl]\nenabled_feature_sets = ["\n',
    );
    await server.connection.sendNotification(KernelStateNotification, {
      servers: [
        {
          id: 'mem',
          file: path,
          state: 'connected',
          toolCount: 4,
          featureSets: [
            { name: 'memory.retrieval', description: 'Retrieve memories' },
            { name: 'memory.proactive' },
          ],
        },
      ],
      shadowed: [],
    });
    const sets = (await server.connection.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: { line: 6, character: 24 },
    })) as CompletionItem[];
    assert.deepEqual(
      sets.map((i) => i.label),
      ['memory.retrieval', 'memory.proactive'],
    );
    const pinned = (await server.connection.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: { line: 1, character: 17 },
    })) as CompletionItem[];
    assert.ok(
      pinned.some((i) => i.label === 'mem.'),
      JSON.stringify(pinned.map((i) => i.label)),
    );
    const version = await server.change(uri, '[[servers]]\nid = "mem"\ncommand = "node"\n');
    await server.diagnosticsFor(uri, () => true, version);
    const hover = (await server.connection.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: { line: 0, character: 4 },
    })) as Hover;
    assert.match(
      (hover.contents as MarkupContent).value,
      /\*\*mem\*\* — connected[\s\S]*4 tool\(s\)[\s\S]*memory\.retrieval/,
    );
  });

  it('puts lenses over each server: live state, tool count, the actions that state allows, Validate for a command', async () => {
    const path = join(dir, 'k', 'mgp.toml');
    const uri = await server.open(
      path,
      `# mine\n${VALID}\n[[servers]]\nid = "broken"\ncommand = "nope"\n\n[[servers]]\nid = "elsewhere"\ncommand = "x"\n\n[[servers]]\nid = "remote"\nurl = "https://example.com/mcp"\n`,
    );
    await server.diagnosticsFor(uri);
    const refreshes = server.codeLensRefreshes;
    await server.connection.sendNotification(KernelStateNotification, {
      servers: [
        { id: 'demo', file: path, state: 'connected', toolCount: 12 },
        {
          id: 'broken',
          file: path,
          state: 'error',
          error: `boom: $(alert) missing\n${'x'.repeat(100)}`,
        },
        { id: 'elsewhere', file: '/other/mgp.toml', state: 'connected', toolCount: 1 },
        { id: 'remote', file: path, state: 'connected', toolCount: 2 },
      ],
      shadowed: [],
    });
    await server.codeLensRefreshAfter(refreshes);
    const lenses = (await server.connection.sendRequest('textDocument/codeLens', {
      textDocument: { uri },
    })) as CodeLens[];
    const shown = lenses.map((l) => [
      l.range.start.line,
      l.command?.title,
      l.command?.command,
      l.command?.arguments,
    ]);
    const error = `boom: $\u200b(alert) missing\\n${'x'.repeat(100)}`.slice(0, 79) + '…';
    assert.deepEqual(shown, [
      [1, '$(pass-filled) connected · 12 tools', 'mgp.showServerLog', ['demo']],
      [1, '$(debug-stop) Stop', 'mgp.stopServer', ['demo']],
      [1, '$(debug-restart) Restart', 'mgp.restartServer', ['demo']],
      [1, '$(checklist) Validate', 'mgp.validateServer', ['demo']],
      [7, `$(error) error · ${error}`, 'mgp.showServerLog', ['broken']],
      [7, '$(debug-start) Start', 'mgp.startServer', ['broken']],
      [7, '$(debug-restart) Restart', 'mgp.restartServer', ['broken']],
      [7, '$(checklist) Validate', 'mgp.validateServer', ['broken']],
      [15, '$(pass-filled) connected · 2 tools', 'mgp.showServerLog', ['remote']],
      [15, '$(debug-stop) Stop', 'mgp.stopServer', ['remote']],
      [15, '$(debug-restart) Restart', 'mgp.restartServer', ['remote']],
    ]);
  });

  it('leaves a config.toml that is not OpenFang alone', async () => {
    const uri = await server.open(join(dir, 'h', 'config.toml'), '[package]\nname = "x\n');
    assert.deepEqual(await server.diagnosticsFor(uri), []);
  });
});
