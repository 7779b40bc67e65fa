/**
 * The MCPL side of each connection (MCPL 0.4.1), a kernel service beside MGP's: it advertises
 * `experimental.mcpl` (§5.2), reads the server's (§5.1), sends `featureSets/update` after
 * initialization and on every change (§5.3, §6.7), answers the server's MCPL requests (push events,
 * scope elevation, inference, model info, channels) and takes its notifications. MCP servers that do
 * not advertise MCPL pass through untouched (§3.3).
 */
import type { AuditSink } from '../audit/auditSink';
import type { ConfiguredServer, FeatureSetPolicy, McplSettings } from '../config/types';
import type {
  ConnectionService,
  IncomingRequestContext,
  ServerSession,
} from '../connection/service';
import type { ListedTool } from '../connection/toolResults';
import type { Interaction, ScopeQuestion } from '../host/interaction';
import type { ModelRouter } from '../llm/modelRouter';
import { hostMcplCapability, parseServerMcpl } from './capabilities';
import { Channels } from './channels';
import { Checkpoints } from './checkpoints';
import { ContextHooks, ShownInjection } from './contextHooks';
import {
  featureSetsMatching,
  policyFor,
  readFeatureSetsChanged,
  sendFeatureSetUpdate,
} from './featureSetUpdates';
import { FeatureSetTable, FeatureSetView } from './featureSets';
import { InferenceRequests } from './inference';
import { McplAudit } from './mcplAudit';
import { mcplRequestHandlers, RequestHandler } from './mcplRequests';
import type { McplServer } from './mcplServer';
import { McplMethods } from './protocol';
import { PushEvents } from './pushEvents';
import { ScopeAnswers } from './scopes';
import { FeatureSetSwitches } from './switches';
import { McplCalls } from './mcplCalls';

export interface McplHostDeps {
  audit: AuditSink;
  interaction: Interaction;
  models: ModelRouter;
  stateDir: string;
  /** The server's `[servers.mcpl]` now (it changes with the config, without a restart). */
  settingsOf(serverId: string): McplSettings | undefined;
  /** The server's session now, when connected. */
  session(serverId: string): ServerSession | undefined;
}

export type { McplServer };

export class McplHost implements ConnectionService {
  readonly audit: McplAudit;
  readonly scopes = new ScopeAnswers();
  readonly switches: FeatureSetSwitches;
  readonly checkpoints: Checkpoints;
  readonly pushEvents: PushEvents;
  readonly inference: InferenceRequests;
  readonly channels: Channels;
  /** The agent loop's seam for MCPL §10: `session.use(kernel.mcpl.contextHooks)`. */
  readonly contextHooks: ContextHooks;
  /** MCPL's checks in the pipeline, and what a tools/call carries (mcplCalls.ts). */
  readonly calls: McplCalls;
  private readonly injectionListeners = new Set<(injection: ShownInjection) => void>();
  private readonly servers = new Map<string, McplServer>();
  private readonly listeners = new Set<(serverId: string) => void>();
  /** Context hooks waiting for an answer, per server (§10.7 loop prevention). */
  private readonly hooksRunning = new Map<string, number>();
  private readonly handlers: Record<string, RequestHandler>;

  constructor(private readonly deps: McplHostDeps) {
    this.audit = new McplAudit(deps.audit);
    this.switches = new FeatureSetSwitches(deps.stateDir);
    this.checkpoints = new Checkpoints(deps.stateDir);
    this.calls = new McplCalls({
      server: (serverId) => this.servers.get(serverId),
      settings: (serverId) => this.settings(serverId),
      checkpoints: this.checkpoints,
      audit: this.audit,
      scopes: this.scopes,
      ask: (question) => this.askScope(question),
      log: (serverId, level, message) => this.deps.session(serverId)?.log(level, message),
    });
    this.pushEvents = new PushEvents({
      audit: this.audit,
      policyOf: (serverId, featureSet) =>
        this.policyOf(serverId, featureSet).pushEvents ??
        this.settings(serverId)?.pushEvents ??
        'queue',
      rateOf: (serverId) => this.settings(serverId)?.pushEventsPerSecond ?? 10,
    });
    this.inference = new InferenceRequests({
      models: deps.models,
      audit: this.audit,
      policyOf: (serverId, featureSet) => {
        const policy = this.policyOf(serverId, featureSet);
        return {
          inference: policy.inference ?? this.settings(serverId)?.inference ?? 'ask',
          model: policy.model,
        };
      },
      ask: deps.interaction.approveInference?.bind(deps.interaction),
      hookRunning: (serverId) => (this.hooksRunning.get(serverId) ?? 0) > 0,
    });
    this.channels = new Channels({
      audit: this.audit,
      request: (serverId, method, params) =>
        this.session(serverId).connection.request(method, params),
      notify: (serverId, method, params) =>
        this.session(serverId).connection.notify(method, params),
      tableOf: (serverId) => this.servers.get(serverId)?.table,
      settingsOf: (serverId) => this.settings(serverId),
      servers: () => [...this.servers.keys()],
    });
    this.contextHooks = new ContextHooks({
      audit: this.audit,
      servers: () => this.connectedServers(),
      session: (serverId) => this.deps.session(serverId),
      settings: (serverId) => this.settings(serverId),
      hookStarted: (serverId) => this.hookStarted(serverId),
      shown: (injection) => {
        for (const listener of this.injectionListeners) listener(injection);
      },
    });
    this.handlers = mcplRequestHandlers({
      audit: this.audit,
      pushEvents: this.pushEvents,
      scopes: this.scopes,
      inference: this.inference,
      channels: this.channels,
      settings: (serverId) => this.settings(serverId),
      askScope: (question) => this.askScope(question),
    });
  }

  /** Context a server injected (§10.4, §13.4), for a front end to show as that server's. */
  onInjection(listener: (injection: ShownInjection) => void): () => void {
    this.injectionListeners.add(listener);
    return () => this.injectionListeners.delete(listener);
  }

  private settings(serverId: string): McplSettings | undefined {
    return this.deps.settingsOf(serverId);
  }

  private session(serverId: string): ServerSession {
    const session = this.deps.session(serverId);
    if (!session || !this.servers.has(serverId))
      throw new Error(`${serverId} is not connected over MCPL`);
    return session;
  }

  /** The feature-set policy that covers a set: an exact name over a wildcard, a longer wildcard over a shorter (§11.5). */
  policyOf(serverId: string, featureSet: string): FeatureSetPolicy {
    return policyFor(this.settings(serverId), featureSet);
  }

  onChange(listener: (serverId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(serverId: string): void {
    for (const listener of this.listeners) listener(serverId);
  }

  // ConnectionService

  capabilities(server: ConfiguredServer): Record<string, unknown> {
    return server.policy.mcpl?.enabled === false
      ? {}
      : { experimental: { mcpl: hostMcplCapability() } };
  }

  async connected(session: ServerSession): Promise<void> {
    this.servers.delete(session.id);
    if (session.config.policy.mcpl?.enabled === false) return;
    const parsed = parseServerMcpl(session.connection.rawServerCapabilities);
    for (const problem of parsed.problems) session.log('warning', `MCPL: ${problem}`);
    if (!parsed.mcpl) return;
    await Promise.all([this.switches.load(), this.checkpoints.load()]);
    const server: McplServer = {
      id: session.id,
      mcpl: parsed.mcpl,
      table: new FeatureSetTable(parsed.mcpl.featureSets.values(), this.settings(session.id), () =>
        this.switches.of(session.id),
      ),
    };
    this.servers.set(session.id, server);
    const sets = server.table.list();
    session.log(
      'info',
      `MCPL ${parsed.mcpl.version} active: ${sets.length} feature sets (${
        sets
          .filter((s) => s.enabled)
          .map((s) => s.name)
          .join(', ') || 'none enabled'
      })`,
    );
    await this.sendUpdate(server, 'initialization');
    if (parsed.mcpl.channels.lifecycle || parsed.mcpl.channels.register)
      void this.channels
        .refresh(session.id)
        .catch((error: unknown) =>
          session.log('debug', `MCPL channels/list: ${(error as Error).message}`),
        );
    this.changed(session.id);
  }

  disconnected(serverId: string): void {
    if (!this.servers.delete(serverId)) return;
    this.pushEvents.forget(serverId);
    this.channels.forget(serverId);
    this.changed(serverId);
  }

  notification(session: ServerSession, method: string, params: Record<string, unknown>): boolean {
    const server = this.servers.get(session.id);
    if (!server) return false;
    if (method === McplMethods.featureSetsChanged) {
      this.featureSetsChanged(server, session, params);
      return true;
    }
    if (method === McplMethods.channelsChanged) {
      try {
        this.channels.change(session.id, params);
      } catch (error) {
        session.log('warning', `MCPL channels/changed ignored: ${(error as Error).message}`);
      }
      return true;
    }
    return false;
  }

  request(
    session: ServerSession,
    method: string,
    params: Record<string, unknown>,
    context: IncomingRequestContext,
  ): Promise<Record<string, unknown>> | undefined {
    const handler = this.handlers[method];
    const server = this.servers.get(session.id);
    if (!handler || !server) return undefined;
    return handler(server, session, params, context);
  }

  toolCall(serverId: string, tool: ListedTool | string, args: Record<string, unknown>) {
    return this.calls.extension(serverId, tool, args);
  }

  private askScope(question: ScopeQuestion): Promise<boolean> | undefined {
    const ask = this.deps.interaction.approveScope;
    return ask
      ? ask.call(this.deps.interaction, question, new AbortController().signal)
      : undefined;
  }

  /** §6.7 featureSets/changed: sets added and removed; the update goes out again. */
  private featureSetsChanged(
    server: McplServer,
    session: ServerSession,
    params: Record<string, unknown>,
  ): void {
    const problems: string[] = [];
    const { added, removed } = readFeatureSetsChanged(params, problems);
    for (const problem of problems) session.log('warning', `MCPL: ${problem}`);
    server.table.change(added, removed);
    this.audit.record('feature_sets', {
      serverId: server.id,
      outcome: 'CHANGED',
      details: { added: added.map((s) => s.name), removed },
    });
    void this.sendUpdate(server, 'featureSets/changed');
    this.changed(server.id);
  }

  private sendUpdate(server: McplServer, why: string): Promise<void> {
    const session = this.deps.session(server.id);
    return sendFeatureSetUpdate(server, session, this.settings(server.id), this.audit, why);
  }

  // What views, the CLI and the config reload use

  /** MCPL servers connected now, with their feature sets. */
  list(): { serverId: string; version: string; featureSets: FeatureSetView[] }[] {
    return [...this.servers.values()].map((server) => ({
      serverId: server.id,
      version: server.mcpl.version,
      featureSets: server.table.list(),
    }));
  }

  server(serverId: string): McplServer | undefined {
    return this.servers.get(serverId);
  }

  /**
   * The user switches sets on or off (`name` may be a wildcard, §6.3); `enabled` undefined hands
   * them back to the config. Sends featureSets/update; what is switched off stops at once.
   */
  async switchFeatureSets(
    serverId: string,
    pattern: string,
    enabled: boolean | undefined,
  ): Promise<string[]> {
    const server = this.servers.get(serverId);
    if (!server) throw new Error(`${serverId} is not connected over MCPL`);
    const names = featureSetsMatching(server, pattern);
    await this.switches.set(serverId, names, enabled);
    this.audit.record('feature_sets', {
      serverId,
      outcome: enabled === undefined ? 'RESET' : enabled ? 'ENABLED' : 'DISABLED',
      actor: { type: 'operator', id: 'user' },
      details: { feature_sets: names },
    });
    for (const name of names)
      if (!server.table.isEnabled(name)) this.inference.cancel(serverId, name);
    await this.sendUpdate(server, 'user switch');
    this.changed(serverId);
    return names;
  }

  /** After a config reload: updates go out to servers whose lists changed. */
  async configChanged(): Promise<void> {
    await Promise.all(
      [...this.servers.values()].map(async (server) => {
        await this.sendUpdate(server, 'configuration change');
        for (const set of server.table.list())
          if (!set.enabled) this.inference.cancel(server.id, set.name);
      }),
    );
    for (const id of this.servers.keys()) this.changed(id);
  }

  /** §8.5: the user rolls a feature set back to a checkpoint. */
  async rollback(
    serverId: string,
    featureSet: string,
    checkpoint: string,
  ): Promise<{ success: boolean; reason?: string }> {
    const audit = (outcome: string, details: Record<string, unknown>) =>
      this.audit.record('state', {
        serverId,
        featureSet,
        outcome,
        actor: { type: 'operator', id: 'user' },
        details: { operation: 'rollback', checkpoint, ...details },
      });
    try {
      const result = await this.checkpoints.rollback(
        serverId,
        featureSet,
        checkpoint,
        (id, set, target) =>
          this.session(id).connection.request(McplMethods.stateRollback, {
            featureSet: set,
            checkpoint: target,
          }),
      );
      audit(result.success ? 'SUCCESS' : 'FAILURE', result.reason ? { reason: result.reason } : {});
      return result;
    } catch (error) {
      audit('FAILURE', {
        reason: error instanceof Error ? error.message : String(error),
        code: (error as { code?: unknown }).code,
      });
      throw error;
    }
  }

  /** Marks a context hook of the server running, for loop prevention (§10.7); returns its end. */
  hookStarted(serverId: string): () => void {
    this.hooksRunning.set(serverId, (this.hooksRunning.get(serverId) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.hooksRunning.get(serverId) ?? 1) - 1;
      if (left > 0) this.hooksRunning.set(serverId, left);
      else this.hooksRunning.delete(serverId);
    };
  }

  /** Servers speaking MCPL, in order, for the context hooks. */
  connectedServers(): McplServer[] {
    return [...this.servers.values()];
  }
}
