/**
 * Callback requests (MGP §13.4): the server asks the client something in the middle of a tool call
 * with `notifications/mgp.callback.request`, and the client answers with `mgp/callback/respond`.
 * A streamed llm_completion's text arrives before the answer as `notifications/mgp.stream.chunk`
 * whose `request_id` is the callback_id; `mgp/stream/cancel` to the client stops it (§12.7).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { z } from 'zod';
import { parseParams } from './errors';
import { CallbackRespondParams, Methods, messageOf, Notifications } from './wire';

const ChunkParams = z.looseObject({
  request_id: z.union([z.string(), z.number()]),
  content: z.looseObject({ text: z.string() }),
});

export type CallbackOutcome =
  { kind: 'response'; response: unknown } | { kind: 'timeout' } | { kind: 'cancelled' };

export class Callbacks {
  private pending = new Map<string, (response: unknown) => void>();
  private chunkReaders = new Map<string, (text: string) => void>();
  private counter = 0;
  private server?: Server;

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

  /** Hands each streamed chunk of `callbackId` to `read` until `stopReading` (MGP §12.4). */
  readChunks(callbackId: string, read: (text: string) => void): { stopReading(): void } {
    this.chunkReaders.set(callbackId, read);
    return { stopReading: () => this.chunkReaders.delete(callbackId) };
  }

  chunk(callbackId: string, text: string): void {
    this.chunkReaders.get(callbackId)?.(text);
  }

  /** Asks the client to stop streaming `callbackId`; its answer carries the partial text (§12.7). */
  async cancelStream(callbackId: string, reason: string): Promise<Record<string, unknown>> {
    if (!this.server) throw new Error('callbacks are not installed on a server');
    return this.server.request(
      { method: Methods.streamCancel, params: { request_id: callbackId, reason } },
      z.looseObject({}),
    );
  }

  attach(server: Server): void {
    this.server = server;
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
  server.setNotificationHandler(messageOf(Notifications.streamChunk), (notification) => {
    const params = ChunkParams.safeParse(notification.params);
    if (params.success) callbacks.chunk(String(params.data.request_id), params.data.content.text);
  });
  callbacks.attach(server);
}
