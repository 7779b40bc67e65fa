/**
 * An agent that speaks A2A 1.0 or 0.3, through the official SDK's client (`@a2a-js/sdk/client`):
 * JSON-RPC or HTTP+JSON as the card offers, its 0.3 compat transports for a 0.3 card. Every request
 * goes through the kernel's agent fetch (agentFetch.ts: destination guard, size bound, the key only
 * to the configured origin).
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import type { StreamResponse } from '@a2a-js/sdk';
import { KernelError } from '../domain/errors';
import { answeredTask, artifactOf, messageOf, stateOf, taskOf, userMessage } from './sdkParts';
import type { A2aPeer, A2aTask, AgentCardSummary, OutgoingMessage } from './types';

function failure(what: string, error: unknown): KernelError {
  if (error instanceof KernelError) return error;
  const text = error instanceof Error ? error.message : String(error);
  return new KernelError('A2a', `${what}: ${text}`);
}

export async function sdkPeer(
  card: AgentCardSummary,
  raw: Record<string, unknown>,
  fetch: FetchLike,
): Promise<A2aPeer> {
  const fetchImpl = fetch as typeof globalThis.fetch;
  const legacyCompat = { enabled: true };
  const resolver = new DefaultAgentCardResolver({ fetchImpl, legacyCompat });
  const factory = new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
      new RestTransportFactory({ fetchImpl, legacyCompat }),
    ],
    preferredTransports: ['JSONRPC', 'HTTP+JSON'],
    cardResolver: resolver,
    clientConfig: { polling: true },
  });
  let client: Client;
  try {
    client = await factory.createFromAgentCard(resolver.normalizeAgentCard(raw));
  } catch (error) {
    throw failure('the card cannot be used', error);
  }
  return new SdkPeer(card, client);
}

class SdkPeer implements A2aPeer {
  constructor(
    readonly card: AgentCardSummary,
    private readonly client: Client,
  ) {}

  private request(outgoing: OutgoingMessage) {
    return {
      tenant: '',
      message: userMessage(outgoing),
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        returnImmediately: true,
      },
      metadata: undefined,
    };
  }

  async send(outgoing: OutgoingMessage, signal: AbortSignal): Promise<A2aTask> {
    try {
      const result = await this.client.sendMessage(this.request(outgoing), { signal });
      return 'status' in result ? taskOf(result) : answeredTask(result);
    } catch (error) {
      throw failure('the agent refused the message', error);
    }
  }

  async stream(
    outgoing: OutgoingMessage,
    signal: AbortSignal,
    update: (task: A2aTask) => void,
  ): Promise<A2aTask> {
    let task: A2aTask | undefined;
    try {
      for await (const event of this.client.sendMessageStream(this.request(outgoing), { signal })) {
        task = applyEvent(task, event);
        if (task) update(task);
      }
    } catch (error) {
      throw failure('the agent stream failed', error);
    }
    if (!task) throw new KernelError('A2a', 'the agent closed its stream without a task');
    return task;
  }

  async get(taskId: string, signal: AbortSignal): Promise<A2aTask> {
    try {
      return taskOf(await this.client.getTask({ tenant: '', id: taskId }, { signal }));
    } catch (error) {
      throw failure(`cannot read task ${taskId}`, error);
    }
  }

  async cancel(taskId: string, signal: AbortSignal): Promise<A2aTask> {
    try {
      return taskOf(
        await this.client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal }),
      );
    } catch (error) {
      throw failure(`cannot cancel task ${taskId}`, error);
    }
  }
}

/** The task after one stream event (A2A 1.0 StreamResponse: task, message, status or artifact). */
export function applyEvent(task: A2aTask | undefined, event: StreamResponse): A2aTask | undefined {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'task':
      return taskOf(payload.value);
    case 'message':
      return task
        ? { ...task, history: [...task.history, messageOf(payload.value)] }
        : answeredTask(payload.value);
    case 'statusUpdate': {
      const { status, taskId, contextId } = payload.value;
      const base = task ?? {
        id: taskId,
        contextId,
        state: 'submitted',
        history: [],
        artifacts: [],
      };
      const message = status?.message ? messageOf(status.message) : undefined;
      return {
        ...base,
        state: stateOf(status?.state),
        statusMessage: message,
        history: message ? [...base.history, message] : base.history,
      };
    }
    case 'artifactUpdate': {
      const { artifact, append, taskId, contextId } = payload.value;
      const base = task ?? { id: taskId, contextId, state: 'working', history: [], artifacts: [] };
      if (!artifact) return base;
      const next = artifactOf(artifact);
      const artifacts = [...base.artifacts];
      const at = artifact.artifactId
        ? base.artifacts.findIndex((a) => a.id === artifact.artifactId)
        : -1;
      if (at >= 0 && append)
        artifacts[at] = { ...artifacts[at], parts: [...artifacts[at].parts, ...next.parts] };
      else if (at >= 0) artifacts[at] = { ...next, id: artifact.artifactId };
      else artifacts.push({ ...next, id: artifact.artifactId || undefined });
      return { ...base, artifacts };
    }
    default:
      return task;
  }
}
