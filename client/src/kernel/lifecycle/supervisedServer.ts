import type { Prompt, Resource } from '@modelcontextprotocol/sdk/types.js';
import type { SecretSource } from '../config/interpolate';
import type { ConfiguredServer } from '../config/model';
import { resolveEnvironment } from '../connection/environment';
import { CallOptions, CappedResult, ListedTool, ServerConnection } from '../connection/serverConnection';
import { KernelError, SERVER_DRAINING } from '../errors';
import type { KernelBus } from '../events';
import { RestartTracker } from './restartPolicy';
import { canTransition, ServerState } from './states';

export interface SupervisorDeps {
  bus: KernelBus;
  hostEnv: Readonly<Record<string, string | undefined>>;
  secrets: SecretSource;
}

const DEFAULT_DRAIN_MS = 5000;

/** One configured server kept running by its restart policy (MGP §11), publishing every transition. */
export class SupervisedServer {
  state: ServerState = 'registered';
  lastError: string | undefined;
  tools: ListedTool[] = [];
  resources: Resource[] = [];
  prompts: Prompt[] = [];
  connectedAt: number | undefined;
  private connection: ServerConnection | undefined;
  private inFlight = 0;
  private drained: (() => void) | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly tracker: RestartTracker;

  constructor(readonly config: ConfiguredServer, private readonly deps: SupervisorDeps) {
    this.tracker = new RestartTracker(config.settings.restart);
  }

  get id(): string {
    return this.config.id;
  }

  get pendingRequests(): number {
    return this.inFlight;
  }

  private transition(to: ServerState, reason: string, error?: string): void {
    if (this.state === to) return;
    if (!canTransition(this.state, to)) return;
    const previous = this.state;
    this.state = to;
    if (error !== undefined) this.lastError = error;
    this.deps.bus.emit('transition', { server_id: this.id, previous_state: previous, new_state: to, reason, timestamp: new Date().toISOString(), ...(error ? { error } : {}) });
  }

  private log(level: string, message: string): void {
    this.deps.bus.emit('log', { server_id: this.id, level, message });
  }

  /** Starts (or restarts after a failure); resolves when connected or failed, never throws. */
  async start(reason = 'operator_request'): Promise<void> {
    clearTimeout(this.restartTimer);
    if (this.state === 'connected' || this.state === 'connecting') return;
    if (reason === 'operator_request') this.tracker.reset();
    this.transition('connecting', reason);
    try {
      const resolved = await resolveEnvironment(this.config, this.deps.hostEnv, this.deps.secrets);
      for (const reference of resolved.missing) this.log('warning', `${reference} has no value; it resolves to an empty string`);
      const connection = await ServerConnection.open(this.config, resolved, {
        onLog: (level, message) => this.log(level, message),
        onToolsChanged: () => void this.refreshTools(),
        onClosed: (expected) => this.onClosed(connection, expected),
      });
      this.connection = connection;
      [this.tools, this.resources, this.prompts] = await Promise.all([connection.listTools(), connection.listResources(), connection.listPrompts()]);
      this.connectedAt = Date.now();
      this.transition('connected', reason);
      this.deps.bus.emit('event', { type: 'SERVER_CONNECTED', server_id: this.id, timestamp: new Date().toISOString(), detail: { tools: this.tools.length } });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log('error', `start failed: ${message}`);
      await this.connection?.close().catch(() => undefined);
      this.connection = undefined;
      this.failed(message);
    }
  }

  private async refreshTools(): Promise<void> {
    if (!this.connection) return;
    try {
      this.tools = await this.connection.listTools();
      this.deps.bus.emit('toolsChanged', { server_id: this.id });
    } catch (error) {
      this.log('warning', `tools/list after list_changed failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private onClosed(connection: ServerConnection | undefined, expected: boolean): void {
    if (expected || (connection && this.connection !== connection)) return;
    this.connection = undefined;
    this.connectedAt = undefined;
    this.failed('the server closed the connection');
  }

  /** error, then a restart after the backoff, or the error state for good past the limit. */
  private failed(message: string): void {
    this.transition('error', 'runtime_error', message);
    const decision = this.tracker.decide(true);
    if (decision.restart) {
      this.log('info', `restarting in ${decision.delayMs} ms (attempt ${decision.attempt} of ${this.config.settings.restart.maxRestarts})`);
      this.restartTimer = setTimeout(() => {
        this.transition('restarting', 'restart_policy');
        void this.start('restart_policy');
      }, decision.delayMs);
    } else if (decision.reason === 'restart_limit_exceeded') {
      this.log('error', `gave up after ${this.config.settings.restart.maxRestarts} restarts within ${this.config.settings.restart.windowMs / 1000} s`);
      this.deps.bus.emit('event', { type: 'SERVER_DISCONNECTED', server_id: this.id, timestamp: new Date().toISOString(), detail: { reason: 'restart_limit_exceeded', error: message } });
    }
  }

  /** Graceful shutdown (MGP §11.4): finish in-flight calls, refuse new ones with 2001, then close. */
  async stop(reason = 'operator_request', drainTimeoutMs = DEFAULT_DRAIN_MS): Promise<void> {
    clearTimeout(this.restartTimer);
    const connection = this.connection;
    if (!connection) {
      this.transition('disconnected', reason);
      return;
    }
    this.transition('draining', reason);
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainTimeoutMs);
        this.drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.connection = undefined;
    this.connectedAt = undefined;
    await connection.close().catch(() => undefined);
    this.transition('disconnected', reason);
  }

  async restart(reason = 'operator_request'): Promise<void> {
    await this.stop(reason);
    this.transition('restarting', reason);
    await this.start(reason);
  }

  /** The live connection, or the error a caller should see. */
  private usable(): ServerConnection {
    if (this.state === 'draining') throw new KernelError('ServerDraining', `${this.id} is shutting down and takes no new requests`, SERVER_DRAINING);
    if (this.state !== 'connected' || !this.connection) throw new KernelError('NotConnected', `${this.id} is ${this.state}${this.lastError ? `: ${this.lastError}` : ''}`);
    return this.connection;
  }

  async callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<CappedResult> {
    const connection = this.usable();
    this.inFlight++;
    try {
      return await connection.callTool(name, args, options);
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.drained?.();
    }
  }

  /** Base MCP requests other than tools/call: same draining rule, no in-flight bookkeeping needed. */
  session(): ServerConnection {
    return this.usable();
  }
}
