/**
 * The editor's kernel as an A2A agent, when the user's own config says `[a2a] enabled = true`
 * (never a workspace file's: config/a2aServe.ts). It listens on 127.0.0.1 at `listen_port` (0: a
 * free one) under `listen_path`, with the server's own token (kept in secret storage: its holder is
 * `agent.a2a.peer`) and each `[[a2a.peers]]` token, and runs each task's agent loop on the model of
 * the settings (the OpenAI-compatible endpoint, else a VS Code language model). What needs an
 * approval is asked here, in the editor, like any agent's call. MGP: Show A2A Agent says where.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import {
  A2aFront,
  type A2aServeSettings,
  type ChatModel,
  isChatModel,
  type Kernel,
  resolvedPeers,
  serverSkills,
} from '../../kernel';
import type { EditorHost } from '../host/editorHost';
import { VscodeChatModel } from '../languageModels/lmChatModel';

const TOKEN_KEY = 'mgp.a2a.serverToken';

/** The settings' endpoint when it is configured, else the first VS Code language model. */
async function editorModel(kernel: Kernel): Promise<ChatModel | undefined> {
  const endpoint = kernel.models.available.find(isChatModel);
  if (endpoint) return endpoint;
  const [model] = await vscode.lm.selectChatModels({});
  return model
    ? new VscodeChatModel(model, 'An A2A peer sent MGP Kernel a task, and its agent runs it.')
    : undefined;
}

export class EditorA2a implements vscode.Disposable {
  private front: A2aFront | undefined;
  private serving = '';
  private model: ChatModel | undefined;
  private applying: Promise<void> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly host: EditorHost) {
    this.disposables.push(
      host.configs.onDidChange(() => this.apply()),
      vscode.commands.registerCommand('mgp.showA2aAgent', () => this.show()),
      // The model follows the settings (the endpoint's provider is rebuilt when they change).
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('mgp.models') && this.front)
          setTimeout(() => void this.chooseModel(), 0);
      }),
    );
    this.apply();
  }

  private apply(): void {
    this.applying = this.applying
      .then(() => this.follow())
      .catch((error: unknown) => {
        this.host.log.error(`a2a: ${error instanceof Error ? error.message : String(error)}`);
      });
  }

  /** Starts, restarts or stops the server as the config says. */
  private async follow(): Promise<void> {
    const settings = (await this.host.configs.config).a2aServe;
    const wanted = settings.enabled ? JSON.stringify(settings) : '';
    if (wanted === this.serving) return;
    await this.stop();
    if (!settings.enabled) return;
    await this.start(settings);
    this.serving = wanted;
  }

  private async start(settings: A2aServeSettings): Promise<void> {
    const { kernel, secrets, log } = this.host;
    const { peers, missing } = await resolvedPeers(settings.peers, process.env, secrets);
    for (const peer of missing) log.warn(`a2a: peer left out, its token is missing: ${peer}`);
    let token = await secrets.getRaw(TOKEN_KEY);
    if (!token) {
      token = randomBytes(32).toString('base64url');
      await secrets.storeRaw(TOKEN_KEY, token);
    }
    await this.chooseModel();
    this.front = await A2aFront.listen({
      kernel,
      model: () => this.model,
      port: settings.listenPort,
      token,
      peers,
      listenPath: settings.listenPath,
      name: 'MGP Kernel',
      description:
        'An agent on MGP Kernel in VS Code: its tools are MCP servers, every call goes through the kernel’s access control, approvals and audit trail.',
      skills: () => serverSkills(kernel),
      onLog: (message) => log.info(`a2a: ${message}`),
    });
    log.info(
      `a2a: serving at ${this.front.endpoint} (card ${this.front.url}/.well-known/agent-card.json) on ${this.model?.label ?? 'no model'}`,
    );
  }

  private async chooseModel(): Promise<void> {
    this.model = await editorModel(this.host.kernel);
  }

  private async stop(): Promise<void> {
    const front = this.front;
    this.front = undefined;
    this.serving = '';
    if (front) await front.close();
  }

  private async show(): Promise<void> {
    await this.applying;
    const front = this.front;
    if (!front) {
      const open = await vscode.window.showInformationMessage(
        'MGP Kernel is not serving A2A. Add [a2a] enabled = true to your own config (~/.config/mgp/servers.toml), not a workspace file.',
        'Open Config',
      );
      if (open) await vscode.commands.executeCommand('mgp.openConfig');
      return;
    }
    const card = `${front.url}/.well-known/agent-card.json`;
    const choice = await vscode.window.showInformationMessage(
      `MGP Kernel serves A2A at ${front.endpoint} (agent card: ${card}), on ${this.model?.label ?? 'no model: tasks fail until one is configured'}.`,
      'Copy Card URL',
      'Copy Token',
    );
    if (choice === 'Copy Card URL') await vscode.env.clipboard.writeText(card);
    if (choice === 'Copy Token') await vscode.env.clipboard.writeText(front.token);
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
    void this.stop();
  }
}
