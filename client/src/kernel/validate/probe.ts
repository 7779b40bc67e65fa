/**
 * One session of the validator with the server under test, opened with the kernel's own connection
 * code (`ServerConnection`), offering at initialize what the validator chooses: nothing beyond base
 * MCP, or MGP (§2.2) and MCPL. It keeps what the server sent outside requests (notifications, its own
 * requests) so checks can judge them, and every message both ways so a FAIL can show the exchange.
 */
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Authorizations } from '../auth/authorizations';
import type { SecretSource } from '../config/interpolate';
import type { ConfiguredServer } from '../config/types';
import { resolveEnvironment } from '../connection/environment';
import { ServerConnection } from '../connection/serverConnection';
import type { ListedTool } from '../connection/toolResults';
import { describeIsolation } from '../sandbox/isolation';
import { launchServer, type ServerLaunchDeps } from '../sandbox/serverLaunch';

/** A notification the server sent, or a request of its own (`request: true`: push/event…). */
export interface Notice {
  method: string;
  params: Record<string, unknown>;
  at: number;
  request?: true;
}

/** How the validator answers a request the server sends it (an MGP callback, say). */
export type RequestAnswer = (
  method: string,
  params: Record<string, unknown>,
) => Promise<Record<string, unknown>> | undefined;

export interface ProbeOptions {
  server: ConfiguredServer;
  /** Added to the client's capabilities at initialize: `{ mgp: … }`, `{ experimental: { mcpl } }`. */
  offer: Record<string, unknown>;
  hostEnv: Readonly<Record<string, string | undefined>>;
  secrets: SecretSource;
  authorization?: Authorizations;
  /**
   * Run a stdio server in its sandbox as the kernel would (its config's policy); without, the
   * command runs as typed, as `mgp validate server -- CMD` does.
   */
  sandbox?: ServerLaunchDeps;
  /** Extra requests from the server; unanswered ones get "method not found". */
  answer?: RequestAnswer;
  log?(level: string, message: string): void;
}

/** The last messages kept per session for a FAIL's exchange. */
const TRACE_KEPT = 400;

/** The client features the validator offers: no roots, no sampling, every elicitation declined. */
const VALIDATOR_HANDLERS = {
  roots: () => [],
  createMessage: (): never => {
    throw new McpError(ErrorCode.InvalidRequest, 'the validator does not sample');
  },
  elicit: async () => ({ action: 'decline' as const }),
};

/** As the kernel does (MGP §6.5): every request to a server that negotiated MGP carries a trace id. */
function stampTraceId(method: string, params: Record<string, unknown>): void {
  if (method.startsWith('mgp/')) params.trace_id ??= randomUUID();
  else if (params._mgp === undefined) params._mgp = { trace_id: randomUUID() };
  else if (typeof params._mgp === 'object' && params._mgp !== null)
    (params._mgp as Record<string, unknown>).trace_id ??= randomUUID();
}

export class Probe {
  readonly notices: Notice[] = [];
  readonly trace: { direction: 'send' | 'receive'; message: JSONRPCMessage }[] = [];
  readonly stderr: string[] = [];
  closedUnexpectedly = false;
  /** How the server's process ran: in which sandbox, or why in none (a sandboxed stdio server). */
  isolation?: string;
  private waiters: { test: (notice: Notice) => boolean; resolve: (notice: Notice) => void }[] = [];

  private constructor(
    readonly connection: ServerConnection,
    readonly options: ProbeOptions,
  ) {}

  static async open(options: ProbeOptions): Promise<Probe> {
    const { server } = options;
    const resolved = await resolveEnvironment(server, options.hostEnv, options.secrets);
    const authorization = await options.authorization?.providerFor({
      server,
      secrets: resolved.oauth,
      signInRequested: () => true,
      log: (level, message) => options.log?.(level, message),
    });
    const built: { probe?: Probe; early: Notice[]; trace: Probe['trace'] } = {
      early: [],
      trace: [],
    };
    const record = (notice: Notice) =>
      built.probe ? built.probe.received(notice) : built.early.push(notice);
    const launch =
      options.sandbox && server.transport === 'stdio'
        ? await launchServer(server, resolved, options.sandbox)
        : undefined;
    const connection = await ServerConnection.open(server, resolved, {
      authorization,
      launch,
      extraCapabilities: options.offer,
      handlers: VALIDATOR_HANDLERS,
      outgoingRequest: (method, params) => {
        if (options.offer.mgp && built.probe?.capabilities.mgp) stampTraceId(method, params);
      },
      trace: (direction, message) => {
        const trace = built.probe?.trace ?? built.trace;
        trace.push({ direction, message });
        if (trace.length > TRACE_KEPT) trace.splice(0, trace.length - TRACE_KEPT);
      },
      hooks: {
        onLog: (level, message) => {
          if (level === 'stderr') (built.probe?.stderr ?? []).push(message);
          options.log?.(level, message);
        },
        onListChanged: (kind) =>
          record({ method: `notifications/${kind}/list_changed`, params: {}, at: Date.now() }),
        onResourceUpdated: (uri) =>
          record({ method: 'notifications/resources/updated', params: { uri }, at: Date.now() }),
        onNotification: (method, params) => record({ method, params, at: Date.now() }),
        onRequest: (method, params) => {
          record({ method, params, at: Date.now(), request: true });
          return options.answer?.(method, params);
        },
        onClosed: (expected) => {
          void launch?.dispose();
          if (!expected && built.probe) built.probe.closedUnexpectedly = true;
        },
      },
    }).catch(async (error: unknown) => {
      await launch?.dispose();
      throw error;
    });
    const probe = new Probe(connection, options);
    if (launch) probe.isolation = describeIsolation(launch.isolation);
    probe.trace.push(...built.trace);
    for (const notice of built.early) probe.received(notice);
    built.probe = probe;
    return probe;
  }

  private received(notice: Notice): void {
    this.notices.push(notice);
    if (notice.method === 'notifications/mgp.callback.request') this.answerCallback(notice.params);
    const ready = this.waiters.filter((waiter) => waiter.test(notice));
    this.waiters = this.waiters.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) waiter.resolve(notice);
  }

  /**
   * Answers an MGP callback (§13.4) as a cautious operator would: no to a confirmation, the first of
   * a selection, nothing typed for input. A notification needs no answer; the validator has no model
   * for an llm_completion, so that one goes unanswered and the server's timeout applies.
   */
  private answerCallback(params: Record<string, unknown>): void {
    const options = Array.isArray(params.options) ? (params.options as unknown[]) : [];
    const answers: Record<string, unknown> = {
      confirmation: options.includes('cancel') ? 'cancel' : false,
      selection: options[0] ?? null,
      input: '',
    };
    const type = String(params.type);
    if (typeof params.callback_id !== 'string' || !(type in answers)) return;
    this.connection
      .request('mgp/callback/respond', { callback_id: params.callback_id, response: answers[type] })
      .catch((error: unknown) =>
        this.options.log?.('warning', `mgp/callback/respond: ${String(error)}`),
      );
  }

  /** The server's capabilities as sent, extension fields kept. */
  get capabilities(): Record<string, unknown> {
    return this.connection.rawServerCapabilities;
  }

  /** The first notice (already come or to come) that passes `test`, or undefined after `timeoutMs`. */
  waitFor(test: (notice: Notice) => boolean, timeoutMs: number): Promise<Notice | undefined> {
    const seen = this.notices.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const waiter = {
        test,
        resolve: (notice: Notice) => {
          clearTimeout(timer);
          resolve(notice);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((other) => other !== waiter);
        resolve(undefined);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** The answer the server sent to request `id`, as it came, for a FAIL's exchange. */
  answerTo(id: RequestId): JSONRPCMessage | undefined {
    return this.trace.find(
      (entry) => entry.direction === 'receive' && 'id' in entry.message && entry.message.id === id,
    )?.message;
  }

  /** The last request sent with this method, as it went. */
  lastSent(method: string): JSONRPCMessage | undefined {
    for (let i = this.trace.length - 1; i >= 0; i--) {
      const { direction, message } = this.trace[i];
      if (direction === 'send' && 'method' in message && message.method === method) return message;
    }
    return undefined;
  }

  listTools(): Promise<ListedTool[]> {
    return this.connection.listTools();
  }

  async close(): Promise<void> {
    await this.connection.close().catch(() => undefined);
  }
}
