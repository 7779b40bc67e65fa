import type { Prompt, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { ConfiguredServer } from '../config/types';
import type { ListKind } from '../connection/clientFeatures';
import { describeProgress, type StartProgress } from '../connection/connectDeadline';
import type {
  CallOptions,
  CappedResult,
  ListedTool,
  ServerConnection,
} from '../connection/serverConnection';
import type { IncomingRequestContext, ServerSession } from '../connection/service';
import { canTransition, ServerState } from '../domain/serverState';
import type { Isolation } from '../sandbox/isolation';
import type { KernelEvent } from './events';
import { InFlightCalls } from './inFlightCalls';
import { listAgain, listEverything } from './listings';
import { openConnection, SupervisorDeps } from './openConnection';
import { RestartTracker } from './restartPolicy';
import { SubscriptionHolders } from './subscriptionHolders';
import { unusableError } from './unusable';

export type { SupervisorDeps } from './openConnection';

const DEFAULT_DRAIN_MS = 5000;

/** One configured server kept running by its restart policy (MGP §11), publishing every transition. */
export class SupervisedServer {
  state: ServerState = 'registered';
  lastError: string | undefined;
  /** Why the start gate keeps this server from starting (e.g. an untrusted workspace); undefined once let through. */
  heldBack: string | undefined;
  tools: ListedTool[] = [];
  resources: Resource[] = [];
  resourceTemplates: ResourceTemplate[] = [];
  prompts: Prompt[] = [];
  connectedAt: number | undefined;
  /** While connecting: when it began, and what the server showed if a period passed with it working. */
  connecting: { since: number; progress?: StartProgress } | undefined;
  /** How its process runs (stdio servers, once started): in which sandbox, or why in none. */
  isolation: Isolation | undefined;
  /** The workspace folders its sandbox was given when it started. */
  private sandboxFolders: readonly string[] = [];
  private connection: ServerConnection | undefined;
  private readonly calls: InFlightCalls;
  private restartTimer: NodeJS.Timeout | undefined;
  /** The server announced its own shutdown (notifications/mgp.lifecycle): its exit is not a failure. */
  private announcedExit = false;
  private readonly subscriptions = new SubscriptionHolders();
  private readonly tracker: RestartTracker;
  /** The server asks for a sign-in that has not happened (MCP 2025-11-25, Authorization). */
  needsSignIn = false;
  /** The person asked to sign in to this server: a sign-in may open the browser. */
  private signInRequested = false;

  constructor(
    private current: ConfiguredServer,
    private readonly deps: SupervisorDeps,
  ) {
    this.tracker = new RestartTracker(current.settings.restart);
    this.calls = new InFlightCalls(current.id, deps.session);
  }

  get id(): string {
    return this.current.id;
  }

  get config(): ConfiguredServer {
    return this.current;
  }

  /** A config whose launch settings are the ones running (the caller checked): policy and source change in place. */
  useConfig(next: ConfiguredServer): void {
    this.current = next;
  }

  get pendingRequests(): number {
    return this.calls.count;
  }

  get subscribedUris(): readonly string[] {
    return this.subscriptions.uris;
  }

  private transition(to: ServerState, reason: string, error?: string): void {
    if (this.state === to || !canTransition(this.state, to)) return;
    const previous = this.state;
    this.state = to;
    this.connecting = to === 'connecting' ? { since: Date.now() } : undefined;
    if (error !== undefined) this.lastError = error;
    if (to === 'connected') {
      this.lastError = undefined;
      this.needsSignIn = false;
    }
    this.deps.bus.emit('transition', {
      server_id: this.id,
      previous_state: previous,
      new_state: to,
      reason,
      timestamp: new Date().toISOString(),
      ...(error ? { error } : {}),
    });
  }

  private emitEvent(type: KernelEvent['type'], detail: Record<string, unknown>): void {
    const timestamp = new Date().toISOString();
    this.deps.bus.emit('event', { type, server_id: this.id, timestamp, detail });
  }

  log(level: string, message: string): void {
    this.deps.bus.emit('log', { server_id: this.id, level, message });
  }

  /** Why the managed policy keeps this server from starting; undefined when it may start. */
  get blockedByPolicy(): string | undefined {
    return this.current.blockedByPolicy?.reason;
  }

  /** A start the managed policy refuses: never started, and each refusal audited (dev.mgp-kernel.server_blocked). */
  private refuseByPolicy(requestedBy: string): void {
    const block = this.current.blockedByPolicy;
    if (!block) return;
    const changed = this.lastError !== block.reason;
    this.lastError = block.reason;
    this.emitEvent('dev.mgp-kernel.server_blocked', {
      reason: block.reason,
      policy: block.file,
      policy_key: block.key,
      requested_by: requestedBy,
    });
    if (changed) this.deps.bus.emit('servers', { server_ids: [this.id] });
  }

  /** The start gate refused to start the server: it waits, with the reason shown as its error. */
  holdBack(reason: string): void {
    const changed = this.heldBack !== reason;
    this.heldBack = reason;
    this.lastError = reason;
    if (changed) this.deps.bus.emit('servers', { server_ids: [this.id] });
  }

  /** Starts (or restarts after a failure); resolves when connected or failed, never throws. */
  async start(reason = 'operator_request'): Promise<void> {
    clearTimeout(this.restartTimer);
    if (this.current.blockedByPolicy) return this.refuseByPolicy(reason);
    if (this.heldBack !== undefined) {
      this.heldBack = undefined;
      this.lastError = undefined;
    }
    if (this.state === 'connected' || this.state === 'connecting') return;
    if (reason === 'operator_request') this.tracker.reset();
    this.announcedExit = false;
    this.transition('connecting', reason);
    try {
      const connection = await this.open();
      this.connection = connection;
      const session = this.sessionOf(connection);
      for (const service of this.deps.session.services) await service.connected?.(session);
      Object.assign(this, await listEverything(connection));
      await this.subscriptions.renew(
        (uri) => connection.subscribe(uri),
        (uri, error) => this.log('warning', `re-subscribing ${uri} failed: ${String(error)}`),
      );
      await connection
        .setLoggingLevel(this.deps.session.logLevel)
        .catch((error: unknown) =>
          this.log('warning', `logging/setLevel failed: ${String(error)}`),
        );
      this.connectedAt = Date.now();
      this.transition('connected', reason);
      this.emitEvent('SERVER_CONNECTED', {
        tools: this.tools.length,
        transport: this.config.transport,
        protocol_version: connection.protocolVersion,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log('error', `start failed: ${message}`);
      const failed = this.connection;
      this.connection = undefined;
      await failed?.close().catch(() => undefined);
      this.notifyDisconnected();
      if ((error as { code?: unknown }).code === 'AuthRequired') this.signInNeeded(message);
      else this.failed(message);
    }
  }

  /** Starts again with a sign-in: the browser (or the headless agent) takes the person through it. */
  async signIn(): Promise<void> {
    this.signInRequested = true;
    if (this.state === 'connected') await this.restart('operator_request');
    else await this.start('operator_request');
  }

  /** Forgets the sign-in and reconnects without it; false when there was none. */
  async signOut(): Promise<boolean> {
    this.signInRequested = false;
    const had = (await this.deps.session.authorization?.signOut(this.config)) ?? false;
    if (this.state === 'connected' || this.state === 'error')
      await this.restart('operator_request');
    return had;
  }

  /** Waiting for the person to sign in: an error no restart can mend. */
  private signInNeeded(message: string): void {
    this.needsSignIn = true;
    this.transition('error', 'auth_required', message);
  }

  private open(): Promise<ServerConnection> {
    return openConnection(this.config, this.deps, {
      log: (level, message) => this.log(level, message),
      signInRequested: () => this.signInRequested,
      refresh: (kind) => void this.refresh(kind),
      notification: (method, params) => this.onNotification(method, params),
      request: (connection, method, params, context) =>
        this.onRequest(connection, method, params, context),
      closed: (connection, expected) => this.onClosed(connection, expected),
      isolated: (isolation, folders) => {
        this.isolation = isolation;
        this.sandboxFolders = folders;
      },
      starting: (progress) => {
        if (!this.connecting) return;
        this.connecting.progress = progress;
        this.log('info', describeProgress(progress));
        this.deps.bus.emit('starting', { server_id: this.id, progress });
      },
    });
  }

  private onRequest(
    connection: ServerConnection | undefined,
    method: string,
    params: Record<string, unknown>,
    context: IncomingRequestContext,
  ): Promise<Record<string, unknown>> | undefined {
    const live = connection ?? this.connection;
    if (!live) return undefined;
    const session = this.sessionOf(live);
    for (const service of this.deps.session.services) {
      const answer = service.request?.(session, method, params, context);
      if (answer) return answer;
    }
    this.log('debug', `unhandled request ${method}: answered "method not found"`);
    return undefined;
  }

  private sessionOf(connection: ServerConnection): ServerSession {
    return {
      id: this.id,
      config: this.config,
      connection,
      log: (level, message) => this.log(level, message),
    };
  }

  private onNotification(method: string, params: Record<string, unknown>): void {
    if (method === 'notifications/mgp.lifecycle') return this.onServerLifecycle(params);
    const connection = this.connection;
    if (!connection) return;
    const session = this.sessionOf(connection);
    if (
      !this.deps.session.services.some((service) => service.notification?.(session, method, params))
    ) {
      this.log('debug', `unhandled notification ${method}`);
    }
  }

  /** MGP §11.5 from the server: it is draining or going away on its own. */
  private onServerLifecycle(params: Record<string, unknown>): void {
    const next = String(params.new_state ?? '');
    this.log(
      'info',
      `server reports ${String(params.previous_state ?? '?')} → ${next} (${String(params.reason ?? 'no reason given')})`,
    );
    if (next === 'draining' || next === 'disconnected') {
      this.announcedExit = true;
      if (this.state === 'connected')
        this.transition('draining', String(params.reason ?? 'server_request'));
    }
  }

  /** list_changed → list again; the views and the tool index follow the bus. */
  private async refresh(kind: ListKind): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    try {
      Object.assign(this, await listAgain(connection, kind));
      this.deps.bus.emit('listChanged', { server_id: this.id, kind });
    } catch (error) {
      this.log(
        'warning',
        `${kind}/list after list_changed failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** resources/subscribe for one more holder (see SubscriptionHolders). */
  async subscribe(uri: string): Promise<void> {
    await this.subscriptions.add(uri, (u) => this.session().subscribe(u));
  }

  /** One holder less; resources/unsubscribe when it was the last. */
  async unsubscribe(uri: string): Promise<void> {
    await this.subscriptions.remove(uri, async (u) => {
      await this.connection?.unsubscribe(u);
    });
  }

  private onClosed(connection: ServerConnection | undefined, expected: boolean): void {
    if (expected || (connection && this.connection !== connection)) return;
    this.connection = undefined;
    this.connectedAt = undefined;
    this.notifyDisconnected();
    if (this.announcedExit) this.exited();
    else this.failed('the server closed the connection');
  }

  private notifyDisconnected(): void {
    for (const service of this.deps.session.services) service.disconnected?.(this.id);
  }

  /** A clean exit the server announced: only the `always` policy restarts it. */
  private exited(): void {
    this.transition('disconnected', 'server_request');
    this.scheduleRestart(this.tracker.decide(false), 'the server shut itself down');
  }

  /** error, then a restart after the backoff, or the error state for good past the limit. */
  private failed(message: string): void {
    this.transition('error', 'runtime_error', message);
    this.scheduleRestart(this.tracker.decide(true), message);
  }

  private scheduleRestart(decision: ReturnType<RestartTracker['decide']>, message: string): void {
    const { maxRestarts, windowMs } = this.config.settings.restart;
    if (decision.restart) {
      this.log(
        'info',
        `restarting in ${decision.delayMs} ms (attempt ${decision.attempt} of ${maxRestarts})`,
      );
      this.restartTimer = setTimeout(() => {
        this.transition('restarting', 'restart_policy');
        void this.start('restart_policy');
      }, decision.delayMs);
    } else if (decision.reason === 'restart_limit_exceeded') {
      this.log('error', `gave up after ${maxRestarts} restarts within ${windowMs / 1000} s`);
      this.transition('error', 'restart_limit_exceeded', message);
      this.emitEvent('SERVER_DISCONNECTED', {
        reason: 'restart_limit_exceeded',
        error: message,
        max_restarts: maxRestarts,
        restart_window_secs: windowMs / 1000,
      });
    }
  }

  /** Graceful shutdown (MGP §11.4): finish in-flight calls, refuse new ones with 2001, then close. */
  async stop(reason = 'operator_request', drainTimeoutMs = DEFAULT_DRAIN_MS): Promise<void> {
    clearTimeout(this.restartTimer);
    this.heldBack = undefined;
    const connection = this.connection;
    if (!connection) {
      this.transition('disconnected', reason);
      return;
    }
    this.transition('draining', reason);
    await this.calls.drain(drainTimeoutMs);
    this.connection = undefined;
    this.connectedAt = undefined;
    await connection.close().catch(() => undefined);
    this.notifyDisconnected();
    this.transition('disconnected', reason);
    this.emitEvent('SERVER_DISCONNECTED', { reason });
  }

  /** Whether it runs in a sandbox made for other workspace folders than these. */
  sandboxedWithout(folders: readonly string[]): boolean {
    if (!this.isolation?.sandboxed || this.state !== 'connected') return false;
    const had = [...this.sandboxFolders].sort().join('\n');
    return had !== [...folders].sort().join('\n');
  }

  async restart(reason = 'operator_request'): Promise<void> {
    await this.stop(reason);
    this.transition('restarting', reason);
    await this.start(reason);
  }

  /** The live connection, or the MGP §14.3 lifecycle error a caller should see. */
  private usable(): ServerConnection {
    const error = unusableError(
      this.id,
      this.state,
      !!this.connection,
      this.lastError,
      this.heldBack,
      this.blockedByPolicy,
    );
    if (error || !this.connection) throw error;
    return this.connection;
  }

  callTool(
    tool: ListedTool | string,
    args: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<CappedResult> {
    let connection: ServerConnection;
    try {
      connection = this.usable();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.calls.call(connection, tool, args, options);
  }

  /** Base MCP requests other than tools/call: same draining rule, no in-flight bookkeeping needed. */
  session(): ServerConnection {
    return this.usable();
  }

  /** The instructions the server sent at initialize, while connected (its data: not trusted). */
  get instructions(): string | undefined {
    return this.connection?.instructions;
  }

  /** The session over the connection while there is one, whatever the state. */
  liveSession(): ServerSession | undefined {
    return this.connection && this.sessionOf(this.connection);
  }

  /** The connection while there is one, whatever the state (for notifications such as audit forwarding). */
  get liveConnection(): ServerConnection | undefined {
    return this.connection;
  }
}
