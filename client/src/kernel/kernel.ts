/**
 * The kernel: servers and the services around them, wired once. The editor and the CLI build one with
 * their own way of asking the operator (`Interaction`) and their own audit trail, then feed it configs
 * and send it calls; every call takes the same pipeline.
 */
import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { AccessControl, accessStore } from './access/accessControl';
import { AuditTrail } from './audit/auditTrail';
import type { KernelConfig, KernelSettings } from './config/types';
import type { KernelOptions } from './kernelOptions';
import { configGrants } from './config/accessGrants';
import { EMPTY_CONFIG } from './config/policy';
import type { ListedTool } from './connection/toolResults';
import { clientHandlers } from './host/clientHandlers';
import { guardUrlElicitation } from './host/elicitationUrl';
import { UpstreamClients } from './host/upstreamClients';
import { accessTools } from './kernelTools/accessTools';
import { Callbacks } from './bidirectional/callbacks';
import { EventHub } from './bidirectional/eventHub';
import { serverRegistryTools } from './kernelTools/serverRegistryTools';
import { eventTools } from './kernelTools/eventTools';
import { RegisteredServers } from './lifecycle/registeredServers';
import { OfferedTools, type KernelToolEntry } from './discovery/offeredTools';
import { ToolDiscovery } from './discovery/toolDiscovery';
import { GeneratedTools } from './toolCreation/generatedTools';
import type { ApprovalVerdict } from './security/approvalPolicy';
import { ApprovalVerdicts } from './security/approvalVerdicts';
import { lifecycleTools } from './kernelTools/lifecycleTools';
import { KernelToolRegistry } from './kernelTools/registry';
import type { KernelTool } from './domain/kernelTool';
import type { SupervisedServer } from './lifecycle/supervisedServer';
import { MgpSessions } from './mgp/mgpSessions';
import { McplHost } from './mcpl/mcplHost';
import { ModelRouter } from './llm/modelRouter';
import type { Caller } from './domain/caller';
import type { ToolCallOutcome, ToolCallRequest } from './pipeline/types';
import type { ArgumentCheck } from './pipeline/argumentChecker';
import { streamedCall, type StreamedCallRequest } from './pipeline/streamedCall';
import { ToolCallPipeline } from './pipeline/toolCallPipeline';
import { CallValidation } from './pipeline/validation';
import { approvalStore } from './security/approvalStore';
import { publicAddress } from './net/publicAddress';
import { writableRoots } from './sandbox/writableRoots';
import type { EffectiveSecurity } from './domain/security';
import { ServerPermissions } from './security/serverPermissions';
import { Switchboard, TURNED_OFF_REASON } from './security/switchboard';
import { Switches } from './security/switches';
import { ToolApprovals } from './security/toolApprovals';
import { ServerManager } from './lifecycle/serverManager';
import { ActiveStream, StreamRegistry } from './streaming/streamRegistry';
import { recordServerEvents } from './audit/serverEvents';
import { announceLifecycle } from './lifecycle/announceLifecycle';
import { TaskBoard } from './tasks/taskBoard';
import type { ServerSession } from './connection/service';
import { clientHintsService } from './drafts/resourceHints';
import { A2aDirectory } from './a2a/directory';
import { openAgentServer } from './a2a/agentServer';

export type { KernelOptions } from './kernelOptions';

export type { KernelToolEntry } from './discovery/offeredTools';

export class Kernel {
  readonly manager: ServerManager;
  readonly mgp: MgpSessions;
  readonly mcpl: McplHost;
  readonly approvals: ToolApprovals;
  readonly permissions: ServerPermissions;
  readonly access: AccessControl;
  /** What the user turned off, and the way to turn it on or off. */
  readonly switches: Switches;
  readonly switchboard: Switchboard;
  readonly kernelTools = new KernelToolRegistry();
  readonly models = new ModelRouter();
  readonly pipeline: ToolCallPipeline;
  readonly streams: StreamRegistry;
  /** MCP tasks: run a tool as one, list, follow, cancel, and pick them up after a restart. */
  readonly tasks: TaskBoard;
  readonly events: EventHub;
  readonly callbacks: Callbacks;
  readonly discovery: ToolDiscovery;
  /** Clients above the kernel (the gateway's) that answer servers' roots, sampling and elicitation. */
  readonly upstream = new UpstreamClients();
  /** The external A2A agents' cards and the tasks delegated to them. */
  readonly a2a = new A2aDirectory();
  private readonly generated: GeneratedTools;
  private readonly registered: RegisteredServers;
  private readonly verdicts: ApprovalVerdicts;
  private config: KernelConfig = EMPTY_CONFIG;
  private readonly offered: OfferedTools;

  constructor(readonly options: KernelOptions) {
    const approvals = approvalStore(options.stateDir);
    this.switches = new Switches(options.stateDir);
    this.mgp = new MgpSessions(() => this.settings.toolCreation);
    this.access = new AccessControl(
      accessStore(options.stateDir),
      {
        configGrants: () => configGrants(this.config),
        defaultPolicy: (serverId) =>
          this.manager.find(serverId)?.config.policy.defaultAccessPolicy ??
          this.settings.defaultAccessPolicy,
      },
      options.audit,
    );
    this.approvals = new ToolApprovals(
      approvals,
      options.interaction,
      options.audit,
      options.operator.agentId,
    );
    this.permissions = new ServerPermissions({
      store: approvals,
      interaction: options.interaction,
      audit: options.audit,
      mgp: this.mgp,
      settings: () => this.settings,
      session: (id) => this.sessionOf(id),
      operator: options.operator.agentId,
    });
    this.streams = new StreamRegistry(this.mgp, (id) => this.sessionOf(id));
    this.tasks = new TaskBoard({
      call: (request) => this.call(request),
      taskEnded: (task) => this.pipeline.taskEnded(task),
      connection: (id) => {
        const server = this.manager.find(id);
        return server?.state === 'connected' ? server.session() : undefined;
      },
      connectedServers: () =>
        this.manager
          .list()
          .filter((s) => s.state === 'connected')
          .map((s) => s.id),
    });
    this.mcpl = new McplHost({
      audit: options.audit,
      interaction: options.interaction,
      models: this.models,
      stateDir: options.stateDir,
      settingsOf: (id) => this.manager.find(id)?.config.policy.mcpl,
      session: (id) => this.sessionOf(id),
    });
    this.manager = new ServerManager({
      hostEnv: options.hostEnv,
      workspaceFolders: () => writableRoots(options),
      addressGuard: publicAddress,
      secrets: options.secrets,
      mayStart: (server) =>
        this.switches.serverOff(server.id)
          ? TURNED_OFF_REASON
          : (options.mayStart?.(server) ?? true),
      session: {
        services: [
          this.mgp,
          this.permissions,
          this.mcpl,
          this.streams.jobEventService,
          clientHintsService(options.clientHints ?? (() => ({ enabled: false }))),
        ],
        clientHandlers: (server) =>
          clientHandlers(server.id, {
            interaction: options.interaction,
            models: this.models,
            roots: options.roots ?? (() => []),
            audit: options.audit,
            upstream: this.upstream,
          }),
        logLevel: options.logLevel ?? 'info',
        trace: options.trace ?? (() => false),
        onSecrets: options.onSecrets,
        authorization: options.authorization,
        inProcess: (server, headers, log) =>
          server.a2a ? openAgentServer({ server, headers, directory: this.a2a, log }) : undefined,
      },
    });
    this.events = new EventHub(this.mgp, () =>
      this.manager.list().flatMap((server) => this.mgp.of(server.id)?.eventChannels ?? []),
    );
    this.callbacks = new Callbacks({
      mgp: this.mgp,
      interaction: options.interaction,
      models: this.models,
      audit: options.audit,
      access: this.access,
    });
    this.registered = new RegisteredServers(options.stateDir, this.manager);
    this.switchboard = new Switchboard({
      switches: this.switches,
      manager: this.manager,
      audit: options.audit,
      operator: options.operator.agentId,
    });
    this.kernelTools.register(...this.builtInKernelTools(options));
    this.offered = new OfferedTools({
      manager: this.manager,
      kernelTools: this.kernelTools,
      switches: this.switches,
    });
    this.verdicts = new ApprovalVerdicts({
      manager: this.manager,
      switches: this.switches,
      approvals: this.approvals,
      settings: () => this.settings,
      securityOf: (server, tool) => this.securityOf(server, tool),
    });
    this.generated = new GeneratedTools({
      manager: this.manager,
      models: this.models,
      interaction: options.interaction,
      audit: options.audit,
      settings: () => this.settings,
      stateDir: options.stateDir,
      log: (message) => this.manager.bus.emit('log', { server_id: 'mgp', level: 'info', message }),
    });
    this.discovery = new ToolDiscovery({
      manager: this.manager,
      kernelTools: this.kernelTools,
      settings: () => this.settings,
      securityOf: (server, tool) => this.securityOf(server, tool),
      needsApproval: (serverId, toolName) => this.verdicts.wouldAsk(serverId, toolName),
      turnedOff: (serverId, toolName) => this.switches.turnedOff(serverId, toolName) !== undefined,
      creation: () => this.generated.options(options.operator.agentId),
    });
    this.discovery.indexKernelTools();
    this.pipeline = this.createPipeline(options);
    if (options.audit instanceof AuditTrail) options.audit.connect(this.manager, this.mgp);
    recordServerEvents(this.manager.bus, options.audit);
    announceLifecycle(this.manager, this.mgp);
  }

  /** MGP §11, §5, §13.3 and §15.4 kernel tools. */
  private builtInKernelTools(options: KernelOptions): KernelTool[] {
    return [
      ...lifecycleTools(this.manager),
      ...accessTools(this.access),
      ...eventTools(this.events),
      ...serverRegistryTools({
        manager: this.manager,
        mgp: this.mgp,
        interaction: options.interaction,
        audit: options.audit,
        settings: () => this.settings,
        workingFolder: options.workingFolder ?? options.stateDir,
        onRegistrationsChanged: (servers) =>
          void this.registered.save(servers, this.settings.keepRegisteredServers),
      }),
    ];
  }

  /** The one path of every tool call (pipeline/toolCallPipeline.ts says its stages). */
  private createPipeline(options: KernelOptions): ToolCallPipeline {
    return new ToolCallPipeline({
      manager: this.manager,
      kernelTools: this.kernelTools,
      settings: () => this.settings,
      securityOf: (server, tool) => this.securityOf(server, tool),
      access: this.access,
      approvals: this.approvals,
      turnedOff: (serverId, toolName) => this.switches.turnedOff(serverId, toolName),
      permissionState: (serverId, permission) => this.permissions.state(serverId, permission),
      validation: new CallValidation(options.validatorOptions),
      speaksMgp: (serverId) => this.mgp.of(serverId) !== undefined,
      negotiated: (serverId, extension) => this.mgp.active(serverId, extension),
      watchProgress: (serverId, requestId, listener) =>
        this.streams.watchProgress(serverId, requestId, listener),
      featureSetCheck: this.mcpl.calls.featureSetCheck,
      scopeCheck: this.mcpl.calls.scopeCheck,
      elicit: guardUrlElicitation((serverId, params, signal) =>
        options.interaction.elicit(serverId, params, signal),
      ),
      audit: options.audit,
    });
  }

  get settings(): KernelSettings {
    return this.config.kernel;
  }

  get currentConfig(): KernelConfig {
    return this.config;
  }

  /** Applies a (re)loaded config: settings at once, then servers started, stopped or restarted. */
  async apply(config: KernelConfig, autoStart = true): Promise<void> {
    this.config = config;
    this.models.allowModels(config.kernel.allowedModels);
    this.discovery.reconfigure();
    await Promise.all([this.access.load(), this.approvals.load(), this.switches.load()]);
    await this.manager.reconcile(config, autoStart);
    await this.mcpl.configChanged();
    this.discovery.resync();
    if (config.kernel.keepRegisteredServers && autoStart) await this.registered.restore();
  }

  /** A tool call through the pipeline, in the operator's name unless another caller is given. */
  call(request: Omit<ToolCallRequest, 'caller'> & { caller?: Caller }): Promise<ToolCallOutcome> {
    // Object.assign, not a spread: V8 gives a spread copy a shape that made every later step of the
    // pipeline slower (bench/call-overhead.mjs).
    return this.pipeline.call(
      Object.assign({}, request, { caller: request.caller ?? this.options.operator }),
    );
  }

  /**
   * A call whose output streams (MGP §12): chunks, progress and the end go through `streams`, and
   * `streams.cancel(stream.id)` stops it, keeping the partial result.
   */
  stream(request: StreamedCallRequest): {
    stream: ActiveStream;
    outcome: Promise<ToolCallOutcome>;
  } {
    return streamedCall(this.streams, (r) => this.call(r), request);
  }

  /**
   * Grants a tool ahead of its call, for the session or always, as the operator (recorded and
   * audited as an answer to a question; `requestedBy` is the agent the grant was given to use it).
   */
  async grantApproval(
    serverId: string,
    toolName: string,
    answer: 'session' | 'always' | 'server_session',
    requestedBy: string,
  ): Promise<boolean> {
    return this.verdicts.grant(serverId, toolName, answer, requestedBy);
  }

  /**
   * What the approval policy (MGP §3.3) makes of a call of the tool now, with the answers already
   * given: allow, ask the operator, or deny; undefined for a tool no connected server lists. (A
   * front end that asks in its own way, such as a language-model tool's confirmation, reads it first.)
   * Undefined too for a tool turned off: nobody is asked about a call the pipeline refuses.
   */
  approvalVerdict(serverId: string, toolName: string): ApprovalVerdict | undefined {
    return this.verdicts.verdict(serverId, toolName);
  }

  private sessionOf(id: string): ServerSession | undefined {
    return this.manager.find(id)?.liveSession();
  }

  securityOf(server: SupervisedServer, tool: ListedTool): EffectiveSecurity {
    return this.offered.securityOf(server, tool);
  }

  /** The instructions a connected server sent at initialize (data from the server, not trusted). */
  instructionsOf(serverId: string): string | undefined {
    return this.manager.find(serverId)?.instructions;
  }

  /** resources/read on a connected server: views read resources through the kernel, never a connection. */
  readResource(serverId: string, uri: string): Promise<ReadResourceResult> {
    return this.manager.get(serverId).session().readResource(uri);
  }

  /** completion/complete on a connected server (none asked of a server without `completions`). */
  complete(
    serverId: string,
    params: CompleteRequest['params'],
  ): Promise<CompleteResult['completion']> {
    return this.manager.get(serverId).session().complete(params);
  }

  /** resources/subscribe for one holder; updates come as the bus's `resourceUpdated`. */
  subscribeResource(serverId: string, uri: string): Promise<void> {
    return this.manager.get(serverId).subscribe(uri);
  }

  unsubscribeResource(serverId: string, uri: string): Promise<void> {
    return this.manager.find(serverId)?.unsubscribe(uri) ?? Promise.resolve();
  }

  /** prompts/get on a connected server, with the arguments filled in. */
  getPrompt(
    serverId: string,
    name: string,
    args: Record<string, string>,
  ): Promise<GetPromptResult> {
    return this.manager.get(serverId).session().getPrompt(name, args);
  }

  /**
   * Every tool of every connected server that is not turned off, then the kernel's own (MGP §16.8:
   * listed for discoverability).
   */
  tools(): KernelToolEntry[] {
    return this.offered.all();
  }

  /** A form's arguments against a tool's inputSchema, as the arguments stage will check them. */
  checkArguments(schema: Record<string, unknown> | undefined, args: unknown): ArgumentCheck {
    return this.pipeline.argumentChecker.check(schema, args);
  }

  /** The server's tools that are offered: all but those the user turned off. */
  offeredTools(server: SupervisedServer): ListedTool[] {
    return this.offered.of(server);
  }

  async dispose(): Promise<void> {
    this.discovery.endSession();
    this.tasks.dispose();
    await this.manager.dispose();
    this.generated.cleanUp();
  }
}
