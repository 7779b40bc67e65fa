/**
 * The kernel as an A2A server (`mgp serve --a2a PORT`): its agent card and, under the listen path,
 * A2A 1.0 and 0.3 JSON-RPC (the official SDK's request handler and transport handlers; streaming
 * over SSE) and OpenFang's endpoints (OpenFang, A2A API Endpoints: `tasks/send`, `GET tasks/{id}`,
 * `POST tasks/{id}/cancel`, `agents`). Bound to 127.0.0.1 unless told otherwise; a bearer token on
 * everything but the public cards; `Host` and `Origin` checked (no page in a browser may drive it);
 * requests rate limited and their bodies bounded. Tasks run the kernel's agent loop
 * (kernelExecutor.ts) and are kept in a bounded store (taskStore.ts).
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AgentCard,
  CancelTaskRequest,
  GetTaskRequest,
  SendMessageRequest,
  TaskState,
  type Task,
} from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  type User,
} from '@a2a-js/sdk/server';
import { isLegacyJsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { MGP_KERNEL_VERSION } from '@shared/version';
import type { ChatModel } from '../../llm/chatModel';
import type { Kernel } from '../../kernel';
import { KernelExecutor } from './kernelExecutor';
import type { PeerQuestions } from './peerQuestions';
import { BoundedTaskStore, DEFAULT_MAX_TASKS } from './taskStore';

export const MAX_A2A_BODY_BYTES = 1024 * 1024;
export const DEFAULT_A2A_RATE_PER_MINUTE = 120;

export interface A2aSkillSummary {
  id: string;
  name: string;
  description: string;
}

export interface A2aFrontOptions {
  kernel: Kernel;
  model: () => ChatModel | undefined;
  port: number;
  /** Where to listen (default 127.0.0.1). */
  host?: string;
  /** The server's own bearer token (its holder is `agent.a2a.peer`); a new random one when left out. */
  token?: string;
  /** Peers with tokens of their own (`[[a2a.peers]]`), each its own identity `agent.a2a.<name>`. */
  peers?: readonly { name: string; token: string; approves?: boolean }[];
  /** Where a task's call that needs approval asks a peer that `approves` (peerQuestions.ts). */
  questions?: PeerQuestions;
  /** The agent's name and description on its card. */
  name: string;
  description: string;
  /** What the card offers, summarised from what the connected servers offer. */
  skills: () => A2aSkillSummary[];
  listenPath?: string;
  maxTasks?: number;
  ratePerMinute?: number;
  onLog?(message: string): void;
}

const OPENFANG_STATES: Partial<Record<TaskState, string>> = {
  [TaskState.TASK_STATE_SUBMITTED]: 'submitted',
  [TaskState.TASK_STATE_WORKING]: 'working',
  [TaskState.TASK_STATE_INPUT_REQUIRED]: 'input_required',
  [TaskState.TASK_STATE_COMPLETED]: 'completed',
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_CANCELED]: 'cancelled',
  [TaskState.TASK_STATE_REJECTED]: 'failed',
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > MAX_A2A_BODY_BYTES)
      return reject(new HttpError(413, `the body is over ${MAX_A2A_BODY_BYTES} bytes`));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_A2A_BODY_BYTES) {
        reject(new HttpError(413, `the body is over ${MAX_A2A_BODY_BYTES} bytes`));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new HttpError(400, 'the body is not a JSON object');
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The peer a request came from, as the SDK's handler and the task store see it. */
class PeerUser implements User {
  constructor(readonly userName: string) {}

  get isAuthenticated(): boolean {
    return true;
  }
}

export class A2aFront {
  readonly store: BoundedTaskStore;
  readonly token: string;
  private readonly handler: DefaultRequestHandler;
  private readonly v1: JsonRpcTransportHandler;
  private readonly legacy: LegacyJsonRpcTransportHandler;
  private readonly listenPath: string;
  private window = { start: Date.now(), count: 0 };

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: A2aFrontOptions,
  ) {
    this.token = options.token ?? randomBytes(32).toString('base64url');
    this.listenPath = (options.listenPath ?? '/a2a').replace(/\/+$/, '') || '/a2a';
    this.store = new BoundedTaskStore(options.maxTasks ?? DEFAULT_MAX_TASKS);
    const executor = new KernelExecutor({
      kernel: options.kernel,
      model: options.model,
      questions: options.questions,
      mayApprove: (peer) => options.peers?.some((p) => p.name === peer && p.approves) ?? false,
      onLog: options.onLog,
    });
    this.handler = new DefaultRequestHandler(this.card(), this.store, executor);
    this.v1 = new JsonRpcTransportHandler(this.handler);
    this.legacy = new LegacyJsonRpcTransportHandler(this.handler);
  }

  static async listen(options: A2aFrontOptions): Promise<A2aFront> {
    const server = createServer();
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const shown = host.includes(':') ? `[${host}]` : host;
    const front = new A2aFront(server, `http://${shown}:${port}`, options);
    server.on('request', (req, res) => {
      front.handle(req, res).catch((error: unknown) => {
        if (res.headersSent) return void res.destroy();
        const status = error instanceof HttpError ? error.status : 500;
        sendJson(res, status, { error: error instanceof Error ? error.message : String(error) });
      });
    });
    return front;
  }

  get endpoint(): string {
    return `${this.url}${this.listenPath}`;
  }

  /** The A2A 1.0 card: both protocol versions over JSON-RPC at the listen path. */
  private card(): AgentCard {
    return AgentCard.fromJSON({
      name: this.options.name,
      description: this.options.description,
      version: MGP_KERNEL_VERSION,
      supportedInterfaces: [
        { url: this.endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: this.endpoint, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      capabilities: { streaming: true, pushNotifications: false },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: this.skills().map((skill) => ({ ...skill, tags: ['tool'], examples: [] })),
    });
  }

  private skills(): A2aSkillSummary[] {
    return this.options.skills().slice(0, 50);
  }

  /** The card as A2A 0.3 and OpenFang's peers read it. */
  private legacyCard(): Record<string, unknown> {
    return {
      protocolVersion: '0.3.0',
      name: this.options.name,
      description: this.options.description,
      url: this.endpoint,
      preferredTransport: 'JSONRPC',
      version: MGP_KERNEL_VERSION,
      capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: this.skills().map((skill) => ({ ...skill, tags: ['tool'], examples: [] })),
    };
  }

  private checkRequest(req: IncomingMessage): void {
    const port = new URL(this.url).port;
    const host = req.headers.host ?? '';
    const bound = new URL(this.url).hostname;
    const names = LOOPBACK_NAMES.includes(bound) ? LOOPBACK_NAMES : [bound];
    if (!names.some((name) => host === `${name}:${port}`))
      throw new HttpError(421, `Host ${host || '(none)'} is not this server`);
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== this.url)
      throw new HttpError(403, `requests from the web page ${origin} are refused`);
    const now = Date.now();
    if (now - this.window.start >= 60_000) this.window = { start: now, count: 0 };
    if (++this.window.count > (this.options.ratePerMinute ?? DEFAULT_A2A_RATE_PER_MINUTE))
      throw new HttpError(429, 'too many requests; try again in a minute');
  }

  /** The peer whose token the request carries: a `[[a2a.peers]]` name, or `peer` for the server's own. */
  private callerOf(req: IncomingMessage): string | undefined {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer (.+)$/i.exec(header);
    if (!match) return undefined;
    // Every token is compared, so the time taken does not say which one nearly matched.
    let caller: string | undefined;
    for (const peer of this.options.peers ?? [])
      if (sameToken(match[1], peer.token)) caller ??= peer.name;
    if (sameToken(match[1], this.token)) caller ??= 'peer';
    return caller;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.checkRequest(req);
    const path = new URL(req.url ?? '/', this.url).pathname;
    if (req.method === 'GET' && path === '/.well-known/agent-card.json') {
      const version = String(req.headers['a2a-version'] ?? '');
      return sendJson(
        res,
        200,
        version.startsWith('1.') ? AgentCard.toJSON(this.card()) : this.legacyCard(),
      );
    }
    if (req.method === 'GET' && path === '/.well-known/agent.json')
      return sendJson(res, 200, this.legacyCard());
    const caller = this.callerOf(req);
    if (caller === undefined) {
      res.setHeader('www-authenticate', 'Bearer');
      return sendJson(res, 401, { error: 'a bearer token is required' });
    }
    const user = new PeerUser(caller);
    const p = this.listenPath;
    if (req.method === 'GET' && path === `${p}/agents`)
      return sendJson(res, 200, { agents: [this.legacyCard()], total: 1 });
    if (req.method === 'POST' && path === p) return this.jsonRpc(req, res, user);
    if (req.method === 'POST' && path === `${p}/tasks/send`)
      return this.openFangSend(req, res, user);
    const task = new RegExp(
      `^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/tasks/([^/]+)(/cancel)?$`,
    ).exec(path);
    if (task && req.method === 'GET' && !task[2])
      return this.openFangTask(res, decodeURIComponent(task[1]), false, user);
    if (task && req.method === 'POST' && task[2])
      return this.openFangTask(res, decodeURIComponent(task[1]), true, user);
    sendJson(res, 404, { error: 'not found' });
  }

  private async jsonRpc(req: IncomingMessage, res: ServerResponse, user: PeerUser): Promise<void> {
    const body = parseJson(await readBody(req));
    const legacy = isLegacyJsonRpcMethod(body.method);
    const context = new ServerCallContext({ requestedVersion: legacy ? '0.3' : '1.0', user });
    const answer = legacy
      ? await this.legacy.handle(body, context)
      : await this.v1.handle(body, context);
    if (!(Symbol.asyncIterator in answer)) return sendJson(res, 200, answer);
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const stream = answer as AsyncGenerator<unknown, void, undefined>;
    req.on('close', () => void stream.return(undefined));
    for await (const event of stream) res.write(`data: ${JSON.stringify(event)}\n\n`);
    res.end();
  }

  /** OpenFang's `tasks/send`: the task runs to its end, and comes back bare. */
  private async openFangSend(
    req: IncomingMessage,
    res: ServerResponse,
    user: PeerUser,
  ): Promise<void> {
    const body = parseJson(await readBody(req));
    const params = (body.params ?? {}) as { message?: { parts?: unknown[] }; sessionId?: unknown };
    const text = (params.message?.parts ?? [])
      .map((part) => {
        const p = part as { type?: unknown; text?: unknown };
        return p.type === 'text' && typeof p.text === 'string' ? p.text : '';
      })
      .filter(Boolean)
      .join('\n');
    if (!text) throw new HttpError(400, 'the message has no text part');
    const sessionId = typeof params.sessionId === 'string' ? params.sessionId : undefined;
    const request = SendMessageRequest.fromJSON({
      message: {
        messageId: randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text }],
        ...(sessionId ? { contextId: sessionId } : {}),
      },
    });
    const context = new ServerCallContext({ user });
    const result = await this.handler.sendMessage(request, context);
    if (!('status' in result)) throw new HttpError(500, 'the agent answered without a task');
    sendJson(res, 200, this.openFangView(result, context));
  }

  private async openFangTask(
    res: ServerResponse,
    id: string,
    cancel: boolean,
    user: PeerUser,
  ): Promise<void> {
    const context = new ServerCallContext({ user });
    if (!(await this.store.load(id, context)))
      return sendJson(res, 404, { error: 'Task not found' });
    const task = cancel
      ? await this.handler.cancelTask(CancelTaskRequest.fromJSON({ id }), context)
      : await this.handler.getTask(GetTaskRequest.fromJSON({ id }), context);
    sendJson(res, 200, this.openFangView(task, context));
  }

  /** A task as OpenFang writes it (OpenFang, Task Lifecycle), with its state history. */
  private openFangView(task: Task, context: ServerCallContext): Record<string, unknown> {
    const part = (p: Task['history'][number]['parts'][number]) => {
      switch (p.content?.$case) {
        case 'text':
          return { type: 'text', text: p.content.value };
        case 'data':
          return {
            type: 'data',
            mime_type: p.mediaType || 'application/json',
            data: p.content.value,
          };
        case 'raw':
          return {
            type: 'file',
            name: p.filename,
            mime_type: p.mediaType,
            data: Buffer.from(p.content.value).toString('base64'),
          };
        default:
          return { type: 'text', text: '' };
      }
    };
    const messages = [...task.history, ...(task.status?.message ? [task.status.message] : [])].map(
      (m) => ({ role: m.role === 1 ? 'user' : 'agent', parts: m.parts.map(part) }),
    );
    return {
      id: task.id,
      sessionId: task.contextId || null,
      status: OPENFANG_STATES[task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED] ?? 'working',
      messages,
      artifacts: task.artifacts.map((a) => ({ name: a.name, parts: a.parts.map(part) })),
      history: (this.store.historyOf(task.id, context) ?? []).map((change) => ({
        status: OPENFANG_STATES[change.state] ?? 'working',
        at: change.at,
      })),
    };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
