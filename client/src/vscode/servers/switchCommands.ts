/**
 * Turning servers and tools off and on: from a row of the Servers view (inline and context menu), or
 * from the palette, where "Turn Tools On or Off…" lists every tool with a tick for those on.
 */
import * as vscode from 'vscode';
import { oneLine } from '@shared/untrustedText';
import type { Kernel } from '../../kernel';
import type { ServerNode } from './serversView';

interface ToolRef {
  serverId: string;
  toolName: string;
}

/** The tool a command was invoked on: a tree row, or `{ serverId, toolName }`. */
function toolOf(target: unknown): ToolRef | undefined {
  const node = target as (ServerNode & { kind: 'item' }) | ToolRef | undefined;
  if (node && 'kind' in node && node.kind === 'item' && node.group === 'tools')
    return { serverId: node.serverId, toolName: node.name };
  if (node && 'toolName' in node) return node;
  return undefined;
}

async function serverOf(
  kernel: Kernel,
  target: unknown,
  currentlyOff: boolean,
  placeHolder: string,
): Promise<string | undefined> {
  if (typeof target === 'string') return target;
  const node = target as ServerNode | undefined;
  if (node?.kind === 'server') return node.server.id;
  const picked = await vscode.window.showQuickPick(
    kernel.manager
      .list()
      .filter((server) => kernel.switches.serverOff(server.id) === currentlyOff)
      .map((server) => ({ label: server.id, description: server.state })),
    { placeHolder },
  );
  return picked?.label;
}

/** Every tool of the connected servers, ticked when on; what the person changes is switched. */
async function chooseTools(kernel: Kernel): Promise<void> {
  const items = kernel.manager
    .list()
    .filter((server) => server.state === 'connected')
    .flatMap((server) =>
      server.tools.map((tool) => ({
        label: oneLine(tool.name),
        description: server.id,
        detail: tool.description === undefined ? undefined : oneLine(tool.description),
        picked: !kernel.switches.toolOff(server.id, tool.name),
        ref: { serverId: server.id, toolName: tool.name },
      })),
    );
  if (!items.length)
    return void vscode.window.showInformationMessage(
      'No server is running: no tool to turn on or off.',
    );
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    matchOnDescription: true,
    title: 'Turn tools on or off',
    placeHolder: 'Ticked tools are offered to you and to agents; the rest are off',
  });
  if (!picked) return;
  const on = new Set(picked.map((item) => item.ref));
  for (const item of items) {
    const enabled = on.has(item.ref);
    if (enabled !== item.picked)
      await kernel.switchboard.setTool(item.ref.serverId, item.ref.toolName, enabled);
  }
}

export function registerSwitchCommands(kernel: Kernel): vscode.Disposable[] {
  const onTool = (command: string, enabled: boolean) =>
    vscode.commands.registerCommand(command, async (target?: unknown) => {
      const tool = toolOf(target);
      if (tool) await kernel.switchboard.setTool(tool.serverId, tool.toolName, enabled);
      else await chooseTools(kernel);
    });
  const onServer = (command: string, enabled: boolean, placeHolder: string) =>
    vscode.commands.registerCommand(command, async (target?: unknown) => {
      const id = await serverOf(kernel, target, enabled, placeHolder);
      if (id) await kernel.switchboard.setServer(id, enabled);
    });
  return [
    onTool('mgp.disableTool', false),
    onTool('mgp.enableTool', true),
    onServer('mgp.disableServer', false, 'Server to turn off'),
    onServer('mgp.enableServer', true, 'Server to turn on'),
    vscode.commands.registerCommand('mgp.chooseTools', () => chooseTools(kernel)),
  ];
}
