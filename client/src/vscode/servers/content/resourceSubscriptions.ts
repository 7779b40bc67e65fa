/**
 * Subscribe / Unsubscribe on a resource, from its row in the Servers view or its open read-only
 * document (MCP 2025-11-25 resources/subscribe). The subscriptions are remembered per workspace and
 * taken again when the server connects; an update re-reads the open document (ServerContentProvider).
 */
import * as vscode from 'vscode';
import { RememberedSubscriptions, type ServerManager, type SubscriptionKey } from '../../../kernel';
import { RESOURCE_SCHEME } from './serverContent';
import type { ServerNode } from '../serversView';

const STORAGE_KEY = 'mgp.resourceSubscriptions';
/** The active editor's resource: 'subscribed', 'available' (may subscribe) or 'none'. */
const CONTEXT_KEY = 'mgp.activeResourceSubscription';

function workspaceStore(state: vscode.Memento) {
  return {
    load: () => state.get<SubscriptionKey[]>(STORAGE_KEY, []),
    save: (keys: readonly SubscriptionKey[]) => Promise.resolve(state.update(STORAGE_KEY, keys)),
  };
}

/** The resource a command was invoked on: a row, an open document's URI, or the active editor. */
function targetOf(target: unknown): SubscriptionKey | undefined {
  const node = target as ServerNode | undefined;
  if (node?.kind === 'item' && node.group === 'resources' && node.uri)
    return { serverId: node.serverId, uri: node.uri };
  const document =
    target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
  if (document?.scheme !== RESOURCE_SCHEME) return undefined;
  const uri = new URLSearchParams(document.query).get('uri');
  return uri ? { serverId: document.authority, uri } : undefined;
}

async function pick(
  keys: SubscriptionKey[],
  placeHolder: string,
): Promise<SubscriptionKey | undefined> {
  const picked = await vscode.window.showQuickPick(
    keys.map((key) => ({ label: key.uri, description: key.serverId, key })),
    { placeHolder },
  );
  return picked?.key;
}

export function registerResourceSubscriptions(
  manager: ServerManager,
  state: vscode.Memento,
): { subscriptions: RememberedSubscriptions; disposables: vscode.Disposable[] } {
  const subscriptions = new RememberedSubscriptions(manager, workspaceStore(state));
  const updateContext = () => {
    const key = targetOf(undefined);
    const value = !key
      ? 'none'
      : subscriptions.isSubscribed(key.serverId, key.uri)
        ? 'subscribed'
        : subscriptions.canSubscribe(key.serverId)
          ? 'available'
          : 'none';
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, value);
  };
  const subscribable = () =>
    manager
      .list()
      .filter((s) => subscriptions.canSubscribe(s.id))
      .flatMap((s) => s.resources.map((r) => ({ serverId: s.id, uri: r.uri })))
      .filter((k) => !subscriptions.isSubscribed(k.serverId, k.uri));
  const run = async (action: () => Promise<void>) => {
    try {
      await action();
    } catch (error) {
      void vscode.window.showWarningMessage(
        `Subscription failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  const offChange = subscriptions.onChange(updateContext);
  manager.bus.on('transition', updateContext);
  updateContext();
  return {
    subscriptions,
    disposables: [
      vscode.window.onDidChangeActiveTextEditor(updateContext),
      vscode.commands.registerCommand('mgp.subscribeResource', async (target?: unknown) => {
        const key = targetOf(target) ?? (await pick(subscribable(), 'Resource to subscribe to'));
        if (key) await run(() => subscriptions.subscribe(key.serverId, key.uri));
      }),
      vscode.commands.registerCommand('mgp.unsubscribeResource', async (target?: unknown) => {
        const key =
          targetOf(target) ?? (await pick(subscriptions.list(), 'Resource to unsubscribe from'));
        if (key) await run(() => subscriptions.unsubscribe(key.serverId, key.uri));
      }),
      {
        dispose: () => {
          offChange();
          manager.bus.off('transition', updateContext);
          subscriptions.dispose();
        },
      },
    ],
  };
}
