/**
 * One tool call a model asked for, carried out: the name resolved against what the session offered,
 * the arguments parsed, the loop guard consulted, then the call handed to the kernel's pipeline under
 * the agent's identity (access, approval, validators, audit). Output of a server's tool streams when
 * the server can (MGP §12) and a cancellation stops it with `mgp/stream/cancel` (§12.7). Whatever
 * happens, the model gets a result it can read, and the transcript a record.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { newTraceId } from '../audit/auditEvent';
import { KernelError } from '../domain/errors';
import { toolIdOf } from '../domain/toolId';
import type { ModelToolCall } from '../llm/chatModel';
import type { Caller } from '../domain/caller';
import type { ToolCallOutcome, ToolCallRequest } from '../pipeline/types';
import type { ActiveStream, StreamProgress } from '../streaming/streamRegistry';
import type { AgentObserver, StartingToolCall } from './hooks';
import { LoopGuard } from './loopGuard';
import {
  errorRejection,
  parseArguments,
  Rejection,
  unknownToolRejection,
  unparsableRejection,
} from './rejections';
import type { AgentToolContext } from './toolContext';
import type { ToolRef } from './toolNames';
import { resultText } from './toolResultText';
import type { ToolCallDecision, ToolCallRecord } from './transcript';

type KernelRequest = Omit<ToolCallRequest, 'caller' | 'stream'> & { caller?: Caller };

/** What the loop needs of the kernel to make calls. */
export interface ToolCallKernel {
  call(request: KernelRequest): Promise<ToolCallOutcome>;
  stream(request: KernelRequest): { stream: ActiveStream; outcome: Promise<ToolCallOutcome> };
  streams: {
    cancel(id: string, reason?: string): Promise<unknown>;
    on(event: 'text', listener: (e: { id: string; appended: string }) => void): unknown;
    on(event: 'progress', listener: (e: { id: string; progress: StreamProgress }) => void): unknown;
    off(event: 'text' | 'progress', listener: (...args: never[]) => void): unknown;
  };
}

/**
 * What the agent carries out one step's tool calls with: the kernel, the session's tools, who calls,
 * and the run's loop guard, cancellation and observer.
 */
export interface AgentStepContext {
  kernel: ToolCallKernel;
  tools: AgentToolContext;
  caller: Caller;
  guard: LoopGuard;
  signal: AbortSignal;
  observer: AgentObserver;
  /** Names offered at this inference (for an unknown tool's hint). */
  offered: readonly string[];
  resultMaxChars: number;
}

export interface CallDone {
  record: ToolCallRecord;
  /** The tool result the model reads. */
  content: string;
  /** Set when the run must stop after this call (loop guard, cancellation). */
  stop?: { reason: 'loop_guard' | 'cancelled'; message: string };
}

function rejected(
  base: Pick<ToolCallRecord, 'id' | 'name' | 'arguments'> & Partial<ToolCallRecord>,
  decision: ToolCallDecision,
  rejection: Rejection,
  started: number,
): CallDone {
  const content = JSON.stringify(rejection);
  return {
    record: {
      ...base,
      decision,
      is_error: true,
      ...(rejection.code !== undefined ? { code: rejection.code } : {}),
      result: content,
      duration_ms: performance.now() - started,
    },
    content,
  };
}

/** Whether a result is a kernel-side rejection dressed as a tool error (MGP §7.4 code safety). */
function blockedResult(result: CallToolResult): number | undefined {
  const mgp = (result as { _mgp?: { code?: number; blocked_by?: string } })._mgp;
  return mgp?.blocked_by ? mgp.code : undefined;
}

/** Meta-tool answers name each tool as the model must call it (`call_as`), and note what was found. */
function metaResultForModel(
  ref: ToolRef,
  result: CallToolResult,
  tools: AgentToolContext,
): CallToolResult {
  const value = result.structuredContent as Record<string, unknown> | undefined;
  if (!value) return result;
  type Listed = { tool_id?: string; name: string; server_id: string };
  const named = (list: unknown) =>
    Array.isArray(list)
      ? (list as Listed[]).map((t) => ({ call_as: tools.callName(t.server_id, t.name), ...t }))
      : list;
  let shown: Record<string, unknown> = value;
  if (ref.toolName === 'mgp.tools.discover') {
    const found = (value.tools ?? []) as Listed[];
    tools.discoveredTools(found.map((t) => t.tool_id ?? toolIdOf(t.server_id, t.name)));
    shown = { ...value, tools: named(value.tools) };
  } else if (ref.toolName === 'mgp.tools.request') {
    shown = {
      ...value,
      tools_loaded: named(value.tools_loaded),
      tools_pending_approval: named(value.tools_pending_approval),
    };
  }
  return { ...result, content: [{ type: 'text', text: JSON.stringify(shown) }] };
}

function decisionOf(error: unknown): ToolCallDecision {
  if (!(error instanceof KernelError)) return 'failed';
  switch (error.code) {
    case 'InvalidArguments':
      return 'invalid';
    case 'UnknownTool':
      return 'unknown_tool';
    case 'PermissionDenied':
    case 'AccessDenied':
    case 'ValidationBlocked':
    case 'CodeSafetyViolation':
      return 'refused';
    default:
      return 'failed';
  }
}

/** A server's tool through `kernel.stream`, cancelled by the run's signal with `mgp/stream/cancel`. */
async function streamed(
  ctx: AgentStepContext,
  call: StartingToolCall,
): Promise<{ outcome: ToolCallOutcome; cancelled: boolean }> {
  const { stream, outcome } = ctx.kernel.stream({
    serverId: call.serverId,
    toolName: call.toolName,
    args: call.args,
    caller: ctx.caller,
    traceId: call.traceId,
  });
  const onText = (e: { id: string; appended: string }) =>
    e.id === stream.id && ctx.observer.onToolOutput?.(call, e.appended);
  const onProgress = (e: { id: string; progress: StreamProgress }) =>
    e.id === stream.id && ctx.observer.onToolProgress?.(call, e.progress);
  const onAbort = () => void ctx.kernel.streams.cancel(stream.id, 'agent_cancelled');
  ctx.kernel.streams.on('text', onText);
  ctx.kernel.streams.on('progress', onProgress);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  // An abort before the listener was added would never reach it.
  if (ctx.signal.aborted) onAbort();
  try {
    const done = await outcome;
    const cancelled = (done.result as { _mgp?: { cancelled?: boolean } })._mgp?.cancelled === true;
    return { outcome: done, cancelled: cancelled || stream.state === 'cancelled' };
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    ctx.kernel.streams.off('text', onText as never);
    ctx.kernel.streams.off('progress', onProgress as never);
  }
}

async function throughKernel(
  ctx: AgentStepContext,
  ref: ToolRef & { meta: boolean },
  call: StartingToolCall,
): Promise<{ outcome: ToolCallOutcome; cancelled: boolean }> {
  if (!ref.meta) return streamed(ctx, call);
  const outcome = await ctx.kernel.call({
    serverId: call.serverId,
    toolName: call.toolName,
    args: call.args,
    caller: ctx.caller,
    traceId: call.traceId,
    signal: ctx.signal,
  });
  return { outcome, cancelled: false };
}

/** Carries out one call of the model's; never throws. */
export async function callTool(ctx: AgentStepContext, call: ModelToolCall): Promise<CallDone> {
  const started = performance.now();
  const parsed = parseArguments(call.arguments);
  const args = 'args' in parsed ? parsed.args : call.arguments;
  const base = { id: call.id, name: call.name, arguments: args };
  const tripped = ctx.guard.check(call.name, args);
  if (tripped) {
    const content = `Not run: the agent is stopped because ${tripped}.`;
    return {
      record: { ...base, decision: 'not_run', is_error: true, result: content, duration_ms: 0 },
      content,
      stop: { reason: 'loop_guard', message: `Stopped: ${tripped}.` },
    };
  }
  const ref = ctx.tools.resolve(call.name);
  if (!ref)
    return rejected(base, 'unknown_tool', unknownToolRejection(call.name, ctx.offered), started);
  const target = { ...base, server_id: ref.serverId, tool_name: ref.toolName };
  if ('problem' in parsed)
    return rejected(
      target,
      'invalid',
      unparsableRejection(parsed.problem, ctx.tools.schemaOf(ref)),
      started,
    );
  const starting: StartingToolCall = {
    id: call.id,
    name: call.name,
    serverId: ref.serverId,
    toolName: ref.toolName,
    args: parsed.args,
    traceId: newTraceId(),
  };
  const traced = { ...target, trace_id: starting.traceId };
  ctx.observer.onToolCall?.(starting);
  try {
    const { outcome, cancelled } = await throughKernel(ctx, ref, starting);
    const evicted = cancelled ? [] : ctx.tools.used(ref);
    const result = ref.meta ? metaResultForModel(ref, outcome.result, ctx.tools) : outcome.result;
    const shown = resultText(result, ctx.resultMaxChars);
    const blocked = blockedResult(outcome.result);
    const record: ToolCallRecord = {
      ...traced,
      decision: cancelled ? 'cancelled' : blocked !== undefined ? 'refused' : 'ran',
      ...(outcome.approval?.allowed ? { approval: String(outcome.approval.basis) } : {}),
      is_error: Boolean(outcome.result.isError),
      ...(blocked !== undefined ? { code: blocked } : {}),
      result: shown.text,
      ...(shown.truncated ? { truncated: true } : {}),
      ...((outcome.result as { _mgp?: { streamed?: boolean } })._mgp?.streamed
        ? { streamed: true }
        : {}),
      ...(evicted.length ? { evicted } : {}),
      duration_ms: performance.now() - started,
    };
    return {
      record,
      content: shown.text,
      ...(cancelled
        ? { stop: { reason: 'cancelled' as const, message: 'Cancelled during a tool call.' } }
        : {}),
    };
  } catch (error) {
    const decision = decisionOf(error);
    // A tool the model is correcting its arguments for stays loaded; a refused one is not kept.
    if (decision === 'invalid') ctx.tools.used(ref);
    const done = rejected(
      traced,
      decision,
      errorRejection(error, ctx.tools.schemaOf(ref)),
      started,
    );
    return ctx.signal.aborted
      ? {
          ...done,
          record: { ...done.record, decision: 'cancelled' },
          stop: { reason: 'cancelled', message: 'Cancelled during a tool call.' },
        }
      : done;
  }
}
