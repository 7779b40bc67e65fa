/**
 * Callback requests (MGP §13.4): the server asks the client something in the middle of a tool call
 * with `notifications/mgp.callback.request`, and the client answers with `mgp/callback/respond`.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { parseParams } from './errors';
import { CallbackRespondParams, Methods, messageOf } from './wire';

export type CallbackOutcome =
  { kind: 'response'; response: unknown } | { kind: 'timeout' } | { kind: 'cancelled' };

export class Callbacks {
  private pending = new Map<string, (response: unknown) => void>();
  private counter = 0;

  newId(): string {
    this.counter += 1;
    return `cb-${this.counter}`;
  }

  /**
   * Waits for the client's answer to `callbackId`. Call it before sending the request, so an answer
   * that comes back at once still finds its waiter.
   */
  wait(callbackId: string, timeoutMs: number, signal: AbortSignal): Promise<CallbackOutcome> {
    return new Promise((resolve) => {
      const finish = (outcome: CallbackOutcome) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(callbackId);
        resolve(outcome);
      };
      const onAbort = () => finish({ kind: 'cancelled' });
      const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(callbackId, (response) => finish({ kind: 'response', response }));
      if (signal.aborted) onAbort();
    });
  }

  /** Delivers an answer; not acknowledged when nobody waits for that id (unknown, timed out or answered). */
  respond(callbackId: string, response: unknown): { acknowledged: boolean } {
    const deliver = this.pending.get(callbackId);
    deliver?.(response);
    return { acknowledged: deliver !== undefined };
  }
}

export function installCallbackMethod(server: Server, callbacks: Callbacks): void {
  server.setRequestHandler(messageOf(Methods.callbackRespond), (request) => {
    const params = parseParams(CallbackRespondParams, request.params, Methods.callbackRespond);
    return callbacks.respond(params.callback_id, params.response);
  });
}
