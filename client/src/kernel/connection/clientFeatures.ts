import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestTaskStore } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CancelledNotificationSchema,
  CreateMessageRequest,
  CreateMessageRequestSchema,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitationCompleteNotificationSchema,
  ElicitRequest,
  ElicitRequestSchema,
  ElicitResult,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  RequestId,
  Result,
  Root,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ClientTaskStore, clientTasksCapability } from './clientTasks';
import { answering } from './wireError';
import type { CallClock } from './callClock';
import type { StartProgress } from './connectDeadline';

/** What the kernel answers when a server asks the client something (MCP client features). */
export interface ClientRequestHandlers {
  /** roots/list: the workspace folders (or the roots of the client above the kernel). */
  roots(): Root[] | Promise<Root[]>;
  /** sampling/createMessage: reviewed by the user, then routed to a model. */
  createMessage(
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /** elicitation/create: form mode or URL mode. */
  elicit(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult>;
}

export type ListKind = 'tools' | 'resources' | 'prompts';

export interface ConnectionHooks {
  onLog(level: string, message: string): void;
  onListChanged(kind: ListKind): void;
  onResourceUpdated(uri: string): void;
  /** Any other notification from the server (`notifications/mgp.*` among them), params unparsed. */
  onNotification(method: string, params: Record<string, unknown>): void;
  /** Any other request from the server (MCPL's among them): its answer, or undefined for "method not found". */
  onRequest?(
    method: string,
    params: Record<string, unknown>,
    context: { requestId: string | number; signal: AbortSignal },
  ): Promise<Record<string, unknown>> | undefined;
  /** The transport closed: by us (`expected`) or not. */
  onClosed(expected: boolean): void;
  /** Still starting after a period of connect_timeout_secs, and working (connectDeadline.ts). */
  onStarting?(progress: StartProgress): void;
}

/** The capabilities a client with these handlers declares at initialize (MCP 2025-11-25 §client features). */
export function baseClientCapabilities(): Record<string, unknown> {
  return {
    roots: { listChanged: true },
    // MCP 2025-11-25: sampling requests may offer tools and carry tool_use/tool_result blocks.
    sampling: { tools: {} },
    // Omitted fields take the schema's defaults (SEP-1034): the kernel fills them in before it answers.
    elicitation: { form: { applyDefaults: true }, url: {} },
    tasks: clientTasksCapability(),
  };
}

/** A request the server asked for as a task (`params.task`) runs as one; any other, as it comes. */
function asTaskWhenAsked<T extends Result>(
  tasks: ClientTaskStore | undefined,
  params: { task?: { ttl?: number } },
  extra: { signal: AbortSignal; taskStore?: RequestTaskStore },
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (tasks && params.task && extra.taskStore)
    return tasks.start(extra.taskStore, params.task.ttl, run) as Promise<Result> as Promise<T>;
  return run(extra.signal);
}

/** Registers the client side of roots, sampling, elicitation, logging and list_changed on `client`. */
export function registerClientFeatures(
  client: Client,
  handlers: ClientRequestHandlers,
  hooks: ConnectionHooks,
  { tasks, clock }: { tasks?: ClientTaskStore; clock?: CallClock } = {},
): void {
  // The server waits while the kernel answers it: its tool calls' timers stop meanwhile.
  const answer = <T>(work: () => Promise<T>): Promise<T> =>
    clock ? clock.whileAnswering(() => answering(work)) : answering(work);
  client.setRequestHandler(ListRootsRequestSchema, () =>
    answer(async () => ({ roots: await handlers.roots() })),
  );
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
    asTaskWhenAsked(tasks, request.params, extra, (signal) =>
      answer(() => handlers.createMessage(request.params, signal)),
    ),
  );
  client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
    asTaskWhenAsked(tasks, request.params, extra, (signal) =>
      answer(() => handlers.elicit(request.params, signal)),
    ),
  );
  abortCancelledRequests(client);
  client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
    const data = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
    hooks.onLog(params.level, params.logger ? `[${params.logger}] ${data}` : data);
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () =>
    hooks.onListChanged('tools'),
  );
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () =>
    hooks.onListChanged('resources'),
  );
  client.setNotificationHandler(PromptListChangedNotificationSchema, () =>
    hooks.onListChanged('prompts'),
  );
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) =>
    hooks.onResourceUpdated(params.uri),
  );
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, ({ params }) =>
    hooks.onLog('info', `URL elicitation ${params.elicitationId} completed`),
  );
  // Transport and protocol problems (a line that is not JSON-RPC, a handler that threw) go to the log.
  client.onerror = (error) => hooks.onLog('warning', `protocol: ${error.message}`);
  client.fallbackRequestHandler = (request, extra) =>
    answer(async () => {
      const params = (request.params ?? {}) as Record<string, unknown>;
      const answer = hooks.onRequest?.(request.method, params, {
        requestId: request.id,
        signal: extra.signal,
      });
      if (!answer)
        throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
      return (await answer) as never;
    });
  client.fallbackNotificationHandler = async (notification) => {
    hooks.onNotification(
      notification.method,
      (notification.params ?? {}) as Record<string, unknown>,
    );
  };
}

/**
 * MCP notifications/cancelled from the server ends the handler of its request (a sampling review, an
 * elicitation form). The SDK's own handler skips a falsy request id, and a server's first request has
 * id 0: its cancellation would be lost, leaving the question open. This one takes every id.
 */
function abortCancelledRequests(client: Client): void {
  const handlers = client as unknown as {
    _requestHandlerAbortControllers?: Map<RequestId, AbortController>;
  };
  client.setNotificationHandler(CancelledNotificationSchema, ({ params }) => {
    if (params.requestId === undefined) return;
    handlers._requestHandlerAbortControllers?.get(params.requestId)?.abort(params.reason);
  });
}
