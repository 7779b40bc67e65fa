/**
 * One tool call's stream (MGP §12): `chunk()` sends `notifications/mgp.stream.chunk` when the call
 * asked for a stream (and does nothing otherwise), `progress()` sends §12.6 progress, `signal` aborts
 * on `mgp/stream/cancel`, and the final result gets `_mgp.streamed` and `chunks_sent` (§12.5).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

export class ToolStream {
  private sent = 0;
  private readonly texts: string[] = [];
  private readonly controller = new AbortController();

  constructor(
    private readonly server: McpServer,
    private readonly requestId: RequestId,
    /** The call asked for a stream and the client negotiated streaming. */
    readonly streaming: boolean,
  ) {}

  /** Aborted when the client cancels the call with mgp/stream/cancel (§12.7). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Sends the next piece of text; kept either way for the final result and a cancel's partial result. */
  async chunk(text: string, done = false): Promise<void> {
    this.texts.push(text);
    if (!this.streaming) return;
    await this.server.server.notification({
      method: 'notifications/mgp.stream.chunk',
      params: {
        request_id: this.requestId,
        index: this.sent,
        content: { type: 'text', text },
        done,
      },
    } as never);
    this.sent += 1;
  }

  /** Progress of a long operation, 0 to 1 (§12.6). */
  async progress(progress: number, message?: string): Promise<void> {
    if (!this.streaming) return;
    await this.server.server.notification({
      method: 'notifications/mgp.stream.progress',
      params: { request_id: this.requestId, progress, ...(message && { message }) },
    } as never);
  }

  /** The text sent so far, whole. */
  get text(): string {
    return this.texts.join('');
  }

  cancel(): void {
    this.controller.abort();
  }

  partialResult(): { content: { type: 'text'; text: string }[] } {
    return { content: [{ type: 'text', text: this.text }] };
  }

  /** The final result's `_mgp` (§12.5), or none for a call that did not stream. */
  resultMeta(): Record<string, unknown> | undefined {
    if (this.signal.aborted) return { cancelled: true, chunks_sent: this.sent };
    return this.streaming ? { streamed: true, chunks_sent: this.sent } : undefined;
  }
}
