import * as vscode from 'vscode';
import type { Kernel } from '../../../kernel';
import { askWithCompletion } from './completionPick';
import { promptDocumentUri, resourceDocumentUri } from './serverContent';
import type { ServerNode } from '../serversView';

/** Reading a resource and using a prompt, as read-only documents; running a tool has its own panel. */

async function showDocument(uri: vscode.Uri): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, {
    preview: true,
    viewColumn: vscode.ViewColumn.Beside,
  });
}

/** A resource as a read-only document, read through the kernel from its server (a resource_link). */
export function openResourceDocument(
  serverId: string,
  resource: { uri: string; name?: string; mimeType?: string },
): Promise<void> {
  return showDocument(resourceDocumentUri(serverId, resource));
}

export async function readResource(kernel: Kernel, target?: ServerNode): Promise<void> {
  const manager = kernel.manager;
  let serverId = target?.kind === 'item' ? target.serverId : undefined;
  let uri = target?.kind === 'item' ? target.uri : undefined;
  if (!serverId || !uri) {
    const picked = await vscode.window.showQuickPick(
      manager.list().flatMap((s) =>
        s.resources.map((r) => ({
          label: r.name,
          description: r.uri,
          serverId: s.id,
          uri: r.uri,
        })),
      ),
      { placeHolder: 'Resource to read' },
    );
    if (!picked) return;
    [serverId, uri] = [picked.serverId, picked.uri];
  }
  const listed = manager.find(serverId)?.resources.find((r) => r.uri === uri);
  await showDocument(resourceDocumentUri(serverId, listed ?? { uri }));
}

export async function usePrompt(kernel: Kernel, target?: ServerNode): Promise<void> {
  const manager = kernel.manager;
  let serverId = target?.kind === 'item' ? target.serverId : undefined;
  let name = target?.kind === 'item' ? target.name : undefined;
  if (!serverId || !name) {
    const picked = await vscode.window.showQuickPick(
      manager
        .list()
        .flatMap((s) =>
          s.prompts.map((p) => ({ label: p.name, description: p.description, serverId: s.id })),
        ),
      { placeHolder: 'Prompt to use' },
    );
    if (!picked) return;
    [serverId, name] = [picked.serverId, picked.label];
  }
  const prompt = manager.get(serverId).prompts.find((p) => p.name === name);
  const args: Record<string, string> = {};
  const total = prompt?.arguments?.length ?? 0;
  for (const [i, argument] of (prompt?.arguments ?? []).entries()) {
    const value = await askWithCompletion(kernel, {
      serverId,
      ref: { type: 'ref/prompt', name },
      name: argument.name,
      title: `${name}: ${argument.name}${total > 1 ? ` (${i + 1}/${total})` : ''}`,
      description: argument.description,
      required: argument.required === true,
      chosen: { ...args },
    });
    if (value === undefined) return;
    if (value) args[argument.name] = value;
  }
  await showDocument(promptDocumentUri(serverId, name, args));
}
