import * as vscode from 'vscode';
import { A2A_TOOLS, A2A_SERVER_PREFIX, type Kernel } from '../../kernel';
import type { EditorHost } from '../host/editorHost';
import { AgentTaskPanel } from './agentTaskPanel';
import { type AgentNode, AgentsView } from './agentsView';

/** The agent a command was given (a row of the Agents view), or the one the person picks. */
async function agentIdOf(kernel: Kernel, target: unknown): Promise<string | undefined> {
  const node = target as Partial<AgentNode> | undefined;
  if (typeof node?.serverId === 'string') return node.serverId;
  const agents = kernel.manager.list().filter((server) => server.config.a2a);
  if (agents.length === 0) {
    void vscode.window.showInformationMessage(
      'No external agent is configured. Add an [[a2a.external_agents]] table to mgp.toml.',
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    agents.map((server) => ({
      label: server.config.a2a?.name ?? server.id,
      description: server.config.url,
      serverId: server.id,
    })),
    { placeHolder: 'Agent to delegate to' },
  );
  return picked?.serverId;
}

function taskOf(target: unknown): { serverId: string; taskId: string } | undefined {
  const node = target as Partial<AgentNode> | undefined;
  return node?.kind === 'task' && typeof node.serverId === 'string' && node.taskId
    ? { serverId: node.serverId, taskId: node.taskId }
    : undefined;
}

/**
 * The Agents view (external A2A agents, their skills and tasks), the task page, and delegation from
 * the editor: "Delegate to Agent…" opens Run Tool on the agent's `delegate`, so the call is approved
 * and audited like any tool call.
 */
export function registerAgents(
  context: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  const { kernel, gate } = host;
  const view = new AgentsView(kernel, (server) => gate.holdOf(server.config));
  const hasAgents = () =>
    void vscode.commands.executeCommand(
      'setContext',
      'mgp.hasAgents',
      kernel.manager.list().some((server) => server.id.startsWith(A2A_SERVER_PREFIX)),
    );
  hasAgents();
  kernel.manager.bus.on('servers', hasAgents);
  return [
    view,
    { dispose: () => kernel.manager.bus.off('servers', hasAgents) },
    { dispose: () => AgentTaskPanel.disposeAll() },
    vscode.window.createTreeView('mgp.agents', { treeDataProvider: view, showCollapseAll: true }),
    vscode.commands.registerCommand('mgp.delegateToAgent', async (target?: unknown) => {
      const serverId = await agentIdOf(kernel, target);
      if (serverId)
        await vscode.commands.executeCommand('mgp.runTool', {
          serverId,
          toolName: A2A_TOOLS.delegate,
        });
    }),
    vscode.commands.registerCommand('mgp.openAgentTask', (target?: unknown) => {
      const task = taskOf(target);
      if (task) AgentTaskPanel.show(context.extensionUri, kernel, task.serverId, task.taskId);
    }),
    vscode.commands.registerCommand('mgp.cancelAgentTask', async (target?: unknown) => {
      const task = taskOf(target);
      if (!task) return;
      try {
        await kernel.call({
          serverId: task.serverId,
          toolName: A2A_TOOLS.cancelTask,
          args: { task_id: task.taskId },
        });
      } catch (error) {
        void vscode.window.showErrorMessage(
          `Task ${task.taskId} was not cancelled: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }),
  ];
}
