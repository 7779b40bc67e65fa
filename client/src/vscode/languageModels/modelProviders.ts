/**
 * The models the kernel may route sampling and `llm_completion` to, from the editor's settings: VS
 * Code's language models (`vscode.lm`, when allowed) and an OpenAI-compatible endpoint whose key is
 * kept in secret storage, bound to the origin it was entered for (modelKey.ts); and the embedding model at that endpoint, which the semantic discovery
 * strategy ranks with. Rebuilt when the settings change.
 */
import * as vscode from 'vscode';
import {
  type CompletionRequest,
  type CompletionResult,
  type EmbeddingEndpointOptions,
  exampleRequestSource,
  type MediaKind,
  type ModelDescription,
  type ModelHints,
  type ModelProvider,
  type ModelRouter,
  OpenAiCompatibleProvider,
  type ToolDiscovery,
} from '../../kernel';
import type { ModelKeys } from './modelKey';
import type { SecretStore } from '../host/secrets';

class LanguageModelProvider implements ModelProvider {
  readonly id = 'vscode-lm';
  readonly label = 'VS Code language models';

  match(hints: ModelHints | undefined): number {
    return hints?.provider && !/copilot|vscode/i.test(hints.provider) ? 0 : 1;
  }

  async describe(): Promise<ModelDescription | undefined> {
    const [model] = await vscode.lm.selectChatModels({});
    return model
      ? {
          id: model.id,
          vendor: model.vendor,
          contextWindow: model.maxInputTokens,
          capabilities: ['tools'],
        }
      : undefined;
  }

  async complete(
    request: CompletionRequest,
    signal: AbortSignal,
    onText?: (delta: string) => void,
  ): Promise<CompletionResult> {
    const [model] = await vscode.lm.selectChatModels(
      request.hints?.names?.length ? { family: request.hints.names[0] } : {},
    );
    const chosen = model ?? (await vscode.lm.selectChatModels({}))[0];
    if (!chosen)
      throw new Error(
        'no VS Code language model is available (install or sign in to a model provider)',
      );
    const messages = [
      ...(request.systemPrompt ? [vscode.LanguageModelChatMessage.User(request.systemPrompt)] : []),
      ...request.messages.map((m) =>
        m.role === 'assistant'
          ? vscode.LanguageModelChatMessage.Assistant(m.content)
          : vscode.LanguageModelChatMessage.User(m.content),
      ),
    ];
    const cancellation = new vscode.CancellationTokenSource();
    signal.addEventListener('abort', () => cancellation.cancel(), { once: true });
    const response = await chosen.sendRequest(
      messages,
      { justification: 'An MCP server asked MGP Kernel for a completion, and you approved it.' },
      cancellation.token,
    );
    let text = '';
    for await (const part of response.text) {
      text += part;
      onText?.(part);
    }
    return { content: text, model: `${chosen.vendor}/${chosen.family}`, stopReason: 'endTurn' };
  }
}

/** The chat endpoint of the settings (URL, model, the key from secret storage), or none. */
export async function chatEndpointFromSettings(
  keys: ModelKeys,
): Promise<{ baseUrl: string; model: string; apiKey?: ModelKeys['keyFor'] } | undefined> {
  const settings = vscode.workspace.getConfiguration('mgp.models');
  const url = settings.get<string>('openaiCompatible.url', '').trim();
  const model = settings.get<string>('openaiCompatible.model', '').trim();
  return url && model ? { baseUrl: url, model, apiKey: keys.keyFor } : undefined;
}

/** Calls `listener` when the model settings or the stored key change. */
export function onModelSettingsChange(
  secrets: SecretStore,
  listener: () => void,
): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeConfiguration(
      (event) => event.affectsConfiguration('mgp.models') && listener(),
    ),
    secrets.onDidChange(() => listener()),
  );
}

function providersFromSettings(keys: ModelKeys): ModelProvider[] {
  const settings = vscode.workspace.getConfiguration('mgp.models');
  const providers: ModelProvider[] = [];
  const url = settings.get<string>('openaiCompatible.url', '').trim();
  const model = settings.get<string>('openaiCompatible.model', '').trim();
  const inputs = settings
    .get<string[]>('openaiCompatible.inputs', [])
    .filter((kind): kind is MediaKind => kind === 'image' || kind === 'audio');
  if (url && model)
    providers.push(
      new OpenAiCompatibleProvider({ baseUrl: url, model, apiKey: keys.keyFor, inputs }),
    );
  if (
    settings.get<boolean>('useLanguageModels', true) &&
    typeof vscode.lm?.selectChatModels === 'function'
  )
    providers.push(new LanguageModelProvider());
  return providers;
}

/** The embeddings endpoint of the settings (the endpoint's embedding model), or none. */
function embeddingsFromSettings(keys: ModelKeys): EmbeddingEndpointOptions | undefined {
  const settings = vscode.workspace.getConfiguration('mgp.models');
  const url = settings.get<string>('openaiCompatible.url', '').trim();
  const model = settings.get<string>('openaiCompatible.embeddingModel', '').trim();
  return url && model ? { baseUrl: url, model, apiKey: keys.keyFor } : undefined;
}

export function watchModelSettings(
  router: ModelRouter,
  discovery: ToolDiscovery,
  keys: ModelKeys,
  log: vscode.LogOutputChannel,
  stateDir: string,
): vscode.Disposable {
  // The key is read at each request (modelKey.ts), so a changed key needs no rebuild here.
  const apply = () => {
    router.setProviders(providersFromSettings(keys));
    discovery.useEmbeddings(embeddingsFromSettings(keys));
    const examples = vscode.workspace.getConfiguration('mgp.models').get('exampleRequests', false);
    discovery.useExampleRequests(examples ? exampleRequestSource(stateDir, router) : undefined);
    log.info(
      `models: ${router.available.map((p) => p.label).join(', ') || 'none configured'}; semantic discovery: ${discovery.semanticRanker ?? 'keywords only'}`,
    );
  };
  apply();
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeConfiguration(
      (event) => event.affectsConfiguration('mgp.models') && apply(),
    ),
    vscode.commands.registerCommand('mgp.configureModel', async () => {
      const current = vscode.workspace.getConfiguration('mgp.models');
      const url = await vscode.window.showInputBox({
        title: 'OpenAI-compatible endpoint (1/3)',
        prompt: 'Base URL, e.g. http://localhost:11434/v1',
        value: current.get<string>('openaiCompatible.url', ''),
        ignoreFocusOut: true,
        validateInput: (v) => (/^https?:\/\/\S+$/.test(v) ? undefined : 'enter an http(s) URL'),
      });
      if (url === undefined) return;
      const model = await vscode.window.showInputBox({
        title: 'OpenAI-compatible endpoint (2/3)',
        prompt: 'Model name',
        value: current.get<string>('openaiCompatible.model', ''),
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : 'enter a model name'),
      });
      if (model === undefined) return;
      const key = await vscode.window.showInputBox({
        title: 'OpenAI-compatible endpoint (3/3)',
        prompt: 'API key (kept in secret storage; leave empty for none)',
        password: true,
        ignoreFocusOut: true,
      });
      if (key === undefined) return;
      await current.update('openaiCompatible.url', url, vscode.ConfigurationTarget.Global);
      await current.update(
        'openaiCompatible.model',
        model.trim(),
        vscode.ConfigurationTarget.Global,
      );
      await keys.store(url, key);
      apply();
    }),
  );
}
