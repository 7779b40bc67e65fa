/**
 * The A2A vocabulary the kernel works in, whichever dialect a peer speaks: A2A 1.0 (the official
 * SDK's), A2A 0.3 (its compat module's), or OpenFang's (OpenFang, A2A Overview). Each dialect's
 * client converts to these shapes, so the delegation, its result and the views read one model.
 */

/** Which protocol a peer speaks, as its card says (never chosen by the user). */
export type A2aDialect = 'a2a-1.0' | 'a2a-0.3' | 'openfang';

export const DIALECT_NAMES: Record<A2aDialect, string> = {
  'a2a-1.0': 'A2A 1.0',
  'a2a-0.3': 'A2A 0.3',
  openfang: "OpenFang's A2A",
};

/** A2A task states, with A2A 0.3's spelling (OpenFang, Task States; A2A 1.0 TaskState). */
export type A2aTaskState =
  | 'submitted'
  | 'working'
  | 'input-required'
  | 'auth-required'
  | 'completed'
  | 'failed'
  | 'canceled'
  | 'rejected'
  | 'unknown';

export const TERMINAL_STATES: ReadonlySet<A2aTaskState> = new Set([
  'completed',
  'failed',
  'canceled',
  'rejected',
]);
/** The agent waits for its caller: the caller answers, never the kernel. */
export const INTERRUPTED_STATES: ReadonlySet<A2aTaskState> = new Set([
  'input-required',
  'auth-required',
]);

/** A message part (OpenFang, Message Format: Text, File, Data; A2A 1.0 Part). */
export type A2aPart =
  | { kind: 'text'; text: string }
  | { kind: 'file'; name?: string; mimeType?: string; bytes?: string; uri?: string }
  | { kind: 'data'; data: unknown; mimeType?: string };

export interface A2aMessage {
  role: 'user' | 'agent';
  parts: A2aPart[];
  messageId?: string;
}

export interface A2aArtifact {
  /** Unique within its task, when the agent gives one (A2A 1.0 `artifactId`). */
  id?: string;
  name?: string;
  description?: string;
  parts: A2aPart[];
}

/** A task as the kernel last saw it. */
export interface A2aTask {
  id: string;
  contextId?: string;
  state: A2aTaskState;
  /** The message that came with the current state (the agent's question when input is required). */
  statusMessage?: A2aMessage;
  /** Messages exchanged so far, oldest first (A2A history; OpenFang's `messages`). */
  history: A2aMessage[];
  artifacts: A2aArtifact[];
}

/** A skill from the card: the agent's words, bounded when read. */
export interface A2aSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
}

/** What the kernel read from an agent's card: the agent's words, untrusted. */
export interface AgentCardSummary {
  name: string;
  description: string;
  version?: string;
  dialect: A2aDialect;
  /** The protocol version the card names (`1.0`, `0.3.0`), when it names one. */
  protocolVersion?: string;
  /** Where requests go (the card's endpoint). */
  endpoint: string;
  /** Where the card was read. */
  cardUrl: string;
  streaming: boolean;
  skills: A2aSkill[];
}

/** What a delegation was asked: a message, maybe continuing a task or a context. */
export interface OutgoingMessage {
  text: string;
  taskId?: string;
  contextId?: string;
}

/** One dialect's client of one agent. */
export interface A2aPeer {
  readonly card: AgentCardSummary;
  /** Sends a message; returns the task (or the agent's direct answer as a finished task). */
  send(message: OutgoingMessage, signal: AbortSignal): Promise<A2aTask>;
  /** Sends over a stream; `update` hears every state the task passes through. Undefined: cannot stream. */
  stream?(
    message: OutgoingMessage,
    signal: AbortSignal,
    update: (task: A2aTask) => void,
  ): Promise<A2aTask>;
  get(taskId: string, signal: AbortSignal): Promise<A2aTask>;
  cancel(taskId: string, signal: AbortSignal): Promise<A2aTask>;
}
