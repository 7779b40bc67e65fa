/**
 * The official SDK's A2A 1.0 types (`@a2a-js/sdk`, protobuf-shaped: `Part.content.$case`,
 * `TaskState.TASK_STATE_*`) to the kernel's A2A model and back. Its 0.3 compat module converts the
 * 0.3 wire format to these same types, so one conversion serves both protocol versions.
 */
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import type { Artifact, Message, Part, Task } from '@a2a-js/sdk';
import type {
  A2aArtifact,
  A2aMessage,
  A2aPart,
  A2aTask,
  A2aTaskState,
  OutgoingMessage,
} from './types';

const STATES: Record<number, A2aTaskState> = {
  [TaskState.TASK_STATE_SUBMITTED]: 'submitted',
  [TaskState.TASK_STATE_WORKING]: 'working',
  [TaskState.TASK_STATE_COMPLETED]: 'completed',
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_CANCELED]: 'canceled',
  [TaskState.TASK_STATE_INPUT_REQUIRED]: 'input-required',
  [TaskState.TASK_STATE_REJECTED]: 'rejected',
  [TaskState.TASK_STATE_AUTH_REQUIRED]: 'auth-required',
};
const SDK_STATES = Object.fromEntries(
  Object.entries(STATES).map(([number, name]) => [name, Number(number) as TaskState]),
) as Record<A2aTaskState, TaskState>;

export function stateOf(state: TaskState | undefined): A2aTaskState {
  return (state !== undefined && STATES[state]) || 'unknown';
}

export function sdkState(state: A2aTaskState): TaskState {
  return SDK_STATES[state] ?? TaskState.TASK_STATE_UNSPECIFIED;
}

export function partOf(part: Part): A2aPart {
  const content = part.content;
  const mimeType = part.mediaType || undefined;
  const name = part.filename || undefined;
  switch (content?.$case) {
    case 'text':
      return { kind: 'text', text: content.value };
    case 'raw':
      return { kind: 'file', name, mimeType, bytes: Buffer.from(content.value).toString('base64') };
    case 'url':
      return { kind: 'file', name, mimeType, uri: content.value };
    case 'data':
      return { kind: 'data', data: content.value, mimeType };
    default:
      return { kind: 'text', text: '' };
  }
}

export function messageOf(message: Message): A2aMessage {
  return {
    role: message.role === Role.ROLE_USER ? 'user' : 'agent',
    parts: (message.parts ?? []).map(partOf),
    messageId: message.messageId || undefined,
  };
}

export function artifactOf(artifact: Artifact): A2aArtifact {
  return {
    id: artifact.artifactId || undefined,
    name: artifact.name || undefined,
    description: artifact.description || undefined,
    parts: (artifact.parts ?? []).map(partOf),
  };
}

export function taskOf(task: Task): A2aTask {
  return {
    id: task.id,
    contextId: task.contextId || undefined,
    state: stateOf(task.status?.state),
    statusMessage: task.status?.message ? messageOf(task.status.message) : undefined,
    history: (task.history ?? []).map(messageOf),
    artifacts: (task.artifacts ?? []).map(artifactOf),
  };
}

/** An agent that answered with a message and no task: a finished exchange. */
export function answeredTask(message: Message): A2aTask {
  const answer = messageOf(message);
  return {
    id: message.taskId || '',
    contextId: message.contextId || undefined,
    state: 'completed',
    statusMessage: answer,
    history: [answer],
    artifacts: [],
  };
}

export function sdkPart(part: A2aPart): Part {
  const base = { metadata: undefined, filename: '', mediaType: '' };
  switch (part.kind) {
    case 'text':
      return { ...base, content: { $case: 'text', value: part.text }, mediaType: 'text/plain' };
    case 'data':
      return {
        ...base,
        content: { $case: 'data', value: part.data },
        mediaType: part.mimeType ?? 'application/json',
      };
    case 'file':
      return {
        ...base,
        filename: part.name ?? '',
        mediaType: part.mimeType ?? '',
        content: part.uri
          ? { $case: 'url', value: part.uri }
          : { $case: 'raw', value: Buffer.from(part.bytes ?? '', 'base64') },
      };
  }
}

export function sdkMessage(
  message: A2aMessage,
  ids: { taskId?: string; contextId?: string } = {},
): Message {
  return {
    messageId: message.messageId ?? randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: message.role === 'user' ? Role.ROLE_USER : Role.ROLE_AGENT,
    parts: message.parts.map(sdkPart),
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function userMessage(outgoing: OutgoingMessage): Message {
  return sdkMessage(
    { role: 'user', parts: [{ kind: 'text', text: outgoing.text }] },
    { taskId: outgoing.taskId, contextId: outgoing.contextId },
  );
}
