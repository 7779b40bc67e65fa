/**
 * One task delegated to an external A2A agent, in an editor tab: its state and the states it passed
 * through, the messages both ways, the artifacts, and what the person can do: read it again
 * (`get_task`), answer the agent's question (`delegate` with the task id) and cancel it
 * (`cancel_task`). Each is a tool call through the kernel's pipeline in the person's name, so it is
 * approved and audited like any other; the page redraws as the kernel sees the task change.
 */
import * as vscode from 'vscode';
import {
  type AgentTaskAction,
  type AgentTaskFromWebview,
  type AgentTaskToWebview,
  isAgentTaskFromWebview,
} from '@shared/agentTaskMessages';
import { A2A_TOOLS, type Kernel } from '../../kernel';
import { OpenPanels, WebviewPanel } from '../common/webviewPanel';
import { agentTaskView } from './agentTaskView';

export class AgentTaskPanel extends WebviewPanel<AgentTaskToWebview, AgentTaskFromWebview> {
  private static readonly open = new OpenPanels<AgentTaskPanel>();
  private readonly refresh = this.coalesce(50, () => this.send());

  static show(
    extensionUri: vscode.Uri,
    kernel: Kernel,
    serverId: string,
    taskId: string,
  ): AgentTaskPanel {
    return AgentTaskPanel.open.show(
      `${serverId}\u0000${taskId}`,
      () => new AgentTaskPanel(extensionUri, kernel, serverId, taskId),
    );
  }

  static disposeAll(): void {
    AgentTaskPanel.open.disposeAll();
  }

  private constructor(
    extensionUri: vscode.Uri,
    private readonly kernel: Kernel,
    private readonly serverId: string,
    private readonly taskId: string,
  ) {
    super(
      extensionUri,
      {
        viewType: 'mgp.agentTask',
        title: `Task ${taskId.slice(0, 8)} · ${agentNameOf(kernel, serverId)}`,
        retainContextWhenHidden: true,
      },
      { title: `A2A task ${taskId}`, script: 'dist/agentTask.js', stylesheet: 'agentTask.css' },
      isAgentTaskFromWebview,
    );
    const stopWatching = kernel.a2a.onChange((changed) => {
      if (changed === serverId) this.refresh();
    });
    this.disposables.push(new vscode.Disposable(stopWatching));
  }

  protected receive(message: AgentTaskFromWebview): void {
    switch (message.type) {
      case 'ready':
        return this.send();
      case 'refresh':
        return void this.act('refresh', A2A_TOOLS.getTask, { task_id: this.taskId });
      case 'cancel':
        return void this.act('cancel', A2A_TOOLS.cancelTask, { task_id: this.taskId });
      case 'answer':
        return void this.act('answer', A2A_TOOLS.delegate, {
          task_id: this.taskId,
          message: message.text,
        });
    }
  }

  private send(): void {
    const record = this.kernel.a2a.taskOf(this.serverId, this.taskId);
    if (!record) {
      this.post({
        type: 'gone',
        message: `The kernel no longer keeps task ${this.taskId} of ${this.serverId}.`,
      });
      return;
    }
    const card = this.kernel.a2a.cardOf(this.serverId);
    this.post({
      type: 'show',
      task: agentTaskView(record, agentNameOf(this.kernel, this.serverId), card),
    });
  }

  /** A call of one of the agent's tools, through the pipeline; the directory redraws the page. */
  private async act(
    action: AgentTaskAction,
    toolName: string,
    args: Record<string, unknown>,
  ): Promise<void> {
    try {
      // The result's state is the task's: the directory has it, and the page shows it.
      await this.kernel.call({ serverId: this.serverId, toolName, args });
      this.post({ type: 'done', action });
    } catch (error) {
      this.post({
        type: 'done',
        action,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    this.send();
  }
}

/** The agent's name in the user's config, else its server id. */
export function agentNameOf(kernel: Kernel, serverId: string): string {
  return kernel.manager.find(serverId)?.config.a2a?.name ?? serverId;
}
