/**
 * OAuth sign-in in the editor (MCP 2025-11-25, Authorization): sign-ins kept in VS Code's
 * SecretStorage, the browser opened with `openExternal` and the loopback redirect made reachable
 * with `asExternalUri` (remote windows forward the port); *Sign In to Server* on a server that asks,
 * a notification when one does, and *MGP: Sign Out of Server*.
 */
import * as vscode from 'vscode';
import {
  Authorizations,
  AuthorizationStore,
  type KernelBus,
  SecretKeyValue,
  type ServerManager,
  type UserAgent,
} from '../kernel';

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

async function pickServer(
  manager: ServerManager,
  target: unknown,
  placeHolder: string,
  remoteOnly: boolean,
): Promise<string | undefined> {
  if (typeof target === 'string') return target;
  const node = target as { kind?: string; server?: { id: string } } | undefined;
  if (node?.kind === 'server' && node.server) return node.server.id;
  const servers = manager
    .list()
    .filter((s) => !remoteOnly || s.config.transport !== 'stdio')
    .map((s) => ({ label: s.id, description: s.config.url }));
  if (servers.length === 0) {
    void vscode.window.showInformationMessage('No http or sse server is configured.');
    return undefined;
  }
  return (await vscode.window.showQuickPick(servers, { placeHolder }))?.label;
}

export function registerSignInCommands(
  manager: ServerManager,
  bus: KernelBus,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  const signIn = async (id: string) => {
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Signing in to ${id} in the browser…`,
        cancellable: false,
      },
      () => manager.signIn(id),
    );
    const server = manager.get(id);
    if (server.state === 'connected')
      void vscode.window.showInformationMessage(`Signed in to ${id}.`);
    else void vscode.window.showWarningMessage(`${id}: ${server.lastError ?? server.state}`);
  };
  const onTransition = (t: { server_id: string; reason: string; error?: string }) => {
    if (t.reason !== 'auth_required') return;
    void vscode.window
      .showInformationMessage(t.error ?? `${t.server_id} requires you to sign in`, 'Sign In')
      .then((answer) => (answer ? signIn(t.server_id) : undefined));
  };
  bus.on('transition', onTransition);
  return [
    { dispose: () => bus.off('transition', onTransition) },
    vscode.commands.registerCommand('mgp.signIn', async (target?: unknown) => {
      const id = await pickServer(manager, target, 'Server to sign in to', true);
      if (id) await signIn(id);
    }),
    vscode.commands.registerCommand('mgp.signOut', async (target?: unknown) => {
      const id = await pickServer(manager, target, 'Server to sign out of', true);
      if (!id) return;
      const had = await manager.signOut(id);
      log.info(`${id}: ${had ? 'signed out' : 'was not signed in'}`);
      void vscode.window.showInformationMessage(
        had ? `Signed out of ${id}.` : `${id} was not signed in.`,
      );
    }),
  ];
}
