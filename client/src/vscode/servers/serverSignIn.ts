/**
 * OAuth sign-in in the editor (MCP 2025-11-25, Authorization): *Sign In to Server* on a server that
 * asks, a notification when one does, and *MGP: Sign Out of Server*. How the editor signs in is
 * host/editorAuthorizations.ts.
 */
import * as vscode from 'vscode';
import type { KernelBus, ServerManager } from '../../kernel';

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
