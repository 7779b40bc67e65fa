import * as vscode from 'vscode';
import { MOVE_SECRET_COMMAND, MoveSecretArgs } from '@shared/lspMessages';
import type { AnchorKeyStore, SecretSource } from '../../kernel';

const KEY_PREFIX = 'mgp.secret.';
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** `${secret:NAME}` values, kept in VS Code's SecretStorage (the OS keychain where there is one). */
export class SecretStore implements SecretSource {
  constructor(private readonly storage: vscode.SecretStorage) {}

  get(name: string): Promise<string | undefined> {
    return Promise.resolve(this.storage.get(KEY_PREFIX + name));
  }

  store(name: string, value: string): Promise<void> {
    return Promise.resolve(this.storage.store(KEY_PREFIX + name, value));
  }

  /** The extension's own secrets (the model endpoint's key), outside the `${secret:…}` namespace. */
  getRaw(key: string): Promise<string | undefined> {
    return Promise.resolve(this.storage.get(key));
  }

  storeRaw(key: string, value: string): Promise<void> {
    return Promise.resolve(value ? this.storage.store(key, value) : this.storage.delete(key));
  }

  get onDidChange(): vscode.Event<vscode.SecretStorageChangeEvent> {
    return this.storage.onDidChange;
  }
}

/** Where the editor keeps the keys that seal its audit logs' chain.json (audit/anchorSeal.ts). */
export function editorAnchorKeys(secrets: SecretStore): AnchorKeyStore {
  return {
    kind: 'editor',
    description: "VS Code's secret storage",
    get: (name) => secrets.getRaw(name),
    set: (name, value) => secrets.storeRaw(name, value),
  };
}

/**
 * The quick fix for a literal secret: stores the text under the diagnostic's range and replaces it
 * with a `${secret:NAME}` reference. The secret never passes through a log or the language server.
 */
export function registerMoveSecretCommand(
  secrets: SecretStore,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  return vscode.commands.registerCommand(MOVE_SECRET_COMMAND, async (args: MoveSecretArgs) => {
    if (!NAME.test(args.secretName))
      throw new Error(`"${args.secretName}" is not a valid secret name`);
    const uri = vscode.Uri.parse(args.uri);
    const document = await vscode.workspace.openTextDocument(uri);
    const range = new vscode.Range(
      args.range.start.line,
      args.range.start.character,
      args.range.end.line,
      args.range.end.character,
    );
    const secret = document.getText(range);
    if (!secret || secret.includes('${')) return;
    await secrets.store(args.secretName, secret);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, range, `\${secret:${args.secretName}}`);
    await vscode.workspace.applyEdit(edit);
    log.info(
      `stored a secret as \${secret:${args.secretName}} and replaced the literal in ${uri.fsPath}`,
    );
    void vscode.window.showInformationMessage(
      `Stored the secret as \${secret:${args.secretName}} in VS Code's secret storage. Save the file to keep the change.`,
    );
  });
}
