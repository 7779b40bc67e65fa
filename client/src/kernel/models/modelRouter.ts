import { KernelError } from '../model/errors';
import type {
  CompletionRequest,
  CompletionResult,
  ModelHints,
  ModelProvider,
} from './modelProvider';

/** Picks the provider that fits a request's hints best; with none configured, a clear error. */
export class ModelRouter {
  private providers: ModelProvider[] = [];

  setProviders(providers: ModelProvider[]): void {
    this.providers = [...providers];
  }

  get available(): readonly ModelProvider[] {
    return this.providers;
  }

  choose(hints: ModelHints | undefined): ModelProvider {
    let best: { provider: ModelProvider; score: number } | undefined;
    for (const provider of this.providers) {
      const score = provider.match(hints);
      if (score !== undefined && (!best || score > best.score)) best = { provider, score };
    }
    if (!best) {
      throw new KernelError(
        'NoModel',
        this.providers.length === 0
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
