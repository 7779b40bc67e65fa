/**
 * The model-provider interface the kernel routes completions to: MCP sampling (`sampling/createMessage`)
 * and MGP's `llm_completion` callback (MGP §13.4). The kernel holds the credentials; servers never do.
 */
export interface CompletionMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ModelHints {
  /** Names the server would prefer, in order (MCP modelPreferences.hints, MGP model_hints.provider). */
  names?: string[];
  provider?: string;
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

export interface CompletionRequest {
  messages: CompletionMessage[];
  systemPrompt?: string;
  maxTokens?: number;
  temperature?: number;
  stopSequences?: string[];
  hints?: ModelHints;
}

export interface CompletionResult {
  content: string;
  model: string;
  stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens' | string;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** What a provider says of the model it would use (MCPL §12.2). */
export interface ModelDescription {
  id: string;
  vendor: string;
  contextWindow?: number;
  capabilities: string[];
}

export interface ModelProvider {
  /** e.g. `vscode-lm`, `openai-compatible`. */
  readonly id: string;
  /** A person-readable name, e.g. "OpenAI-compatible endpoint at http://localhost:1234/v1". */
  readonly label: string;
  /** The model every request goes to, when the provider knows it before asking (the managed policy's `[models] allow` judges it). */
  readonly modelId?: string;
  /** How well the provider fits the hints; higher wins, undefined: cannot serve them. */
  match(hints: ModelHints | undefined): number | undefined;
  /** `onText`, when given, receives the answer's text as it streams (MCPL §11.4 inference/chunk). */
  complete(
    request: CompletionRequest,
    signal: AbortSignal,
    onText?: (delta: string) => void,
  ): Promise<CompletionResult>;
  /** The model a request without hints would get; undefined when it cannot say (MCPL §12). */
  describe?(): Promise<ModelDescription | undefined>;
}
