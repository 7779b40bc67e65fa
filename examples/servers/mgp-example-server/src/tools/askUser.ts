/**
 * ask_user: a callback request to the client in the middle of a call (MGP §13.4), of each type:
 * confirmation, input, selection, notification (no answer expected) and llm_completion.
 */
import { z } from 'zod';
import type { CallbackOutcome, Callbacks } from '../callbacks';
import type { Events } from '../events';
import type { Session } from '../session';
import {
  defineTool,
  security,
  textResult,
  type ToolContext,
  type ToolDef,
  toolError,
  type ToolResult,
} from '../tooling';
import { Notifications } from '../wire';

const CALLBACK_TYPES = [
  'confirmation',
  'input',
  'selection',
  'notification',
  'llm_completion',
] as const;

const askUserInput = z.object({
  type: z.enum(CALLBACK_TYPES),
  message: z.string().min(1).default('Please answer'),
  options: z
    .array(z.string())
    .min(1)
    .optional()
    .describe('Choices for confirmation (default confirm/cancel) and selection (required)'),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(600_000)
    .optional()
    .describe('How long to wait: 60 s by default, 120 s for llm_completion'),
  model_hints: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('llm_completion only: hints for the host to pick a model'),
  tools: z
    .array(
      z.object({
        name: z.string().min(1),
        description: z.string().default(''),
        input_schema: z.record(z.string(), z.unknown()).default({ type: 'object' }),
      }),
    )
    .optional()
    .describe('llm_completion only: tools the model may call (its tool_calls come back)'),
  stream: z
    .boolean()
    .optional()
    .describe('llm_completion only: ask for the answer as it is written, in chunks (MGP §12)'),
  cancel_after_chunks: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('llm_completion with stream only: cancel the completion after this many chunks'),
});
type AskUserArgs = z.output<typeof askUserInput>;

/** The `notifications/mgp.callback.request` params for one question. */
export function callbackRequest(
  args: AskUserArgs,
  callbackId: string,
  requestId: string | number,
  timeoutMs: number,
): Record<string, unknown> {
  const base = { callback_id: callbackId, request_id: requestId, type: args.type };
  switch (args.type) {
    case 'notification':
      return { ...base, message: args.message };
    case 'llm_completion':
      return {
        ...base,
        messages: [{ role: 'user', content: args.message }],
        model_hints: args.model_hints ?? {},
        tools: args.tools ?? [],
        ...(args.stream && { stream: true }),
        timeout_ms: timeoutMs,
      };
    case 'confirmation':
      return {
        ...base,
        message: args.message,
        options: args.options ?? ['confirm', 'cancel'],
        timeout_ms: timeoutMs,
      };
    default:
      return {
        ...base,
        message: args.message,
        ...(args.options && { options: args.options }),
        timeout_ms: timeoutMs,
      };
  }
}

function outcomeResult(outcome: CallbackOutcome, timeoutMs: number): ToolResult {
  switch (outcome.kind) {
    case 'timeout':
      return textResult(`No answer from the client within ${timeoutMs} ms`, { timed_out: true });
    case 'cancelled':
      return {
        ...textResult('Cancelled while waiting for the client', { cancelled: true }),
        _mgp: { cancelled: true },
      };
    case 'response': {
      const { response } = outcome;
      const content = (response as { content?: unknown } | null)?.content;
      const text =
        typeof response === 'string'
          ? response
          : typeof content === 'string'
            ? content
            : JSON.stringify(response);
      return textResult(text ?? 'null', { response });
    }
  }
}

/** An llm_completion answer with `usage` becomes a `model.token_usage` event (MGP §13.5). */
async function reportTokenUsage(
  response: unknown,
  callbackId: string,
  events: Events,
): Promise<void> {
  const { usage, model } = (response ?? {}) as { usage?: unknown; model?: unknown };
  if (usage && typeof usage === 'object')
    await events.emit('model.token_usage', 'info', { ...usage, model, callback_id: callbackId });
}

async function ask(
  args: AskUserArgs,
  ctx: ToolContext,
  callbacks: Callbacks,
  events: Events,
): Promise<ToolResult> {
  const callbackId = callbacks.newId();
  const timeoutMs = args.timeout_ms ?? (args.type === 'llm_completion' ? 120_000 : 60_000);
  const request = callbackRequest(args, callbackId, ctx.requestId, timeoutMs);
  if (args.type === 'notification') {
    await ctx.notify(Notifications.callbackRequest, request);
    return textResult(`Notified the client: ${args.message}`, {
      notified: true,
      callback_id: callbackId,
    });
  }
  if (args.type === 'llm_completion' && args.stream)
    return askStreamed(args, ctx, callbacks, { callbackId, request, timeoutMs });
  const answered = callbacks.wait(callbackId, timeoutMs, ctx.signal);
  await ctx.notify(Notifications.callbackRequest, request);
  const outcome = await answered;
  if (args.type === 'llm_completion' && outcome.kind === 'response')
    await reportTokenUsage(outcome.response, callbackId, events);
  return outcomeResult(outcome, timeoutMs);
}

/**
 * A streamed llm_completion: the chunks as they came, and either the answer or, with
 * `cancel_after_chunks`, the partial text the client returned when the server cancelled.
 */
async function askStreamed(
  args: AskUserArgs,
  ctx: ToolContext,
  callbacks: Callbacks,
  question: { callbackId: string; request: Record<string, unknown>; timeoutMs: number },
): Promise<ToolResult> {
  const { callbackId, request, timeoutMs } = question;
  const chunks: string[] = [];
  let cancelAt: (cancel: Promise<Record<string, unknown>>) => void = () => undefined;
  const cancelled = new Promise<Promise<Record<string, unknown>>>(
    (resolve) => (cancelAt = resolve),
  );
  const reading = callbacks.readChunks(callbackId, (text) => {
    chunks.push(text);
    if (chunks.length === args.cancel_after_chunks)
      cancelAt(callbacks.cancelStream(callbackId, 'enough'));
  });
  try {
    const answered = callbacks.wait(callbackId, timeoutMs, ctx.signal);
    await ctx.notify(Notifications.callbackRequest, request);
    const outcome = await Promise.race([
      answered,
      cancelled.then(async (cancel) => ({ kind: 'cancel' as const, cancel: await cancel })),
    ]);
    if (outcome.kind === 'cancel')
      return textResult(JSON.stringify(outcome.cancel), { chunks, cancel: outcome.cancel });
    const result = outcomeResult(outcome, timeoutMs);
    return { ...result, structuredContent: { ...result.structuredContent, chunks } };
  } finally {
    reading.stopReading();
  }
}

export function askUserTool(session: Session, callbacks: Callbacks, events: Events): ToolDef {
  return defineTool({
    name: 'ask_user',
    title: 'Ask the user',
    description:
      'Asks the client something while the call runs: a confirmation, a line of input, a choice among options, a notification ' +
      '(no answer), or an LLM completion. Needs a client that supports MGP callbacks (bidirectional).',
    input: askUserInput,
    annotations: { readOnlyHint: true, openWorldHint: true },
    security: security('safe', {
      side_effects: ['notification'],
      reversible: true,
      confirmation_required: false,
    }),
    run: async (args, ctx) => {
      if (!session.has('bidirectional')) {
        return toolError(
          'The client did not negotiate the MGP "bidirectional" extension, so this server cannot send it callback requests (MGP §13.4).',
        );
      }
      if (args.type === 'selection' && !args.options)
        return toolError('A selection needs options to choose from.');
      return ask(args, ctx, callbacks, events);
    },
  });
}
