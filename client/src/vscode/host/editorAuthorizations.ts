/**
 * How the editor signs in to a server (MCP 2025-11-25, Authorization): sign-ins kept in VS Code's
 * SecretStorage, the browser opened with `openExternal` and the loopback redirect made reachable
 * with `asExternalUri` (remote windows forward the port).
 */
import * as vscode from 'vscode';
import { Authorizations, AuthorizationStore, SecretKeyValue, type UserAgent } from '../../kernel';

class SecretStorageValues implements SecretKeyValue {
  readonly description = "VS Code's secret storage";

  constructor(private readonly storage: vscode.SecretStorage) {}

  async get(key: string): Promise<string | undefined> {
    return this.storage.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    await this.storage.store(key, value);
  }

  async delete(key: string): Promise<void> {
    await this.storage.delete(key);
  }
}

const browserUserAgent = (log: vscode.LogOutputChannel): UserAgent => ({
  async open(authorizationUrl) {
    log.info(`opening the browser to sign in at ${authorizationUrl.origin}`);
    // The exact string, not a vscode.Uri: a Uri decodes the query and encodes it again, which
    // splits a value holding `&` and turns an escaped `+` into a space (a server URL with a query,
    // as its resource indicator). The editor's openExternal passes a string through as written.
    const exact = authorizationUrl.href as unknown as vscode.Uri;
    const opened = await vscode.env.openExternal(exact);
    if (!opened) throw new Error('the browser was not opened: sign-in cancelled');
  },
  async externalRedirect(loopback) {
    return (await vscode.env.asExternalUri(vscode.Uri.parse(loopback, true))).toString(true);
  },
});

/** Sign-ins start only when the person asks (Sign In on the server, or the notification). */
export function editorAuthorizations(
  secrets: vscode.SecretStorage,
  log: vscode.LogOutputChannel,
): Authorizations {
  return new Authorizations({
    store: new AuthorizationStore(new SecretStorageValues(secrets)),
    userAgent: browserUserAgent(log),
    signInWithoutAsking: false,
  });
}
