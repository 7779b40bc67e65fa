/**
 * Messages between an A2A task's page (media/src/agentTask) and its host
 * (client/src/vscode/agents/agentTaskPanel.ts): one task delegated to an external agent, as the kernel
 * last saw it, and what the person does with it (refresh, answer a question, cancel).
 */

/** A message or artifact part as text: everything in it came from the agent, untrusted. */
export interface AgentPartView {
  kind: 'text' | 'data' | 'file';
  /** The text, the data as JSON, or the file's name, type and size (never its bytes). */
  text: string;
}

export interface AgentMessageView {
  role: 'user' | 'agent';
  parts: AgentPartView[];
}

export interface AgentArtifactView {
  name?: string;
  description?: string;
  parts: AgentPartView[];
}

export interface AgentTaskView {
  serverId: string;
  /** The agent's name in the user's config (trusted), and the name its card gives (the agent's). */
  agentName: string;
  cardName?: string;
  endpoint?: string;
  dialect?: string;
  taskId: string;
  contextId?: string;
  state: string;
  /** No more change will come (completed, failed, canceled, rejected). */
  ended: boolean;
  /** The agent waits for an answer (input-required) or for sign-in (auth-required). */
  waiting: boolean;
  /** The message that came with the current state: the agent's question when it waits. */
  statusText?: string;
  /** The first characters of the message that started the task. */
  firstMessage: string;
  startedAt: string;
  updatedAt: string;
  states: { state: string; at: string }[];
  messages: AgentMessageView[];
  artifacts: AgentArtifactView[];
}

/** Host → webview. */
export type AgentTaskToWebview =
  | { type: 'show'; task: AgentTaskView }
  | { type: 'gone'; message: string }
  | { type: 'done'; action: AgentTaskAction; error?: string };

export type AgentTaskAction = 'refresh' | 'cancel' | 'answer';

/** Webview → host. */
export type AgentTaskFromWebview =
  { type: 'ready' } | { type: 'refresh' } | { type: 'cancel' } | { type: 'answer'; text: string };

/** The longest answer the box sends. */
export const MAX_ANSWER_CHARS = 20_000;

export function isAgentTaskFromWebview(value: unknown): value is AgentTaskFromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  if (message.type === 'ready' || message.type === 'refresh' || message.type === 'cancel')
    return true;
  return (
    message.type === 'answer' &&
    typeof message.text === 'string' &&
    message.text.trim().length > 0 &&
    message.text.length <= MAX_ANSWER_CHARS
  );
}
