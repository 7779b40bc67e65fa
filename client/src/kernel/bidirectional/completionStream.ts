/**
 * A streamed llm_completion. MGP §13.4 gives the callback "§12 chunk delivery" and cancellation by
 * `mgp/stream/cancel`: a server that asks with `stream: true` receives the model's text as
 * `notifications/mgp.stream.chunk` (§12.4) whose `request_id` is its callback_id, then the whole
 * answer in `mgp/callback/respond` with `_mgp.streamed` (§12.5). A server that sends
 * `mgp/stream/cancel` naming that callback_id stops the model request; the cancel's answer carries
 * the text so far (§12.7), and no `mgp/callback/respond` follows.
 */
import type { ServerSession } from '../connection/service';
import type { MgpSessions } from '../mgp/mgpSessions';

export class CompletionStream {
  private readonly stopper = new AbortController();
  private readonly started = Date.now();
  private sent = 0;
  private text = '';
  private sending: Promise<void> = Promise.resolve();
  /** Ends the model request at the callback's timeout or the server's cancel. */
  readonly signal: AbortSignal;

  constructor(
    private readonly session: ServerSession,
    readonly callbackId: string,
    expired: AbortSignal,
  ) {
    this.signal = AbortSignal.any([expired, this.stopper.signal]);
  }

  /** Sends one piece of the model's text, in order; nothing once cancelled. */
  readonly onText = (delta: string): void => {
    if (this.cancelled || delta === '') return;
    this.text += delta;
    const params = {
      request_id: this.callbackId,
      callback_id: this.callbackId,
      index: this.sent++,
      content: { type: 'text', text: delta },
      done: false,
    };
    this.sending = this.sending
      .then(() => this.session.connection.notify('notifications/mgp.stream.chunk', params))
      .catch((error: unknown) =>
        this.session.log('debug', `stream chunk not delivered: ${String(error)}`),
      );
  };

  get cancelled(): boolean {
    return this.stopper.signal.aborted;
  }

  /** Every chunk handed to the connection, so the final answer comes after the last one. */
  flushed(): Promise<void> {
    return this.sending;
  }

  /** What §12.5's final response says about the stream. */
  summary(): { streamed: true; chunks_sent: number; duration_ms: number } {
    return { streamed: true, chunks_sent: this.sent, duration_ms: Date.now() - this.started };
  }

  cancel(reason: string): Record<string, unknown> {
    this.stopper.abort(new Error(`cancelled by the server: ${reason}`));
    return {
      cancelled: true,
      partial_result: { content: [{ type: 'text', text: this.text }] },
    };
  }
}

/** The streamed completions under way, each addressable by its server and callback_id. */
export class CompletionStreams {
  private readonly live = new Map<string, CompletionStream>();

  constructor(mgp: MgpSessions) {
    mgp.onRequest('mgp/stream/cancel', (session, params) => {
      const id = params.request_id;
      const stream =
        typeof id === 'string' || typeof id === 'number'
          ? this.live.get(key(session.id, String(id)))
          : undefined;
      if (!stream) return Promise.resolve({ cancelled: false });
      const reason = typeof params.reason === 'string' ? params.reason : 'unspecified';
      return Promise.resolve(stream.cancel(reason));
    });
  }

  open(session: ServerSession, callbackId: string, expired: AbortSignal): CompletionStream {
    const stream = new CompletionStream(session, callbackId, expired);
    this.live.set(key(session.id, callbackId), stream);
    return stream;
  }

  close(session: ServerSession, stream: CompletionStream): void {
    this.live.delete(key(session.id, stream.callbackId));
  }
}

function key(serverId: string, callbackId: string): string {
  return `${serverId}\0${callbackId}`;
}
