/**
 * Streaming (MGP §12): chunk and progress notifications for one tools/call, MCP progress alongside,
 * and the `_mgp` block of the final result. The test knobs (shuffle, duplicate) are deterministic so
 * a client's reassembly can be checked exactly.
 */
import type { TextBlock } from './inflight';
import type { ToolContext } from './tooling';
import { textBlock } from './util';
import { Notifications } from './wire';

/**
 * The order chunks are sent in: 0, 1, 2… or, shuffled, each pair swapped (1, 0, 3, 2…), so the
 * last chunk (`done: true`) of an even count arrives before the one just below it.
 */
export function sendOrder(count: number, shuffle: boolean): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  if (!shuffle) return order;
  for (let i = 0; i + 1 < count; i += 2) [order[i], order[i + 1]] = [order[i + 1], order[i]];
  return order;
}

/** Splits text into word chunks that join back to exactly the same text. */
export function wordChunks(text: string): string[] {
  const chunks = text.match(/\s*\S+\s*/g) ?? [];
  return chunks.length ? chunks : [text];
}

/** The chunks of one call: what was produced (by index) and what was sent. */
export class ChunkStream {
  private parts: (string | undefined)[];
  /** Distinct chunks notified; a duplicate does not count again. */
  chunksSent = 0;
  readonly startedAt = Date.now();

  constructor(
    private readonly ctx: ToolContext,
    readonly total: number,
  ) {
    this.parts = new Array<string | undefined>(total).fill(undefined);
  }

  get produced(): number {
    return this.parts.filter((part) => part !== undefined).length;
  }

  /** The text produced so far, in index order (a shuffled stream may still have gaps). */
  text(): string {
    return this.parts.filter((part) => part !== undefined).join('');
  }

  content(): TextBlock[] {
    return [textBlock(this.text())];
  }

  /** Records chunk `index` and, when streaming, notifies it (twice with `duplicate`). */
  async push(index: number, text: string, duplicate = false): Promise<void> {
    this.parts[index] = text;
    if (!this.ctx.streaming) return;
    const params = {
      request_id: this.ctx.requestId,
      index,
      content: textBlock(text),
      done: index === this.total - 1,
    };
    await this.ctx.notify(Notifications.streamChunk, params);
    if (duplicate) await this.ctx.notify(Notifications.streamChunk, params);
    this.chunksSent += 1;
  }

  /** The final result's `_mgp` (MGP §12.5), or none for a call that neither streamed nor was cancelled. */
  resultMeta(cancelled: boolean): Record<string, unknown> | undefined {
    if (!this.ctx.streaming && !cancelled) return undefined;
    return {
      streamed: this.ctx.streaming,
      ...(cancelled && { cancelled: true }),
      chunks_sent: this.chunksSent,
      duration_ms: Date.now() - this.startedAt,
    };
  }
}

/** `notifications/mgp.stream.progress` (MGP §12.6), when `mgp` is true, and MCP progress when asked. */
export async function reportProgress(
  ctx: ToolContext,
  done: number,
  total: number,
  message: string,
  remainingMs: number,
  mgp: boolean,
): Promise<void> {
  if (mgp) {
    await ctx.notify(Notifications.streamProgress, {
      request_id: ctx.requestId,
      progress: total ? done / total : 1,
      message,
      estimated_remaining_ms: remainingMs,
    });
  }
  if (ctx.progressToken !== undefined) {
    await ctx.notify('notifications/progress', {
      progressToken: ctx.progressToken,
      progress: done,
      total,
      message,
    });
  }
}
