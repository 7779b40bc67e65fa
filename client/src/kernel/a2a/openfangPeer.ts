/**
 * An agent that speaks OpenFang's A2A dialect (OpenFang, A2A API Endpoints): `tasks/send` as
 * JSON-RPC to `{endpoint}/tasks/send` with a `sessionId`, `GET {endpoint}/tasks/{id}` and
 * `POST {endpoint}/tasks/{id}/cancel`, parts typed by `type` (OpenFang, Message Format). The answer
 * is read whether it comes bare (as the guide's examples show it) or in a JSON-RPC envelope.
 */
import { randomUUID } from 'node:crypto';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { KernelError } from '../domain/errors';
import type {
  A2aArtifact,
  A2aMessage,
  A2aPart,
  A2aPeer,
  A2aTask,
  A2aTaskState,
  AgentCardSummary,
  OutgoingMessage,
} from './types';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const STATE_NAMES: Record<string, A2aTaskState> = {
  submitted: 'submitted',
  working: 'working',
  inputrequired: 'input-required',
  authrequired: 'auth-required',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'canceled',
  canceled: 'canceled',
  rejected: 'rejected',
};

/** `completed`, `Completed`, `input_required`, `InputRequired`, `{ "state": … }`: one state. */
export function openFangState(status: unknown): A2aTaskState {
  const raw = isObject(status) ? status.state : status;
  if (typeof raw !== 'string') return 'unknown';
  return STATE_NAMES[raw.toLowerCase().replace(/[-_\s]/g, '')] ?? 'unknown';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function openFangPart(part: unknown): A2aPart {
  if (!isObject(part)) return { kind: 'text', text: '' };
  const mimeType = text(part.mime_type) ?? text(part.mimeType);
  switch (part.type ?? part.kind) {
    case 'file':
      return { kind: 'file', name: text(part.name), mimeType, bytes: text(part.data) };
    case 'data':
      return { kind: 'data', data: part.data, mimeType };
    default:
      return { kind: 'text', text: text(part.text) ?? '' };
  }
}

function partsOf(value: unknown): A2aPart[] {
  return Array.isArray(value) ? value.map(openFangPart) : [];
}

function messageOf(value: unknown): A2aMessage {
  const message = isObject(value) ? value : {};
  return { role: message.role === 'user' ? 'user' : 'agent', parts: partsOf(message.parts) };
}

function artifactOf(value: unknown): A2aArtifact {
  const artifact = isObject(value) ? value : {};
  return { name: text(artifact.name), parts: partsOf(artifact.parts) };
}

export function openFangTask(value: unknown): A2aTask {
  if (!isObject(value) || typeof value.id !== 'string')
    throw new KernelError('A2a', 'the agent answered with something that is not a task');
  const history = Array.isArray(value.messages) ? value.messages.map(messageOf) : [];
  const status = isObject(value.status) ? value.status : undefined;
  const statusMessage = status?.message ? messageOf(status.message) : undefined;
  const lastAgent = [...history].reverse().find((m) => m.role === 'agent');
  return {
    id: value.id,
    contextId: text(value.sessionId),
    state: openFangState(value.status),
    statusMessage: statusMessage ?? lastAgent,
    history,
    artifacts: Array.isArray(value.artifacts) ? value.artifacts.map(artifactOf) : [],
  };
}

/** The outgoing part in OpenFang's shape. */
function wirePart(part: A2aPart): Json {
  switch (part.kind) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'data':
      return { type: 'data', mime_type: part.mimeType ?? 'application/json', data: part.data };
    case 'file':
      return {
        type: 'file',
        name: part.name ?? 'file',
        mime_type: part.mimeType ?? 'application/octet-stream',
        data: part.bytes ?? '',
      };
  }
}

export class OpenFangPeer implements A2aPeer {
  private readonly base: string;

  constructor(
    readonly card: AgentCardSummary,
    private readonly fetch: FetchLike,
  ) {
    this.base = card.endpoint.replace(/\/+$/, '');
  }

  private async exchange(url: string, init: RequestInit, what: string): Promise<A2aTask> {
    let response: Response;
    let body: unknown;
    try {
      response = await this.fetch(url, init);
      const textBody = await response.text();
      body = textBody ? JSON.parse(textBody) : undefined;
    } catch (error) {
      throw new KernelError(
        'A2a',
        `${what}: ${error instanceof SyntaxError ? 'the agent answered with invalid JSON' : error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (response.status === 404)
      throw new KernelError('A2a', `${what}: the agent does not know this task (404)`);
    if (isObject(body) && isObject(body.error))
      throw new KernelError(
        'A2a',
        `${what}: ${text(body.error.message) ?? 'the agent answered with an error'}`,
      );
    if (!response.ok) throw new KernelError('A2a', `${what}: HTTP ${response.status}`);
    return openFangTask(isObject(body) && 'result' in body ? body.result : body);
  }

  send(outgoing: OutgoingMessage, signal: AbortSignal): Promise<A2aTask> {
    const request = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tasks/send',
      params: {
        message: { role: 'user', parts: [wirePart({ kind: 'text', text: outgoing.text })] },
        sessionId: outgoing.contextId ?? randomUUID(),
        ...(outgoing.taskId ? { id: outgoing.taskId } : {}),
      },
    };
    return this.exchange(
      `${this.base}/tasks/send`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(request),
        signal,
      },
      'the agent refused the message',
    );
  }

  get(taskId: string, signal: AbortSignal): Promise<A2aTask> {
    return this.exchange(
      `${this.base}/tasks/${encodeURIComponent(taskId)}`,
      { method: 'GET', headers: { Accept: 'application/json' }, signal },
      `cannot read task ${taskId}`,
    );
  }

  cancel(taskId: string, signal: AbortSignal): Promise<A2aTask> {
    return this.exchange(
      `${this.base}/tasks/${encodeURIComponent(taskId)}/cancel`,
      { method: 'POST', headers: { Accept: 'application/json' }, signal },
      `cannot cancel task ${taskId}`,
    );
  }
}
