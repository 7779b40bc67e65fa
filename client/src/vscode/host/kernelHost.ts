import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import {
  type AuditShipper,
  shipAuditTrail,
  type AnchorKeyStore,
  auditDirectory,
  type AuditTrail,
  EDITOR_OPERATOR,
  Kernel,
  type KernelConfig,
  type LifecycleTransition,
  openAuditTrail,
  Redactor,
  stateDirectory,
} from '../../kernel';
import { workspaceFolderPaths } from './configService';
import { EditorInteraction } from '../interaction/editorInteraction';
import { editorAnchorKeys, type SecretStore } from './secrets';
import { editorAuthorizations } from './editorAuthorizations';
import type { ServerLogs } from './serverLogs';
import { StartGate } from './startGate';
import { CLIENT_HINTS_KEY, CLIENT_HINTS_SECTION, clientHintsSetting } from './clientHints';

/** The kernel inside VS Code, with what it was built with. */
export interface EditorKernel {
  kernel: Kernel;
  trail: AuditTrail;
  /** How the kernel asks its questions: dialogs and panels in the editor. */
  interaction: EditorInteraction;
  stateDir: string;
  /** Where the keys that seal the audit logs' chain.json are kept. */
  anchorKeys: AnchorKeyStore;
  /** The person's yes to workspace servers, shared with `mgp` in the same folder. */
  gate: StartGate;
  /** Ships the trail to the team's database (`[kernel.audit.postgres]`, read when the window opens). */
  shipper?: AuditShipper;
}

/**
 * One Kernel with the workspace's audit trail, asking its questions in the editor, started only as
 * the start gate allows, its servers' logs in their output channels.
 */
export async function openEditorKernel(
  extension: vscode.ExtensionContext,
  secrets: SecretStore,
  logs: ServerLogs,
  log: vscode.LogOutputChannel,
  config: KernelConfig | undefined,
): Promise<EditorKernel> {
  const location = {
    workspaceFolder: workspaceFolderPaths()[0],
    env: process.env,
    home: homedir(),
  };
  const stateDir = stateDirectory(location);
  const redactor = new Redactor();
  const anchorKeys = editorAnchorKeys(secrets);
  const trail = await openAuditTrail({
    directory: auditDirectory(location),
    fallback: `${auditDirectory(location)}-window-${process.pid}`,
    onHeld: (own) =>
      log.warn(
        `the workspace's audit log is held by another window; this window records to ${own}`,
      ),
    anchorKeys,
    rotateBytes: config?.kernel.audit.rotateBytes,
    retention: config?.kernel.audit.retention,
    redactor,
    onProblem: (message: string) => log.error(`audit: ${message}`),
  });
  const interaction = new EditorInteraction(extension.extensionUri, log);
  const gate = await StartGate.open(extension, stateDir, trail, log);
  const kernel = new Kernel({
    hostEnv: process.env,
    secrets,
    interaction,
    audit: trail,
    stateDir,
    workingFolder: location.workspaceFolder,
    operator: EDITOR_OPERATOR,
    roots: () =>
      (vscode.workspace.workspaceFolders ?? []).map((f) => ({
        uri: f.uri.toString(),
        name: f.name,
      })),
    mayStart: (server) => gate.mayStart(server),
    trace: (serverId) => logs.tracing(serverId),
    logLevel: vscode.workspace.getConfiguration('mgp').get<LoggingLevel>('serverLogLevel', 'info'),
    onSecrets: (values) => values.forEach((value) => redactor.addSecret(value)),
    authorization: editorAuthorizations(extension.secrets, log),
    clientHints: () =>
      clientHintsSetting(
        vscode.workspace.getConfiguration(CLIENT_HINTS_SECTION).inspect(CLIENT_HINTS_KEY),
      ),
  });
  gate.follow(() => kernel.manager.startHeld());
  log.info(`state and audit log in ${join(stateDir)}`);
  const shipper = config
    ? await shipAuditTrail(trail, {
        settings: config.kernel,
        secrets,
        env: process.env,
        stateRoot: dirname(stateDir),
        onProblem: (message) => log.warn(`audit: ${message}`),
      })
    : undefined;
  return { kernel, trail, interaction, stateDir, anchorKeys, gate, shipper };
}

/** Each server's log lines, traces and transitions in its output channel; roots follow the folders. */
export function followServers(kernel: Kernel, logs: ServerLogs): vscode.Disposable {
  const bus = kernel.manager.bus;
  bus.on('log', (line) => logs.append(line.server_id, line.level, line.message));
  bus.on('trace', (line) =>
    logs.trace(
      line.server_id,
      `${line.direction === 'send' ? '→' : '←'} ${JSON.stringify(line.message)}`,
    ),
  );
  bus.on('transition', (t: LifecycleTransition) =>
    logs.append(
      t.server_id,
      t.new_state === 'error' ? 'error' : 'info',
      `${t.previous_state} → ${t.new_state} (${t.reason})${t.error ? `: ${t.error}` : ''}`,
    ),
  );
  return vscode.workspace.onDidChangeWorkspaceFolders(() => kernel.manager.rootsChanged());
}
