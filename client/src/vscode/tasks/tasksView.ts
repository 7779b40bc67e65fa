/**
 * The Tasks view (MCP 2025-11-25, Utilities: Tasks): every task the kernel knows of, with its status,
 * its last status message or progress, Cancel (tasks/cancel) while it runs and Open Result once it is
 * done. The ids of the tasks still running are kept in the workspace state, so after a window reload
 * each server is asked about them again (tasks/get) as it connects, besides its tasks/list.
 */
import * as vscode from 'vscode';
import { oneLine } from '@shared/untrustedText';
import {
  isTerminal,
  type KeptTask,
  type Kernel,
  type TaskBoard,
  type TaskRunRequest,
  taskSupportOf,
  type TrackedTask,
} from '../../kernel';
import type { EditorHost } from '../host/editorHost';

const KEPT_IDS = 'mgp.tasks.open';

const ICONS: Record<string, [string, string?]> = {
  working: ['sync~spin'],
  input_required: ['question', 'charts.yellow'],
  completed: ['pass', 'testing.iconPassed'],
  failed: ['error', 'testing.iconFailed'],
  cancelled: ['circle-slash'],
};

export class TasksView implements vscode.TreeDataProvider<TrackedTask>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Ids kept from before the reload, of servers not asked about them yet. */
  private readonly pending: Record<string, KeptTask[]>;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly kernel: Kernel,
    private readonly state: vscode.Memento,
  ) {
    this.pending = keptTasks(state.get<unknown>(KEPT_IDS, {}));
    const onChange = () => {
      this.changed.fire();
      void this.keep();
    };
    kernel.tasks.on('changed', onChange);
    this.stops.push(() => kernel.tasks.off('changed', onChange));
    const onTransition = (e: { server_id: string; new_state: string }) => {
      if (e.new_state === 'connected') void this.serverConnected(e.server_id);
    };
    kernel.manager.bus.on('transition', onTransition);
    this.stops.push(() => kernel.manager.bus.off('transition', onTransition));
    for (const server of kernel.manager.list())
      if (server.state === 'connected') void this.serverConnected(server.id);
  }

  get board(): TaskBoard {
    return this.kernel.tasks;
  }

  private async serverConnected(serverId: string): Promise<void> {
    const kept = this.pending[serverId] ?? [];
    delete this.pending[serverId];
    await this.board.adopt(serverId, kept).catch(() => undefined);
    await this.board.refresh().catch(() => undefined);
  }

  private keep(): Thenable<void> {
    return this.state.update(KEPT_IDS, { ...this.pending, ...this.board.keptIds() });
  }

  getChildren(parent?: TrackedTask): TrackedTask[] {
    return parent ? [] : this.board.list();
  }

  getTreeItem(tracked: TrackedTask): vscode.TreeItem {
    const { task } = tracked;
    const item = new vscode.TreeItem(
      `${oneLine(tracked.toolName ?? `task ${task.taskId.slice(0, 8)}`)}`,
      vscode.TreeItemCollapsibleState.None,
    );
    item.id = `${tracked.serverId}/${task.taskId}`;
    item.description = [tracked.serverId, statusText(tracked)].join(' · ');
    const [icon, colour] = ICONS[task.status] ?? ['circle-outline'];
    item.iconPath = new vscode.ThemeIcon(icon, colour ? new vscode.ThemeColor(colour) : undefined);
    item.contextValue = isTerminal(task.status) ? 'mgp.task.ended' : 'mgp.task.running';
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendText(`Task ${task.taskId} on ${tracked.serverId}\n\n`);
    tooltip.appendText(
      `Status: ${task.status}${task.statusMessage ? ` — ${task.statusMessage}` : ''}\n\n`,
    );
    tooltip.appendText(`Created ${new Date(task.createdAt).toLocaleString()}`);
    if (tracked.error) tooltip.appendText(`\n\n${tracked.error}`);
    item.tooltip = tooltip;
    if (task.status === 'completed' || task.status === 'failed')
      item.command = { command: 'mgp.openTaskResult', title: 'Open Result', arguments: [tracked] };
    return item;
  }

  dispose(): void {
    this.stops.forEach((stop) => stop());
    this.changed.dispose();
  }
}

function statusText(tracked: TrackedTask): string {
  const { task, progress } = tracked;
  const status = task.status.replace('_', ' ');
  if (isTerminal(task.status)) return status;
  const detail =
    progress?.message ??
    (progress?.total ? `${progress.progress}/${progress.total}` : undefined) ??
    task.statusMessage;
  return detail ? `${status}: ${oneLine(detail)}` : status;
}

/** Results open read-only, as documents of this scheme (never as unsaved, untitled files). */
const RESULT_SCHEME = 'mgp-task-result';

type TaskNames = Pick<TrackedTask, 'serverId' | 'taskId' | 'toolName'>;

function resultUri(tracked: TaskNames): vscode.Uri {
  const name = `${tracked.toolName ?? 'task'} ${tracked.taskId.slice(0, 8)}.md`;
  const query = new URLSearchParams({ server: tracked.serverId, task: tracked.taskId });
  return vscode.Uri.from({
    scheme: RESULT_SCHEME,
    path: `/${tracked.serverId}/${name}`,
    query: query.toString(),
  });
}

function resultProvider(board: TaskBoard): vscode.TextDocumentContentProvider {
  return {
    provideTextDocumentContent: async (uri) => {
      const query = new URLSearchParams(uri.query);
      const serverId = query.get('server') ?? '';
      const taskId = query.get('task') ?? '';
      const result = await board.result(serverId, taskId);
      return resultDocument(board.get(serverId, taskId) ?? { serverId, taskId }, result);
    },
  };
}

/** A result as a Markdown document: its text, then its structured content. */
function resultDocument(tracked: TaskNames, result: NonNullable<TrackedTask['result']>): string {
  const parts = [`# ${tracked.toolName ?? 'Task'} (${tracked.serverId}, task ${tracked.taskId})`];
  if (result.isError) parts.push('**The tool reported an error.**');
  for (const item of result.content ?? [])
    parts.push(item.type === 'text' ? item.text : `[${item.type}]`);
  if (result.structuredContent)
    parts.push('```json\n' + JSON.stringify(result.structuredContent, null, 2) + '\n```');
  return parts.join('\n\n');
}

async function openResult(tracked?: TrackedTask): Promise<void> {
  if (!tracked) return;
  try {
    const document = await vscode.workspace.openTextDocument(resultUri(tracked));
    await vscode.window.showTextDocument(document, { preview: true });
  } catch (error) {
    void vscode.window.showErrorMessage(
      `The result of task ${tracked.taskId} could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * Runs a tool as a task (through the kernel's checks) and shows it in the Tasks view once the server
 * made it. The Run Tool form's "Run as a task" calls this (and shows the outcome itself);
 * `mgp.runToolAsTask` asks for the tool and arguments itself.
 */
export function runToolAsTask(
  board: TaskBoard,
  request: TaskRunRequest,
): ReturnType<TaskBoard['run']> {
  const run = board.run(request);
  run.outcome.catch(() => undefined);
  run.created.then(
    () => vscode.commands.executeCommand('mgp.tasks.focus'),
    (error: unknown) =>
      void vscode.window.showErrorMessage(
        `${request.serverId}/${request.toolName} did not start as a task: ${error instanceof Error ? error.message : String(error)}`,
      ),
  );
  return run;
}

async function pickAndRun(kernel: Kernel): Promise<void> {
  const items = kernel.manager
    .list()
    .filter((server) => server.state === 'connected')
    .flatMap((server) =>
      server.tools
        .filter((tool) => taskSupportOf(tool) !== 'forbidden')
        .map((tool) => ({
          label: tool.name,
          description: `${server.id} · tasks ${taskSupportOf(tool)}`,
          detail: tool.description ? oneLine(tool.description) : undefined,
          serverId: server.id,
        })),
    );
  if (!items.length)
    return void vscode.window.showInformationMessage(
      'No connected server has a tool that runs as a task.',
    );
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Run Tool as Task',
    placeHolder: 'A tool that can run as an MCP task',
  });
  if (!picked) return;
  const raw = await vscode.window.showInputBox({
    title: `${picked.serverId}/${picked.label}: arguments`,
    prompt: 'The arguments, as a JSON object',
    value: '{}',
    validateInput: (text) => (jsonObject(text) ? undefined : 'A JSON object, e.g. {"to": 5}'),
  });
  const args = raw === undefined ? undefined : jsonObject(raw);
  if (!args) return;
  await runToolAsTask(kernel.tasks, {
    serverId: picked.serverId,
    toolName: picked.label,
    args,
  }).created.catch(() => undefined);
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The Tasks view (MCP tasks the kernel knows of), its commands and the results it opens. */
export function registerTasks(
  context: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  const kernel = host.kernel;
  const view = new TasksView(kernel, context.workspaceState);
  const board = kernel.tasks;
  return [
    view,
    vscode.window.registerTreeDataProvider('mgp.tasks', view),
    vscode.commands.registerCommand('mgp.refreshTasks', () => board.refresh()),
    vscode.commands.registerCommand('mgp.cancelTask', async (tracked?: TrackedTask) => {
      if (!tracked) return;
      await board.cancel(tracked.serverId, tracked.taskId).catch((error: unknown) => {
        void vscode.window.showErrorMessage(
          `Task ${tracked.taskId} could not be cancelled: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    }),
    vscode.commands.registerCommand('mgp.openTaskResult', (tracked?: TrackedTask) =>
      openResult(tracked),
    ),
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, resultProvider(board)),
    vscode.commands.registerCommand('mgp.runToolAsTask', () => pickAndRun(kernel)),
  ];
}

/** The tasks kept in the workspace state; an entry of an older form (a bare id) is read as one. */
function keptTasks(stored: unknown): Record<string, KeptTask[]> {
  const kept: Record<string, KeptTask[]> = {};
  if (typeof stored !== 'object' || stored === null) return kept;
  for (const [serverId, entries] of Object.entries(stored)) {
    if (!Array.isArray(entries)) continue;
    kept[serverId] = entries.flatMap((entry: unknown): KeptTask[] => {
      if (typeof entry === 'string') return [{ taskId: entry }];
      const { taskId, toolName } = (entry ?? {}) as Partial<KeptTask>;
      if (typeof taskId !== 'string') return [];
      return [{ taskId, ...(typeof toolName === 'string' && { toolName }) }];
    });
  }
  return kept;
}
