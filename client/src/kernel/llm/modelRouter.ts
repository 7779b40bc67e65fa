import { globPattern } from '../config/policyPatterns';
import { KernelError } from '../domain/errors';
import type { ChatModel } from './chatModel';
import type {
  CompletionRequest,
  CompletionResult,
  ModelHints,
  ModelProvider,
} from './modelProvider';

/** Picks the provider that fits a request's hints best; with none configured, a clear error. */
export class ModelRouter {
  private providers: ModelProvider[] = [];

  private configured: ModelProvider[] = [];
  private allowed: RegExp[] | undefined;

  setProviders(providers: ModelProvider[]): void {
    this.configured = [...providers];
    this.providers = this.configured.filter((provider) => this.permits(provider));
  }

  /**
   * The managed policy's `[models] allow`: only providers whose model matches a pattern are used; one
   * that cannot name its model before it is asked is not. Undefined: every model may be used.
   */
  allowModels(patterns: readonly string[] | undefined): void {
    this.allowed = patterns?.map(globPattern);
    this.setProviders(this.configured);
  }

  private permits(provider: ModelProvider): boolean {
    if (!this.allowed) return true;
    const model = provider.modelId;
    return model !== undefined && this.allowed.some((pattern) => pattern.test(model));
  }

  get available(): readonly ModelProvider[] {
    return this.providers;
  }

  choose(hints: ModelHints | undefined): ModelProvider {
    return this.best(this.providers, hints);
  }

  /**
   * The best fit among the providers that also chat with tools (ChatModel): what sampling with tools,
   * tool results or media needs.
   */
  chooseChat(hints: ModelHints | undefined): ModelProvider & ChatModel {
    const chatting = this.providers.filter(isChatModel);
    if (this.providers.length > 0 && chatting.length === 0)
      throw new KernelError(
        'NoModel',
        'no configured model takes tools, tool results or media: configure an OpenAI-compatible endpoint (mgp.models.openaiCompatible.url)',
      );
    return this.best(chatting, hints);
  }

  private best<P extends ModelProvider>(providers: readonly P[], hints: ModelHints | undefined): P {
    let best: { provider: P; score: number } | undefined;
    for (const provider of providers) {
      const score = provider.match(hints);
      if (score !== undefined && (!best || score > best.score)) best = { provider, score };
    }
    if (!best) {
      throw new KernelError(
        'NoModel',
        this.providers.length === 0 && this.configured.length > 0
          ? "no configured model is one the managed policy's [models] allow lets the kernel use"
          : this.providers.length === 0
            ? 'no model is configured: set mgp.models.openaiCompatible.url (and its key), or allow MGP Kernel to use a VS Code language model'
            : `no configured model fits the request's hints (${JSON.stringify(hints ?? {})})`,
      );
    }
    return best.provider;
  }

  complete(
    request: CompletionRequest,
    signal: AbortSignal,
    onText?: (delta: string) => void,
  ): Promise<CompletionResult> {
    return this.choose(request.hints).complete(request, signal, onText);
  }
}

export function isChatModel(provider: ModelProvider): provider is ModelProvider & ChatModel {
  return typeof (provider as Partial<ChatModel>).chat === 'function';
}
