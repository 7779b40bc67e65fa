import type * as vscode from 'vscode';
import type { EditorHost } from '../host/editorHost';
import { registerEndpointChatProvider } from './endpointChatProvider';
import { ModelKeys } from './modelKey';
import {
  chatEndpointFromSettings,
  onModelSettingsChange,
  watchModelSettings,
} from './modelProviders';

/**
 * The language models of the settings: the kernel's providers and embeddings, follow the settings
 * and the endpoint's key; the endpoint is offered to VS Code's chat as a model too.
 */
export function registerLanguageModels(
  _context: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  const { kernel, secrets } = host;
  const keys = new ModelKeys(secrets);
  return [
    ...registerEndpointChatProvider(
      () => chatEndpointFromSettings(keys),
      (listener) => onModelSettingsChange(secrets, listener),
    ),
    watchModelSettings(kernel.models, kernel.discovery, keys, host.log, host.stateDir),
  ];
}
