/** stream_text and long_task: output that takes time, streamed (MGP §12) when the client asks. */
import { z } from 'zod';
import type { Session } from '../session';
import { ChunkStream, reportProgress, sendOrder, wordChunks } from '../streaming';
import { defineTool, security, type ToolContext, type ToolDef, type ToolResult } from '../tooling';
import { sleep } from '../util';

const LOREM =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'.split(
    ' ',
  );

function generatedText(words: number): string {
  return Array.from({ length: words }, (_, i) => LOREM[i % LOREM.length]).join(' ');
}

function finalResult(
  stream: ChunkStream,
  ctx: ToolContext,
  structured: Record<string, unknown>,
): ToolResult {
  const meta = stream.resultMeta(ctx.signal.aborted);
  return {
    content: stream.content(),
    structuredContent: { ...structured, cancelled: ctx.signal.aborted },
    ...(meta && { _mgp: meta }),
  };
}

const streamTextInput = z.object({
  text: z.string().min(1).optional().describe('Text to stream word by word'),
  words: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(20)
    .describe('Without text: how many words to generate'),
  delay_ms: z.number().int().min(0).max(5000).default(20).describe('Pause between chunks'),
  shuffle: z
    .boolean()
    .default(false)
    .describe('Test knob: send chunks out of order (each pair swapped)'),
  duplicate: z.boolean().default(false).describe('Test knob: send every even-numbered chunk twice'),
});

function streamText(): ToolDef {
  return defineTool({
    name: 'stream_text',
    title: 'Stream text',
    description:
      'Produces text word by word with a pause between words; streams it as MGP chunks when the call asks for a stream.',
    input: streamTextInput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    security: security('safe', { reversible: true, confirmation_required: false }),
    run: async (args, ctx) => {
      const chunks = wordChunks(args.text ?? generatedText(args.words));
      const stream = new ChunkStream(ctx, chunks.length);
      ctx.setPartial(() => stream.content());
      const order = sendOrder(chunks.length, args.shuffle);
      for (const [step, index] of order.entries()) {
        if (ctx.signal.aborted) break;
        await stream.push(index, chunks[index], args.duplicate && index % 2 === 0);
        const remaining = order.length - step - 1;
        await reportProgress(
          ctx,
          step + 1,
          order.length,
          `Chunk ${step + 1} of ${order.length}`,
          remaining * args.delay_ms,
          ctx.streaming,
        );
        if (remaining > 0) await sleep(args.delay_ms, ctx.signal);
      }
      return finalResult(stream, ctx, { chunks: chunks.length, produced: stream.produced });
    },
  });
}

function longTask(session: Session): ToolDef {
  return defineTool({
    name: 'long_task',
    title: 'Long task',
    description:
      'Works through a number of steps with a pause for each, reporting progress as it goes.',
    input: z.object({
      steps: z.number().int().min(1).max(1000).default(5),
      delay_ms: z.number().int().min(0).max(60_000).default(100).describe('Time each step takes'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    security: security('safe', { reversible: true, confirmation_required: false }),
    run: async ({ steps, delay_ms }, ctx) => {
      const stream = new ChunkStream(ctx, steps);
      ctx.setPartial(() => stream.content());
      for (let step = 1; step <= steps; step += 1) {
        await sleep(delay_ms, ctx.signal);
        if (ctx.signal.aborted) break;
        await stream.push(step - 1, `Step ${step}/${steps} done\n`);
        // MGP §12.6 progress is for long operations, streamed or not: sent whenever `streaming` is active.
        await reportProgress(
          ctx,
          step,
          steps,
          `Step ${step} of ${steps}`,
          (steps - step) * delay_ms,
          session.has('streaming'),
        );
      }
      return finalResult(stream, ctx, { steps, completed: stream.produced });
    },
  });
}

export function streamTools(session: Session): ToolDef[] {
  return [streamText(), longTask(session)];
}
