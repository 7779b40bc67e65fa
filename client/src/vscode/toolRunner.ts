import * as vscode from 'vscode';
import type { ServerManager } from '../kernel/lifecycle/serverManager';
import type { ServerNode } from './serversView';

/** Reading a resource and using a prompt; running a tool has its own panel (toolPanels/runToolPanel.ts). */

async function showMarkdown(content: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(document, {
    preview: true,
    viewColumn: vscode.ViewColumn.Beside,
  });
}

export async function readResource(manager: ServerManager, target?: ServerNode): Promise<void> {
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
  const result = await manager.get(serverId).session().readResource(uri);
  await showMarkdown(
    result.contents
      .map(
        (c) =>
          `# ${c.uri}\n\n${'text' in c ? c.text : `*(binary, ${c.mimeType ?? 'unknown type'})*`}`,
      )
      .join('\n\n'),
  );
}

export async function usePrompt(manager: ServerManager, target?: ServerNode): Promise<void> {
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
  for (const argument of prompt?.arguments ?? []) {
    const value = await vscode.window.showInputBox({
      title: `${name}: ${argument.name}`,
      prompt: argument.description,
      validateInput: (v) => (argument.required && !v ? `${argument.name} is required` : undefined),
    });
    if (value === undefined) return;
    if (value) args[argument.name] = value;
  }
  const result = await manager.get(serverId).session().getPrompt(name, args);
  await showMarkdown(
    result.messages
      .map(
        (m) =>
          `**${m.role}**\n\n${m.content.type === 'text' ? m.content.text : `*(${m.content.type})*`}`,
      )
      .join('\n\n---\n\n'),
  );
}
