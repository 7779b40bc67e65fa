import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CompleteRequest,
  CompleteResult,
  ErrorCode,
  GetPromptResult,
  JSONRPCMessage,
  LoggingLevel,
  McpError,
  Prompt,
  ReadResourceResult,
  RequestId,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MGP_KERNEL_VERSION } from '@shared/version';
import type { ConfiguredServer } from '../config/types';
import { KernelError } from '../domain/errors';
import {
  baseClientCapabilities,
  ClientRequestHandlers,
  ConnectionHooks,
  registerClientFeatures,
} from './clientFeatures';
import { endHttpSession } from './httpSession';
import type { SignInRetry } from './signIn';
import type { ResolvedEnvironment } from './environment';
import { ClientTaskStore } from './clientTasks';
import { pagedList } from './pagedList';
import {
  FollowOptions,
  callToolAsTask,
  followTask,
  runsAsTask,
  TaskHooks,
  TaskSnapshot,
} from './toolTasks';
import { ObservedTransport } from './observedTransport';
import {
  CappedResult,
  capResult,
  LooseCallResultSchema,
  LooseToolsPageSchema,
  ListedTool,
} from './toolResults';
import { asKernelTimeout } from './requestTimeout';
import { CallClock } from './callClock';
import type { ConnectDeadline } from './connectDeadline';
import { openOverTransport } from './transportChoice';
import type { ProcessLaunch } from './transports';

export type { ListedTool, CappedResult } from './toolResults';
export { capResult, LooseToolSchema } from './toolResults';

export interface OpenOptions {
  hooks: ConnectionHooks;
  handlers: ClientRequestHandlers;
  /** Capabilities the kernel's extensions add at initialize (e.g. `mgp`, MGP §2.2). */
  extraCapabilities?: Record<string, unknown>;
  /** Each request the kernel sends after initialize, before it leaves: extensions add their fields. */
  outgoingRequest?(method: string, params: Record<string, unknown>): void;
  /** Each message both ways, for the protocol trace. */
  trace?(direction: 'send' | 'receive', message: JSONRPCMessage): void;
  /** OAuth for http and sse servers (MCP 2025-11-25, Authorization); none: a 401 is an error. */
  authorization?: OAuthClientProvider;
  /** How a stdio server's process is started, when not as configured (inside its sandbox). */
  launch?: ProcessLaunch;
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** MGP fields sent in `params._mgp` (trace_id, stream…). */
  mgp?: Record<string, unknown>;
  /** Learns the JSON-RPC id of the tools/call as it is sent (MGP stream chunks name it, §12.4). */
  onRequestId?: (id: RequestId) => void;
  /** Overrides the server's request timeout. */
  timeoutMs?: number;
  /** Fields kernel services add to the params (MCPL `scope`, `state`, `checkpoint`: §7.7, §8.4). */
  params?: Record<string, unknown>;
  /** Learns the tools/call params as they are sent. */
  onSent?: (params: Record<string, unknown>) => void;
  /** Run the tool as an MCP task (one whose `execution.taskSupport` allows it). */
  task?: TaskHooks & { ttl?: number };
}

const LooseInitializeResult = z.looseObject({ capabilities: z.looseObject({}).optional() });
const LooseResult = z.looseObject({});
/** The SDK's own timer stays out of the way of the call clock's (setTimeout's largest delay). */
const NO_SDK_TIMEOUT = 2 ** 31 - 1;

/** One live MCP session with a server: base MCP, client side, over the SDK. */
export class ServerConnection {
  private closing = false;
  /** Retries a request once a sign-in the server asked for mid-session (step-up) is done. */
  private signIn: SignInRetry | undefined;
  /** The server's capabilities exactly as sent, extension fields (`mgp`) included. */
  rawServerCapabilities: Record<string, unknown> = {};
  private readonly awaitingIds = new WeakMap<object, (id: RequestId) => void>();

  private constructor(
    readonly server: ConfiguredServer,
    readonly client: Client,
    private readonly transport: ObservedTransport,
    private readonly onLog: ConnectionHooks['onLog'],
    /** The tool calls' timers, stopped while the kernel answers the server's own requests. */
    private readonly clock: CallClock,
  ) {}

  /** Opens the connection over the server's transport (MCP 2025-11-25, Transports), signing in when asked. */
  static open(
    server: ConfiguredServer,
    resolved: ResolvedEnvironment,
    options: OpenOptions,
  ): Promise<ServerConnection> {
    return openOverTransport(
      server,
      resolved,
      {
        authorization: options.authorization,
        launch: options.launch,
        onLog: (level, message) => options.hooks.onLog(level, message),
      },
      {
        connect: (transport, deadline) =>
          ServerConnection.connect(server, transport, options, deadline),
        signedIn: (connection, retry) => {
          connection.signIn = retry;
        },
      },
    );
  }

  private static async connect(
    server: ConfiguredServer,
    inner: Transport,
    options: OpenOptions,
    deadline?: ConnectDeadline,
  ): Promise<ServerConnection> {
    let initializeId: RequestId | undefined;
    let rawCapabilities: Record<string, unknown> = {};
    const transport = new ObservedTransport(inner, {
      outgoing: (message) => {
        if ('method' in message && 'id' in message) {
          if (message.method === 'initialize') initializeId = message.id;
          else if (options.outgoingRequest)
            options.outgoingRequest(message.method, (message.params ??= {}));
        }
        options.trace?.('send', message);
        if ('method' in message && 'id' in message) {
          const mgp = (message.params as { _mgp?: object } | undefined)?._mgp;
          if (mgp) connection.awaitingIds.get(mgp)?.(message.id);
        }
      },
      incoming: (message) => {
        options.trace?.('receive', message);
        if ('result' in message && message.id === initializeId && initializeId !== undefined) {
          const parsed = LooseInitializeResult.safeParse(message.result);
          if (parsed.success)
            rawCapabilities = (parsed.data.capabilities ?? {}) as Record<string, unknown>;
        }
      },
      lateProgress: (message) =>
        options.hooks.onLog(
          'debug',
          `a progress notification came after its request had finished: ignored (${JSON.stringify(message).slice(0, 200)})`,
        ),
    });
    const capabilities = { ...baseClientCapabilities(), ...options.extraCapabilities };
    const taskStore = new ClientTaskStore();
    const client = new Client(
      { name: 'mgp-kernel', title: 'MGP Kernel', version: MGP_KERNEL_VERSION },
      { capabilities, taskStore },
    );
    const clock = new CallClock();
    registerClientFeatures(client, options.handlers, options.hooks, { tasks: taskStore, clock });
    const connection = new ServerConnection(server, client, transport, options.hooks.onLog, clock);
    const previousClose = transport.onclose;
    await client
      .connect(
        transport,
        deadline
          ? { signal: deadline.signal, timeout: deadline.capMs }
          : { timeout: server.settings.connectTimeoutMs },
      )
      .catch((error: unknown) => {
        // The SDK wraps an abort's reason in a timeout error of its own; the deadline's says why.
        throw deadline?.signal.aborted ? deadline.signal.reason : error;
      });
    connection.rawServerCapabilities = rawCapabilities;
    const closeHandler = transport.onclose ?? previousClose;
    transport.onclose = () => {
      taskStore.close();
      closeHandler?.();
      options.hooks.onClosed(connection.closing);
    };
    return connection;
  }

  get pid(): number | undefined {
    return this.transport.pid;
  }

  /** The protocol version initialize agreed on (MCP 2025-11-25, lifecycle: version negotiation). */
  get protocolVersion(): string | undefined {
    return this.transport.protocolVersion;
  }

  /** What the server said it is at initialize; `icons` unchecked (kernel/icons judges them). */
  get serverInfo(): { name: string; version: string; title?: string; icons?: unknown } | undefined {
    return this.client.getServerVersion();
  }

  get instructions(): string | undefined {
    return this.client.getInstructions();
  }

  /** Runs a request; on an http server that asks for a sign-in meanwhile, again once it is done. */
  private signedIn<T>(request: () => Promise<T>): Promise<T> {
    return this.signIn ? this.signIn.run(request) : request();
  }

  private get timeout(): number {
    return this.server.settings.requestTimeoutMs;
  }

  private has(capability: string): boolean {
    return Boolean(
      (this.client.getServerCapabilities() as Record<string, unknown> | undefined)?.[capability],
    );
  }

  /** tools/list, every page, with MGP's extra fields kept. */
  listTools(): Promise<ListedTool[]> {
    if (!this.has('tools')) return Promise.resolve([]);
    return pagedList('tools/list', 'tools', async (cursor) => {
      const page = await this.signedIn(() =>
        this.client.request(
          { method: 'tools/list', params: cursor ? { cursor } : {} },
          LooseToolsPageSchema,
          { timeout: this.timeout },
        ),
      );
      return { items: page.tools, nextCursor: page.nextCursor };
    });
  }

  listResources(): Promise<Resource[]> {
    if (!this.has('resources')) return Promise.resolve([]);
    return pagedList('resources/list', 'resources', async (cursor) => {
      const page = await this.signedIn(() =>
        this.client.listResources(cursor ? { cursor } : {}, { timeout: this.timeout }),
      );
      return { items: page.resources, nextCursor: page.nextCursor };
    });
  }

  listResourceTemplates(): Promise<ResourceTemplate[]> {
    if (!this.has('resources')) return Promise.resolve([]);
    return pagedList('resources/templates/list', 'resource templates', async (cursor) => {
      const page = await this.signedIn(() =>
        this.client.listResourceTemplates(cursor ? { cursor } : {}, { timeout: this.timeout }),
      );
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    });
  }

  listPrompts(): Promise<Prompt[]> {
    if (!this.has('prompts')) return Promise.resolve([]);
    return pagedList('prompts/list', 'prompts', async (cursor) => {
      const page = await this.signedIn(() =>
        this.client.listPrompts(cursor ? { cursor } : {}, { timeout: this.timeout }),
      );
      return { items: page.prompts, nextCursor: page.nextCursor };
    });
  }

  readResource(uri: string): Promise<ReadResourceResult> {
    return this.withTimeoutError('resources/read', () =>
      this.client.readResource({ uri }, { timeout: this.timeout }),
    );
  }

  /** resources/subscribe; updates arrive through the hooks' onResourceUpdated. */
  async subscribe(uri: string): Promise<void> {
    const resources = (this.client.getServerCapabilities()?.resources ?? {}) as {
      subscribe?: boolean;
    };
    if (!resources.subscribe)
      throw new KernelError(
        'Unsupported',
        `${this.server.id} does not offer resource subscriptions`,
      );
    await this.client.subscribeResource({ uri }, { timeout: this.timeout });
  }

  async unsubscribe(uri: string): Promise<void> {
    await this.client.unsubscribeResource({ uri }, { timeout: this.timeout });
  }

  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.withTimeoutError('prompts/get', () =>
      this.client.getPrompt({ name, arguments: args }, { timeout: this.timeout }),
    );
  }

  /** Whether the server declared `completions` at initialize (MCP, Utilities: Completion). */
  get offersCompletion(): boolean {
    return this.has('completions');
  }

  /**
   * completion/complete, only to a server that declared `completions`; to one that did not, no
   * suggestions without asking it.
   */
  async complete(params: CompleteRequest['params']): Promise<CompleteResult['completion']> {
    if (!this.offersCompletion) return { values: [], hasMore: false };
    const result = await this.withTimeoutError('completion/complete', () =>
      this.client.complete(params, { timeout: this.timeout }),
    );
    return result.completion;
  }

  /** logging/setLevel, when the server offers logging. */
  async setLoggingLevel(level: LoggingLevel): Promise<boolean> {
    if (!this.has('logging')) return false;
    await this.client.setLoggingLevel(level, { timeout: this.timeout });
    return true;
  }

  /**
   * tools/call with the server's timeout (reset by progress; cancelled with notifications/cancelled
   * when it runs out or `signal` aborts) and its result cap. A tool that requires tasks runs as one.
   */
  callTool(
    tool: ListedTool | string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CappedResult> {
    const name = typeof tool === 'string' ? tool : tool.name;
    const params: Record<string, unknown> = options.params
      ? { ...options.params, name, arguments: args }
      : { name, arguments: args };
    if (options.mgp) {
      params._mgp = options.mgp;
      if (options.onRequestId) this.awaitingIds.set(options.mgp, options.onRequestId);
    }
    const requestOptions = {
      timeout: options.timeoutMs ?? this.timeout,
      resetTimeoutOnProgress: true,
      signal: options.signal,
      onprogress: options.onProgress,
    };
    let asTask: boolean;
    try {
      asTask = runsAsTask(this.client, this.server.id, tool, options);
    } catch (error) {
      return Promise.reject(error);
    }
    // Promise chains rather than async layers: tools/call is the kernel's hottest path.
    const send = () =>
      asTask
        ? callToolAsTask(this.client, this.server.id, params, requestOptions, options).then(
            (result) => LooseCallResultSchema.parse(result),
          )
        : this.timedCall(params, requestOptions.timeout, options);
    options.onSent?.(params);
    const sent = this.signIn ? this.signIn.run(send) : send();
    return sent.then(
      (result) => capResult(result, this.server.settings.toolResultMaxChars),
      (error: unknown) => {
        // The SDK rejects an aborted request as a timeout (-32001): it was the caller who stopped it.
        if (options.signal?.aborted)
          throw new KernelError('Cancelled', `${this.server.id}: tools/call ${name} was cancelled`);
        throw asKernelTimeout(this.server.id, `tools/call ${name}`, error, requestOptions.timeout);
      },
    );
  }

  /**
   * Runs the kernel's answer to something the server asked outside a request (an MGP callback,
   * §13.4) with the server's tool calls' timers stopped, as its requests are.
   */
  whileAnswering<T>(answer: () => Promise<T>): Promise<T> {
    return this.clock.whileAnswering(answer);
  }

  /** tools/call on the server's clock (callClock.ts): cancelled when the server's time runs out. */
  private timedCall(
    params: Record<string, unknown>,
    timeoutMs: number,
    options: CallOptions,
  ): Promise<z.infer<typeof LooseCallResultSchema>> {
    const expired = new AbortController();
    const timer = this.clock.start(timeoutMs, () =>
      expired.abort(
        new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs }),
      ),
    );
    const { onProgress } = options;
    const onprogress =
      onProgress &&
      ((progress: Parameters<typeof onProgress>[0]) => {
        this.clock.progressed(timer);
        onProgress(progress);
      });
    const signal = options.signal
      ? AbortSignal.any([options.signal, expired.signal])
      : expired.signal;
    return this.client
      .request(
        { method: 'tools/call', params: params as { name: string } },
        LooseCallResultSchema,
        { timeout: NO_SDK_TIMEOUT, signal, onprogress },
      )
      .finally(() => timer.stop());
  }

  /** tasks/list, when the server offers it (`capabilities.tasks.list`); one page. */
  async listTasks(cursor?: string): Promise<{ tasks: TaskSnapshot[]; nextCursor?: string }> {
    if (!(this.client.getServerCapabilities() as { tasks?: { list?: unknown } })?.tasks?.list)
      return { tasks: [] };
    return this.withTimeoutError('tasks/list', () =>
      this.client.experimental.tasks.listTasks(cursor, { timeout: this.timeout }),
    );
  }

  /** tasks/get. */
  getTask(taskId: string): Promise<TaskSnapshot> {
    return this.withTimeoutError('tasks/get', () =>
      this.client.experimental.tasks.getTask(taskId, { timeout: this.timeout }),
    );
  }

  /** tasks/cancel. */
  cancelTask(taskId: string): Promise<TaskSnapshot> {
    return this.withTimeoutError('tasks/cancel', () =>
      this.client.experimental.tasks.cancelTask(taskId, { timeout: this.timeout }),
    );
  }

  /** Follows a task someone started before (after a reload, say) to its result. */
  followTask(taskId: string, options: Omit<FollowOptions, 'timeoutMs'>): Promise<CappedResult> {
    return followTask(this.client, this.server.id, taskId, {
      ...options,
      timeoutMs: this.timeout,
    }).then((result) =>
      capResult(LooseCallResultSchema.parse(result), this.server.settings.toolResultMaxChars),
    );
  }

  /** A request of an extension (e.g. `mgp/permission/grant`), result kept whole. */
  request(
    method: string,
    params: Record<string, unknown>,
    timeoutMs = this.timeout,
  ): Promise<Record<string, unknown>> {
    return this.withTimeoutError(method, () =>
      this.client.request({ method, params } as never, LooseResult, { timeout: timeoutMs }),
    );
  }

  /** A notification of an extension (e.g. `notifications/mgp.audit`). */
  notify(method: string, params: Record<string, unknown>): Promise<void> {
    return this.client.notification({ method, params } as never);
  }

  async sendRootsListChanged(): Promise<void> {
    await this.client.sendRootsListChanged();
  }

  async ping(timeoutMs = 5000): Promise<void> {
    await this.withTimeoutError('ping', () => this.client.ping({ timeout: timeoutMs }), timeoutMs);
  }

  private async withTimeoutError<T>(
    what: string,
    run: () => Promise<T>,
    timeoutMs = this.timeout,
  ): Promise<T> {
    try {
      return await this.signedIn(run);
    } catch (error) {
      throw asKernelTimeout(this.server.id, what, error, timeoutMs);
    }
  }

  /** Ends the session: a Streamable HTTP session is closed with DELETE first (MCP, Transports §2.5). */
  async close(): Promise<void> {
    this.closing = true;
    await endHttpSession(this.transport.inner, this.timeout, (reason) =>
      this.onLog('debug', reason),
    );
    await this.client.close();
  }
}
