/**
 * A delegated task as its page shows it (pure: tested in node). Everything the agent sent stays
 * text: file parts are named with their type and size, never opened or fetched from here.
 */
import type {
  AgentArtifactView,
  AgentMessageView,
  AgentPartView,
  AgentTaskView,
} from '@shared/agentTaskMessages';
import {
  type A2aPart,
  type A2aTaskRecord,
  type AgentCardSummary,
  DIALECT_NAMES,
  INTERRUPTED_STATES,
  TERMINAL_STATES,
} from '../../kernel';

/** The longest text one part shows; the rest is cut with a note. */
export const MAX_PART_CHARS = 50_000;

function bounded(text: string): string {
  return text.length > MAX_PART_CHARS
    ? `${text.slice(0, MAX_PART_CHARS)}\n… (${text.length - MAX_PART_CHARS} more characters)`
    : text;
}

function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes < 1024 ? `${bytes} bytes` : `${Math.round(bytes / 1024)} KiB`;
}

export function partView(part: A2aPart): AgentPartView {
  switch (part.kind) {
    case 'text':
      return { kind: 'text', text: bounded(part.text) };
    case 'data':
      return { kind: 'data', text: bounded(JSON.stringify(part.data, null, 2) ?? 'null') };
    case 'file': {
      const what = [part.name ?? 'a file', part.mimeType ?? 'unknown type'];
      if (part.bytes !== undefined) what.push(sizeOf(part.bytes));
      if (part.uri) what.push(`at ${part.uri}`);
      return { kind: 'file', text: what.join(' · ') };
    }
  }
}

/** The words of a message's text parts, for a one-line summary. */
export function textOfParts(parts: readonly A2aPart[]): string {
  return parts
    .map((part) => (part.kind === 'text' ? part.text : ''))
    .join(' ')
    .trim();
}

export function agentTaskView(
  record: A2aTaskRecord,
  agentName: string,
  card: AgentCardSummary | undefined,
): AgentTaskView {
  const { task } = record;
  const messages: AgentMessageView[] = task.history.map((message) => ({
    role: message.role,
    parts: message.parts.map(partView),
  }));
  const artifacts: AgentArtifactView[] = task.artifacts.map((artifact) => ({
    name: artifact.name,
    description: artifact.description,
    parts: artifact.parts.map(partView),
  }));
  const statusText = task.statusMessage ? textOfParts(task.statusMessage.parts) : undefined;
  return {
    serverId: record.serverId,
    agentName,
    cardName: card?.name,
    endpoint: card?.endpoint,
    dialect: card ? DIALECT_NAMES[card.dialect] : undefined,
    taskId: task.id,
    contextId: task.contextId,
    state: task.state,
    ended: TERMINAL_STATES.has(task.state),
    waiting: INTERRUPTED_STATES.has(task.state),
    statusText: statusText ? bounded(statusText) : undefined,
    firstMessage: record.message,
    startedAt: record.startedAt,
    updatedAt: record.updatedAt,
    states: record.states.map(({ state, at }) => ({ state, at })),
    messages,
    artifacts,
  };
}
