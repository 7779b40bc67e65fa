import * as vscode from 'vscode';
import type { AuditTrail, Kernel, KernelConfig, ServerManager } from '../kernel';
import { EditorHost } from './host/editorHost';
import type { LanguageServerState } from './host/languageClient';
import { REGISTRATIONS } from './registrations';

/** What activate() returns: for other extensions and for the extension-host test suite. */
export interface MgpKernelApi {
  readonly version: string;
  config(): Promise<KernelConfig>;
  readonly onDidChangeConfig: vscode.Event<KernelConfig>;
  languageServerState(): LanguageServerState;
  /** The running kernel's servers (read their state, tools, resources, prompts). */
  readonly servers: Pick<ServerManager, 'list' | 'get' | 'tools' | 'bus'>;
  /** The kernel itself: calls through its pipeline, approvals, access, audit. */
  readonly kernel: Kernel;
  readonly auditTrail: AuditTrail;
  /** Resolves when the current config has been applied (servers started or failed). */
  settled(): Promise<void>;
}

/**
 * The extension at work: the editor's host of the kernel, its views, commands, chat and language
 * client. Loaded only once activate() (extension.ts) found something to do: it brings the kernel and
 * the MCP SDK with it.
 */
export async function activateKernel(extension: vscode.ExtensionContext): Promise<MgpKernelApi> {
  const host = await EditorHost.open(extension);
  extension.subscriptions.push(host);
  for (const register of REGISTRATIONS) extension.subscriptions.push(...register(extension, host));
  host.start();
  host.log.info('MGP Kernel activated');
  return {
    version: extension.extension.packageJSON.version as string,
    config: () => host.configs.config,
    onDidChangeConfig: host.configs.onDidChange,
    languageServerState: () => host.languageServer.state,
    servers: host.kernel.manager,
    kernel: host.kernel,
    auditTrail: host.trail,
    settled: () => host.settled(),
  };
}
