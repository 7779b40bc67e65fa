import * as vscode from 'vscode';
import type { ServerManager } from '../../kernel';
import type { ServerNode } from './serversView';

/** The server id a command was invoked on: a Servers view row, an id (a link, a lens), or a pick. */
export async function pickServerId(
  manager: Pick<ServerManager, 'list'>,
  target: unknown,
  placeHolder: string,
): Promise<string | undefined> {
  if (typeof target === 'string') return target;
  const node = target as ServerNode | undefined;
  if (node?.kind === 'server') return node.server.id;
  if (node && 'serverId' in node) return node.serverId;
  const picked = await vscode.window.showQuickPick(
    manager.list().map((s) => ({ label: s.id, description: s.state })),
    { placeHolder },
  );
  return picked?.label;
}
