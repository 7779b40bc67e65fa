import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How many finished progress tokens are remembered, to recognise their late notifications. */
const REMEMBERED = 1024;

type Loose = { id?: string | number; method?: string; params?: Record<string, unknown> };

/**
 * Recognises `notifications/progress` that arrive after the request they report on has its final
 * response. A server may send one in the same breath as the result (the two race on the wire); the
 * SDK would report it as a protocol error ("unknown token"). It is not one: it is dropped quietly. A
 * token that was never issued stays the SDK's to report. A response that starts a task (MCP tasks)
 * is not final: its token lives on with the task.
 */
export class LateProgress {
  private readonly tokenOf = new Map<string, string>();
  private readonly finished = new Set<string>();

  /** An outgoing message: a request that asks for progress names its token. */
  sent(message: JSONRPCMessage): void {
    const m = message as Loose;
    if (m.method === undefined || m.id === undefined) return;
    const token = (m.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
    if (typeof token === 'string' || typeof token === 'number')
      this.tokenOf.set(String(m.id), String(token));
  }

  /** An incoming message; true when it is a progress notification for a finished request. */
  isLate(message: JSONRPCMessage): boolean {
    const m = message as Loose & { result?: { task?: { taskId?: unknown } } };
    if (m.method === 'notifications/progress') {
      const token = m.params?.progressToken;
      return token !== undefined && this.finished.has(String(token));
    }
    if (m.method !== undefined || m.id === undefined) return false;
    const id = String(m.id);
    const token = this.tokenOf.get(id);
    if (token === undefined) return false;
    this.tokenOf.delete(id);
    if (typeof m.result?.task?.taskId === 'string') return false;
    this.finished.add(token);
    if (this.finished.size > REMEMBERED)
      this.finished.delete(this.finished.values().next().value as string);
    return false;
  }
}
