/**
 * One MCP client of the gateway: an SDK `Server` over that client's transport, answering from the
 * kernel. Tool calls take the kernel's one pipeline in the client's name (`agent.gateway.<client>`,
 * MGP §5), with the client's progress token and cancellation; the session remembers which calls are
 * in flight to which server, so that a server's log lines and its own requests (sampling, elicitation,
 * roots) reach the client whose call caused them.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequest,
  CallToolRequestSchema,
  CallToolResult,
  ListToolsRequestSchema,
  LoggingLevel,
  LoggingLevelSchema,
  RequestId,
  RootsListChangedNotificationSchema,
  ServerNotification,
  SetLevelRequestSchema,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { MGP_KERNEL_VERSION } from '@shared/version';
import { newTraceId } from '../audit/auditEvent';
import type { ServerLogLine } from '../lifecycle/events';
import { notReadyServers } from '../lifecycle/readiness';
import type { Kernel } from '../kernel';
import type { Caller } from '../domain/caller';
import { toolIdOf } from '../domain/toolId';
import { agentCaller, gatewayAgentId } from '../agent/identity';
import { errorRejection, rejectionResult } from '../agent/rejections';
import { INVALID_TOOL_ARGS, KernelError, TOOL_NOT_FOUND } from '../domain/errors';
import type { DiscoverySession } from '../discovery/toolDiscovery';
import type { NameStyle, NameTable } from './names';
import { ObservedTransport } from '../connection/observedTransport';
import { registerCatalog, type CatalogHost } from './catalog';
import {
  type ExposeMode,
  type GatewayTool,
  toolDefinition,
  turnedOffTool,
  visibleKernelTool,
} from './toolListing';
import { onTheWire } from './wireErrors';
import { eventNotificationParams, SubscriberEvents } from '../bidirectional/subscriberEvents';
import { CALL_META_TOOL, callMetaTool, isCallMetaTool, metaCallTarget } from './callMetaTool';

const LEVELS = LoggingLevelSchema.options;

/** The `_meta` key of a tools/list result that names the servers whose tools it lacks, and why. */
export const NOT_READY_META = 'dev.mgp-kernel/not_ready';

/** What a session needs of the gateway that holds it. */
export interface SessionHost extends CatalogHost {
  kernel: Kernel;
  expose: ExposeMode;
  /** The style of names every client is given; undefined: chosen per client. */
  names: NameStyle | undefined;
  tools(): NameTable<GatewayTool>;
  /** The roots servers get changed (a client that has roots came or went, or changed them). */
  rootsChanged(): void;
  /** Ties a call's trace to this session, for approvals asked of its client; returns the release. */
  traced(traceId: string, session: GatewaySession, requestId: RequestId): () => void;
  closed(session: GatewaySession): void;
}

const INSTRUCTIONS =
  'The tools of the MCP servers MGP Kernel hosts, behind its access control, approvals, validators ' +
  'and audit trail. Call mgp.tools.discover with what you need, in plain words, to find a tool you ' +
  'have not been given; the tools it finds are added to your list, and mgp.tools.call calls any of ' +
  'them by its tool_id if your list cannot change.';

export class GatewaySession {
  /** Its client's initialize carried `capabilities.mgp` (MGP §2.2). */
  private speaksMgp = false;
  readonly server: Server;
  private caller: Caller | undefined;
  private level: LoggingLevel | undefined;
  /** Calls in flight per server id, newest last. */
  private readonly inFlight = new Map<string, RequestId[]>();
  /** The client's own discovery session (MGP §16.7): what it found, pinned and used. */
  private readonly discovery: DiscoverySession;
  /** The client's event subscriptions (MGP §13.2), sent to it and ended when it goes. */
  private readonly events: SubscriberEvents;
  /** Tool ids (`server.tool`) of the session's last discovery answer (meta mode). */
  private discovered: string[] = [];
  private listed: Record<'tools' | 'resources' | 'prompts', string | undefined> = {
    tools: undefined,
    resources: undefined,
    prompts: undefined,
  };

  constructor(
    private readonly host: SessionHost,
    /** The person a team gateway's token names (the HTTP front checked it); undefined elsewhere. */
    readonly user?: string,
  ) {
    this.discovery = host.kernel.discovery.openSession();
    this.events = new SubscriberEvents(host.kernel.events, (event) =>
      this.notify({ method: 'notifications/mgp.event', params: eventNotificationParams(event) }),
    );
    this.server = new Server(
      { name: 'mgp-kernel', title: 'MGP Kernel', version: MGP_KERNEL_VERSION },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: { listChanged: true, subscribe: true },
          prompts: { listChanged: true },
          completions: {},
          logging: {},
        },
        instructions: INSTRUCTIONS,
      },
    );
    this.server.setRequestHandler(ListToolsRequestSchema, async () => {
      await host.ready;
      const tools = this.listTools();
      this.listed.tools = JSON.stringify(tools);
      // A listing is complete or says which servers it lacks and why; a straggler's tools follow
      // with tools/list_changed once it connects.
      const notReady = notReadyServers(host.kernel.manager.list());
      return notReady.length ? { tools, _meta: { [NOT_READY_META]: notReady } } : { tools };
    });
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      onTheWire(() => this.callTool(request.params, extra)),
    );
    this.server.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.level = request.params.level;
      return {};
    });
    this.server.setNotificationHandler(RootsListChangedNotificationSchema, () =>
      host.rootsChanged(),
    );
    // A client with roots answers servers' roots/list from now on: servers are told to ask again.
    this.server.oninitialized = () => {
      if (this.hasRoots) host.rootsChanged();
    };
    registerCatalog(this, host);
    this.server.onclose = () => {
      this.events.close();
      this.discovery.tools.endSession();
      host.closed(this);
    };
  }

  /** Serves the client; its initialize is read as sent, since the SDK drops `capabilities.mgp`. */
  connect(transport: Transport): Promise<void> {
    const observed = new ObservedTransport(transport, {
      incoming: (message) => {
        if ('method' in message && message.method === 'initialize')
          this.speaksMgp = Boolean(
            (message.params?.capabilities as Record<string, unknown> | undefined)?.mgp,
          );
      },
    });
    return this.server.connect(observed.dispatchTo(this.server));
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /**
   * The client's identity (MGP §5), from the name it gave at initialize, carrying its own discovery
   * session, so its `mgp.tools.*` calls answer from it.
   */
  get identity(): Caller {
    const client = this.server.getClientVersion();
    if (this.caller || !client) return this.caller ?? this.callerNamed(undefined);
    this.caller = this.callerNamed(client.name);
    return this.caller;
  }

  private callerNamed(name: string | undefined): Caller {
    return {
      ...agentCaller(gatewayAgentId(name, this.user)),
      toolSession: this.discovery.tools,
      events: this.events,
    };
  }

  /**
   * The names its client is given: the gateway's choice when it made one, else the spec's for a
   * client that speaks MGP (its initialize carried `capabilities.mgp`, MGP §2.2) and the safe
   * alphabet for every other, whose names may go to a model API as they are.
   */
  get nameStyle(): NameStyle {
    return this.host.names ?? (this.speaksMgp ? 'spec' : 'safe');
  }

  get hasRoots(): boolean {
    return Boolean(this.server.getClientCapabilities()?.roots);
  }

  /** Whether the client finished initialize (notifications before then are not sent). */
  get initialized(): boolean {
    return this.server.getClientCapabilities() !== undefined;
  }

  listTools(): Tool[] {
    const { kernel } = this.host;
    const loaded = this.host.expose === 'meta' ? this.loadedToolIds() : undefined;
    const caller = this.identity;
    return this.host
      .tools()
      .entries(this.nameStyle)
      .filter(({ item }) =>
        item.kernel
          ? visibleKernelTool(kernel, caller, item.name)
          : (!loaded || loaded.has(toolIdOf(item.serverId, item.name))) &&
            kernel.access.query(caller.agentId, item.serverId, item.name).permission === 'allow',
      )
      .map(({ item, name }) => toolDefinition(name, item.tool))
      .concat(this.host.expose === 'meta' ? [callMetaTool(this.nameStyle)] : []);
  }

  /** Meta mode: the session's pinned and cached tools and its last discovery answer (MGP §16.7). */
  private loadedToolIds(): Set<string> {
    const { cache } = this.discovery;
    return new Set([
      ...cache.pinnedEntries().map((entry) => entry.tool_id),
      ...cache.cachedEntries().map((entry) => entry.tool_id),
      ...this.discovered,
    ]);
  }

  private async callTool(
    params: CallToolRequest['params'],
    extra: {
      signal: AbortSignal;
      requestId: RequestId;
      _meta?: { progressToken?: string | number };
      sendNotification: (n: {
        method: 'notifications/progress';
        params: Record<string, unknown>;
      }) => Promise<void>;
    },
  ): Promise<CallToolResult> {
    await this.host.ready;
    if (this.host.expose === 'meta' && isCallMetaTool(params.name)) {
      const target = metaCallTarget(params.arguments);
      if ('problem' in target) return invalidMetaCall(target.problem);
      return this.callTool({ name: target.toolId, arguments: target.args }, extra);
    }
    const table = this.host.tools();
    const item = table.resolve(params.name) ?? turnedOffTool(this.host.kernel, params.name);
    if (!item) return unknownToolResult(params.name, table.alternatives(params.name));
    const traceId = newTraceId();
    const release = this.host.traced(traceId, this, extra.requestId);
    const untrack = this.track(item.serverId, extra.requestId);
    const token = extra._meta?.progressToken;
    try {
      const outcome = await this.host.kernel.call({
        serverId: item.serverId,
        toolName: item.name,
        args: params.arguments ?? {},
        caller: this.identity,
        traceId,
        signal: extra.signal,
        onProgress:
          token === undefined
            ? undefined
            : (progress) =>
                void extra
                  .sendNotification({
                    method: 'notifications/progress',
                    params: { progressToken: token, ...progress },
                  })
                  .catch(() => undefined),
      });
      this.afterCall(item, outcome.result);
      // The kernel's own mark of a cut result stays in the kernel: the text already says so.
      const result: CallToolResult & { truncated?: unknown } = { ...outcome.result };
      delete result.truncated;
      return result;
    } catch (error) {
      // The kernel's refusals reach the client's model as a result it reads; a server's own
      // JSON-RPC error passes on as it came.
      if (error instanceof KernelError)
        return rejectionResult(errorRejection(error, item.tool.inputSchema));
      throw error;
    } finally {
      untrack();
      release();
    }
  }

  /** Meta mode: what a discovery answered joins the list, and a tool used joins the session cache. */
  private afterCall(item: GatewayTool, result: CallToolResult): void {
    if (this.host.expose !== 'meta' || result.isError) return;
    if (!item.kernel) {
      const entry = this.host.kernel.discovery.index.get(toolIdOf(item.serverId, item.name));
      if (entry) this.discovery.cache.use(entry);
    } else if (item.name === 'mgp.tools.discover' || item.name === 'mgp.tools.request') {
      const answer = result.structuredContent as
        { tools?: { tool_id?: string }[]; tools_loaded?: { tool_id?: string }[] } | undefined;
      this.discovered = [...(answer?.tools ?? []), ...(answer?.tools_loaded ?? [])]
        .map((tool) => tool.tool_id)
        .filter((id): id is string => typeof id === 'string');
    }
    this.listsChanged();
  }

  private track(serverId: string, requestId: RequestId): () => void {
    const calls = this.inFlight.get(serverId) ?? [];
    calls.push(requestId);
    this.inFlight.set(serverId, calls);
    return () => {
      calls.splice(calls.indexOf(requestId), 1);
      if (calls.length === 0) this.inFlight.delete(serverId);
    };
  }

  /** The newest call of this session in flight to the server, if any. */
  callTo(serverId: string): RequestId | undefined {
    return this.inFlight.get(serverId)?.at(-1);
  }

  /** An MGP notification to the client (the SDK's types know only MCP's). */
  private notify(notification: { method: string; params: Record<string, unknown> }): void {
    if (!this.initialized) return;
    void this.server.notification(notification as ServerNotification).catch(() => undefined);
  }

  /** A server's log line, at the level the client set, on the stream of the call that caused it. */
  log(line: ServerLogLine): void {
    const level = LEVELS.find((known) => known === line.level);
    if (!level || !this.initialized) return;
    if (this.level && LEVELS.indexOf(level) < LEVELS.indexOf(this.level)) return;
    void this.server
      .notification(
        {
          method: 'notifications/message',
          params: { level, logger: line.server_id, data: line.message },
        },
        { relatedRequestId: this.callTo(line.server_id) },
      )
      .catch(() => undefined);
  }

  /** What the client was last given of a catalog list (its signature), to tell it when that changes. */
  remember(kind: 'resources' | 'prompts', signature: string): void {
    this.listed[kind] = signature;
  }

  /** Tells the client which of the lists it has read changed since (MCP list_changed). */
  listsChanged(): void {
    if (!this.initialized) return;
    const now = {
      tools: () => JSON.stringify(this.listTools()),
      resources: () => this.host.catalogSignature(this, 'resources'),
      prompts: () => this.host.catalogSignature(this, 'prompts'),
    };
    const send = {
      tools: () => this.server.sendToolListChanged(),
      resources: () => this.server.sendResourceListChanged(),
      prompts: () => this.server.sendPromptListChanged(),
    };
    for (const kind of ['tools', 'resources', 'prompts'] as const) {
      const before = this.listed[kind];
      if (before === undefined) continue;
      const after = now[kind]();
      if (after === before) continue;
      // Told once: the client lists again when it wants, and is told again after that.
      this.listed[kind] = undefined;
      void send[kind]().catch(() => undefined);
    }
  }
}

/** A name the gateway cannot resolve, answered as a tool error the client's model can read. */
function unknownToolResult(name: string, choices: string[] | undefined): CallToolResult {
  return rejectionResult({
    status: 'rejected',
    reason: choices ? 'Ambiguous tool name' : 'Unknown tool',
    violations: [
      choices
        ? `several servers offer a tool "${name}": call it as one of ${choices.join(', ')}`
        : `no tool named "${name}" is available`,
    ],
    code: TOOL_NOT_FOUND,
    error: 'TOOL_NOT_FOUND',
    hints: {
      next_step: choices
        ? 'call the tool by one of the names given'
        : 'list the tools again, or call mgp.tools.discover to find one for the task',
    },
  });
}

function invalidMetaCall(problem: string): CallToolResult {
  return rejectionResult({
    status: 'rejected',
    reason: `Arguments of ${CALL_META_TOOL} do not say which tool to call`,
    violations: [problem],
    code: INVALID_TOOL_ARGS,
    error: 'INVALID_TOOL_ARGS',
    hints: {
      next_step: 'pass the tool_id from a discovery answer, and the arguments as an object',
    },
  });
}
