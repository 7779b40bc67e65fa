/**
 * Tool calls in progress, by the JSON-RPC id of their tools/call, so `mgp/stream/cancel` (MGP §12.7)
 * can stop one and hand back what it had produced so far.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { parseParams } from './errors';
import { Methods, messageOf, StreamCancelParams } from './wire';

export type TextBlock = {
  type: 'text';
  text: string;
};

export interface CallHandle {
  readonly cancel: AbortController;
  /** What the call has produced so far; tools that build output step by step replace it. */
  partial: () => TextBlock[];
}

/** Ids are matched by their text, so a client that sends 7 for "7" still finds its call. */
function keyOf(id: RequestId): string {
  return String(id);
}

export class InFlightCalls {
  private calls = new Map<string, CallHandle>();

  start(id: RequestId): CallHandle {
    const handle: CallHandle = { cancel: new AbortController(), partial: () => [] };
    this.calls.set(keyOf(id), handle);
    return handle;
  }

  finish(id: RequestId): void {
    this.calls.delete(keyOf(id));
  }

  /** Stops the call and returns its partial output; `{ cancelled: false }` for an unknown or finished id. */
  cancel(id: RequestId, reason: string) {
    const handle = this.calls.get(keyOf(id));
    if (!handle || handle.cancel.signal.aborted) return { cancelled: false };
    const content = handle.partial();
    handle.cancel.abort(reason);
    return { cancelled: true, partial_result: { content } };
  }
}

export function installCancelMethod(server: Server, calls: InFlightCalls): void {
  server.setRequestHandler(messageOf(Methods.streamCancel), (request) => {
    const params = parseParams(StreamCancelParams, request.params, Methods.streamCancel);
    return calls.cancel(params.request_id, params.reason ?? 'cancelled');
  });
}
