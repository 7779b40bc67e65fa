import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  RequestId,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ConfiguredServer } from '../config/types';
import { KernelError } from '../domain/errors';
import type { ConnectionHooks } from './clientFeatures';
import { endHttpSession } from './httpSession';
import type { SignInRetry } from './signIn';
import type { ResolvedEnvironment } from './environment';
import { pagedList } from './pagedList';
import { FollowOptions, followTask, TaskSnapshot } from './toolTasks';
import type { ObservedTransport } from './observedTransport';
import {
  CappedResult,
  capResult,
  LooseCallResultSchema,
  LooseToolsPageSchema,
  ListedTool,
} from './toolResults';
import { asKernelTimeout } from './requestTimeout';
import type { CallClock } from './callClock';
import type { ConnectDeadline } from './connectDeadline';
import { handshake, OpenOptions } from './handshake';
import { openOverTransport } from './transportChoice';
import { CallOptions, sendToolCall } from './toolCall';

export type { ListedTool, CappedResult } from './toolResults';
export { capResult, LooseToolSchema } from './toolResults';
export type { OpenOptions } from './handshake';
export type { CallOptions } from './toolCall';

const LooseResult = z.looseObject({});

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

  /** Tells a tools/call's caller the JSON-RPC id it went out with, found by its `_mgp` or its arguments. */
  private learnId(sent: unknown, id: RequestId): void {
    const params = sent as { _mgp?: object; arguments?: object } | undefined;
    const listener =
      (params?._mgp && this.awaitingIds.get(params._mgp)) ||
      (params?.arguments && this.awaitingIds.get(params.arguments));
    if (listener) listener(id);
  }

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
        inProcess: options.inProcess,
        onLog: (level, message) => options.hooks.onLog(level, message),
        onStarting: (progress) => options.hooks.onStarting?.(progress),
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
    // The session reports to the connection, which exists once the handshake is done.
    const built: { connection?: ServerConnection } = {};
    const session = await handshake(server, inner, options, deadline, {
      requestSent: (params, id) => built.connection?.learnId(params, id),
      closed: () => options.hooks.onClosed(built.connection?.closing ?? false),
    });
    const connection = new ServerConnection(
      server,
      session.client,
      session.transport,
      options.hooks.onLog,
      session.clock,
    );
    connection.rawServerCapabilities = session.rawCapabilities;
    built.connection = connection;
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
    return sendToolCall(
      {
        client: this.client,
        server: this.server,
        clock: this.clock,
        signIn: this.signIn,
        timeoutMs: this.timeout,
        awaitId: (mgp, onRequestId) => this.awaitingIds.set(mgp, onRequestId),
      },
      tool,
      args,
      options,
    );
  }

  /**
   * Runs the kernel's answer to something the server asked outside a request (an MGP callback,
   * §13.4) with the server's tool calls' timers stopped, as its requests are.
   */
  whileAnswering<T>(answer: () => Promise<T>): Promise<T> {
    return this.clock.whileAnswering(answer);
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
    return this.withTimeoutError(
      method,
      () => this.client.request({ method, params } as never, LooseResult, { timeout: timeoutMs }),
      timeoutMs,
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
