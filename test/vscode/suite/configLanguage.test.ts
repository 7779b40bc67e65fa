import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { waitForEvent } from './waitFor';

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the example workspace is open');
  return folder.uri.fsPath;
}

/** Opens a fresh config file and waits until the language server has published for it. */
async function openWithDiagnostics(
  relative: string,
  text: string,
  accept: (d: readonly vscode.Diagnostic[]) => boolean,
): Promise<{ document: vscode.TextDocument; diagnostics: readonly vscode.Diagnostic[] }> {
  const file = join(workspaceRoot(), relative);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  const uri = vscode.Uri.file(file);
  const published = waitForEvent(
    vscode.languages.onDidChangeDiagnostics,
    (e) =>
      e.uris.some((u) => u.toString() === uri.toString()) &&
      accept(vscode.languages.getDiagnostics(uri)),
    `diagnostics for ${relative}`,
  );
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document);
  if (!accept(vscode.languages.getDiagnostics(uri))) await published;
  return { document, diagnostics: vscode.languages.getDiagnostics(uri) };
}

describe('config language features in VS Code', () => {
  it('puts a schema error on the exact value and fixes it with the "did you mean" quick fix', async () => {
    const { document, diagnostics } = await openWithDiagnostics(
      'lang/enum/mgp.toml',
      '[[servers]]\nid = "x"\ncommand = "node"\ntransport = "stdoi"\n',
      (d) => d.length > 0,
    );
    const [diagnostic] = diagnostics;
    assert.equal(diagnostic.code, 'schema/enum');
    assert.deepEqual(
      [
        diagnostic.range.start.line,
        diagnostic.range.start.character,
        diagnostic.range.end.character,
      ],
      [3, 12, 19],
    );
    assert.match(diagnostic.message, /transport must be one of stdio, http, sse; got "stdoi"/);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      document.uri,
      diagnostic.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find((a) => a.title === 'Change to "stdio"');
    assert.ok(fix?.edit, `quick fixes: ${actions.map((a) => a.title).join(', ')}`);
    const cleared = waitForEvent(
      vscode.languages.onDidChangeDiagnostics,
      () => vscode.languages.getDiagnostics(document.uri).length === 0,
      'diagnostics to clear',
    );
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    await cleared;
    assert.match(document.getText(), /transport = "stdio"/);
  });

  it('moves a literal API key to secret storage with its quick fix', async () => {
    const { document, diagnostics } = await openWithDiagnostics(
      'lang/secret/mgp.toml',
      '[[servers]]\nid = "x"\ncommand = "node"\n[servers.env]\nOPENAI_API_KEY = "sk-proj-abcdefghijklmnopqrstuvwx1234"\n',
      (d) => d.some((x) => x.code === 'semantic/literal-secret'),
    );
    const secret = diagnostics.find((d) => d.code === 'semantic/literal-secret')!;
    assert.ok(!secret.message.includes('sk-proj'), 'the message does not repeat the secret');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      document.uri,
      secret.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const move = actions.find((a) => a.command?.command === 'mgp.moveSecretToStorage');
    assert.ok(move?.command, `quick fixes: ${actions.map((a) => a.title).join(', ')}`);
    await vscode.commands.executeCommand(move.command.command, ...(move.command.arguments ?? []));
    assert.match(document.getText(), /OPENAI_API_KEY = "\$\{secret:OPENAI_API_KEY\}"/);
    assert.ok(!document.getText().includes('sk-proj'));
  });

  it('documents keys on hover and lists servers as document symbols', async () => {
    const { document } = await openWithDiagnostics(
      'lang/hover/mgp.toml',
      '[[servers]]\nid = "alpha"\ncommand = "node"\n[servers.mgp]\nrestart_policy = "on_failure"\n',
      () => true,
    );
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      new vscode.Position(4, 2),
    );
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(text, /restart_policy/);
    assert.match(text, /§11\.6/);
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider',
      document.uri,
    );
    assert.deepEqual(
      symbols.map((s) => s.name),
      ['alpha'],
    );
  });

  it('gives a Cargo config.toml no diagnostics at all', async () => {
    const file = join(workspaceRoot(), 'lang/cargo/config.toml');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '[build]\ntarget = "wasm32\n');
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
    // A published-empty result and no result look the same; wait for a known document to be checked after it.
    await openWithDiagnostics('lang/after-cargo/mgp.toml', 'a = "open\n', (d) => d.length > 0);
    assert.deepEqual(vscode.languages.getDiagnostics(document.uri), []);
  });
});
