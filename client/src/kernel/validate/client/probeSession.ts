/**
 * One client session as the probe server saw it: what the client offered at initialize, what the
 * probe answered, every message both ways with when it passed, and the state the scenario's tools
 * keep for the session (the permission decisions delivered, the streams running).
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

export interface SeenMessage {
  at: number;
  direction: 'in' | 'out';
  message: JSONRPCMessage;
}

export interface SeenRequest {
  at: number;
  id: RequestId;
  method: string;
  params: Record<string, unknown>;
}

/** A stream the probe runs for one tools/call (MGP §12), stoppable by `mgp/stream/cancel`. */
export interface RunningStream {
  cancel(reason: string): void;
  partial(): string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class ProbeSession {
  id = '';
  readonly messages: SeenMessage[] = [];
  /** The probe's `capabilities.mgp`, when the client offered MGP. */
  mgp?: Record<string, unknown>;
  /** Permission decisions delivered with `mgp/permission/grant` (MGP §3.6), by permission. */
  readonly grants = new Map<string, string>();
  /** Between `mgp/permission/await` and its grant (MGP §3.5). */
  awaiting = false;
  readonly streams = new Map<string, RunningStream>();
  closed = false;
  private readonly closers: (() => void)[] = [];

  constructor(
    /** The params of the client's initialize request. */
    readonly initialize: Record<string, unknown>,
  ) {}

  /** What the client offered in `capabilities` at initialize. */
  get offer(): Record<string, unknown> {
    const capabilities = this.initialize.capabilities;
    return isObject(capabilities) ? capabilities : {};
  }

  negotiate(mgp: Record<string, unknown> | undefined): void {
    this.mgp = mgp;
  }

  /** Whether this extension is active on the session (MGP §2.4 rule 1). */
  active(extension: string): boolean {
    const extensions = this.mgp?.extensions;
    return Array.isArray(extensions) && extensions.includes(extension);
  }

  received(body: unknown): void {
    const at = Date.now();
    for (const message of Array.isArray(body) ? body : body === undefined ? [] : [body])
      if (isObject(message))
        this.messages.push({ at, direction: 'in', message: message as JSONRPCMessage });
  }

  sent(message: JSONRPCMessage): void {
    this.messages.push({ at: Date.now(), direction: 'out', message });
  }

  /** The client's requests of `method`, in order. */
  requests(method: string): SeenRequest[] {
    return this.messages.flatMap(({ at, direction, message }) =>
      direction === 'in' && 'method' in message && 'id' in message && message.method === method
        ? [{ at, id: message.id, method, params: isObject(message.params) ? message.params : {} }]
        : [],
    );
  }

  /** The client's notifications of `method`, in order. */
  notifications(method: string): { at: number; params: Record<string, unknown> }[] {
    return this.messages.flatMap(({ at, direction, message }) =>
      direction === 'in' && 'method' in message && !('id' in message) && message.method === method
        ? [{ at, params: isObject(message.params) ? message.params : {} }]
        : [],
    );
  }

  /** The client's tools/call requests, of one tool when named. */
  toolCalls(name?: string): SeenRequest[] {
    return this.requests('tools/call').filter(
      (call) => name === undefined || call.params.name === name,
    );
  }

  /** The probe's answer to the client's request `id`, and when it went. */
  answerTo(id: RequestId): SeenMessage | undefined {
    return this.messages.find(
      ({ direction, message }) =>
        direction === 'out' && !('method' in message) && 'id' in message && message.id === id,
    );
  }

  /** The probe's notifications of `method`, in order. */
  sentNotifications(method: string): { at: number; params: Record<string, unknown> }[] {
    return this.messages.flatMap(({ at, direction, message }) =>
      direction === 'out' && 'method' in message && message.method === method
        ? [{ at, params: isObject(message.params) ? message.params : {} }]
        : [],
    );
  }

  /** Called when the session ends: its timers and streams stop. */
  onClose(closer: () => void): void {
    if (this.closed) closer();
    else this.closers.push(closer);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const stream of this.streams.values()) stream.cancel('session closed');
    for (const closer of this.closers.splice(0)) closer();
  }
}
