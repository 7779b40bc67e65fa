/**
 * The last stage: the call goes to its server. A server that negotiated MGP gets the trace id in
 * `params._mgp` (MGP §6.5); a standard MCP server gets no `_mgp` (§17.2). The success of a first
 * attempt goes straight back to the caller; URL elicitation (-32042), the retries of MGP §14.6 and the
 * fallback tool come after a first failure. The execution is audited either way.
 */
import { ElicitRequest, ErrorCode, McpError, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { CappedResult } from '../connection/serverConnection';
import { wireErrorOf } from '../mgp/mgpErrors';
import { KernelError, PERMISSION_DENIED } from '../domain/errors';
import type { ArgumentChecker } from './argumentChecker';
import type { CallAudit } from './callAudit';
import type { ResolvedCall, PipelineDeps, ToolCallOutcome, ToolCallRequest } from './types';
import type { CallChecks } from './checks';
import { checkOutput } from './outputCheck';
import { RetriesExhausted, retryAfterFirst } from './retry';
import { determinismDetails } from '../drafts/determinism';
import { a2aAuditDetails } from '../domain/a2aFacts';

const MAX_FALLBACK_DEPTH = 2;

/** Calls the pipeline again, from the start, for a fallback tool. */
export type CallAgain = (
  request: ToolCallRequest,
  fallbackDepth: number,
) => Promise<ToolCallOutcome>;

export class Forwarding {
  constructor(
    private readonly deps: PipelineDeps,
    private readonly checks: CallChecks,
    private readonly audit: CallAudit,
    private readonly callAgain: CallAgain,
    private readonly outputChecker: ArgumentChecker,
  ) {}

  forward(call: ResolvedCall): Promise<ToolCallOutcome> {
    const { request, server, tool, traceId } = call;
    const streaming =
      Boolean(request.stream) && this.deps.negotiated(request.serverId, 'streaming');
    let mgp: Record<string, unknown> | undefined;
    if (this.deps.speaksMgp(request.serverId))
      mgp = streaming ? { trace_id: traceId, stream: true } : { trace_id: traceId };
    const progress = streaming ? undefined : this.plainProgress(request);
    // A streamed call learns its request id whether or not the server streams chunks: the job
    // events of the MCP draft (§4) name it too.
    const onRequestId =
      request.stream || progress
        ? (id: RequestId) => {
            request.stream?.requestId(id);
            progress?.onRequestId(id);
          }
        : undefined;
    const sendOnce = () =>
      server.callTool(tool, request.args, {
        signal: request.signal,
        onProgress: request.onProgress,
        mgp,
        onRequestId,
        onSent: request.onSent,
        task: request.task,
        params: call.params,
      });
    return sendOnce()
      .then(
        (value) => this.succeeded(call, value, 1, streaming),
        (error: unknown) => this.afterFirstFailure(call, error, sendOnce, streaming),
      )
      .finally(() => progress?.release());
  }

  /**
   * MGP §12.6: a server may report a plain call's progress by its request id; the caller that asked
   * for progress hears it as MCP progress, from each attempt's id until the call ends.
   */
  private plainProgress(
    request: ToolCallRequest,
  ): { onRequestId: (id: RequestId) => void; release: () => void } | undefined {
    const { onProgress } = request;
    const watch = this.deps.watchProgress;
    if (!onProgress || !watch) return undefined;
    let release: (() => void) | undefined;
    return {
      onRequestId: (id) => {
        release?.();
        release = watch(request.serverId, id, onProgress);
      },
      release: () => release?.(),
    };
  }

  /** The answer of a call that a stage answered itself, without forwarding it (MGP §7.4). */
  answered(call: ResolvedCall, result: CappedResult): ToolCallOutcome {
    return this.outcome(call, result, 0);
  }

  private succeeded(
    call: ResolvedCall,
    value: CappedResult,
    attempts: number,
    streamed: boolean,
  ): ToolCallOutcome {
    const checked = checkOutput(this.outputChecker, call.tool, value);
    const outcome = this.outcome(call, checked, attempts);
    const approval = call.approval;
    this.audit.executedLater(
      call.request,
      call.traceId,
      call.security,
      value.isError ? 'ERROR' : 'SUCCESS',
      {
        attempts,
        duration_ms: Math.round(outcome.durationMs),
        ...(call.operatorMs >= 1 ? { approval_wait_ms: Math.round(call.operatorMs) } : {}),
        truncated: Boolean(value.truncated),
        output_schema_mismatch: checked.outputSchemaMismatch ? true : undefined,
        approval: approval?.allowed ? approval.basis : undefined,
        streamed,
        // The server stopped on a cancellation and answered with what it had (MGP §12.7).
        ...(cancelledByServer(value) && { cancelled: true }),
        ...draftDetails(call, value),
        // A delegation to an external agent: which agent, its task id and the state it ended in.
        ...a2aAuditDetails(value),
      },
    );
    return outcome;
  }

  private outcome(call: ResolvedCall, result: CappedResult, attempts: number): ToolCallOutcome {
    return {
      result,
      traceId: call.traceId,
      serverId: call.request.serverId,
      toolName: call.request.toolName,
      security: call.security,
      attempts,
      // The seconds a person took to answer the approval are theirs, not the tool's.
      durationMs: performance.now() - call.started - call.operatorMs,
      approval: call.approval,
    };
  }

  private async afterFirstFailure(
    call: ResolvedCall,
    error: unknown,
    sendOnce: () => Promise<CappedResult>,
    streamed: boolean,
  ): Promise<ToolCallOutcome> {
    const { request, traceId, security } = call;
    const send = () =>
      sendOnce().catch((again: unknown) => this.afterUrlElicitation(request, again, sendOnce));
    try {
      const { value, attempts } = await this.afterUrlElicitation(request, error, sendOnce).then(
        (value) => ({ value, attempts: 1 }),
        (failure: unknown) =>
          retryAfterFirst(
            send,
            {
              signal: request.signal,
              retrying: (attempt, delayMs, wire) =>
                this.audit.retried(request, traceId, attempt, delayMs, wire),
              approve: security.risk_level === 'safe' ? undefined : () => this.approveRetry(call),
            },
            failure,
          ),
      );
      return this.succeeded(call, value, attempts, streamed);
    } catch (failure) {
      return this.afterFailure(call, failure);
    }
  }

  private async afterFailure(call: ResolvedCall, error: unknown): Promise<ToolCallOutcome> {
    const { request, traceId, security } = call;
    if (
      error instanceof RetriesExhausted &&
      error.fallbackTool &&
      call.fallbackDepth < MAX_FALLBACK_DEPTH
    ) {
      await this.audit.executed(request, traceId, security, 'FAILURE', {
        attempts: error.attempts,
        error: error.message,
        fallback_tool: error.fallbackTool,
      });
      return this.callAgain(
        { ...request, toolName: error.fallbackTool, traceId },
        call.fallbackDepth + 1,
      );
    }
    const cause = error instanceof RetriesExhausted ? error.last : error;
    const wire = wireErrorOf(cause);
    await this.audit.executed(request, traceId, security, 'FAILURE', {
      error: cause instanceof Error ? cause.message : String(cause),
      code: wire?.code,
      attempts: error instanceof RetriesExhausted ? error.attempts : 1,
    });
    throw cause;
  }

  /**
   * MCP's URL elicitation error path (-32042): the server needs the person to visit URLs first. Each is
   * put to the person (consent, then the browser); once all are accepted the call is made again, once.
   */
  private async afterUrlElicitation(
    request: ToolCallRequest,
    error: unknown,
    again: () => Promise<CappedResult>,
  ): Promise<CappedResult> {
    if (
      !(error instanceof McpError) ||
      error.code !== ErrorCode.UrlElicitationRequired ||
      !this.deps.elicit
    )
      throw error;
    const elicitations = ((error.data as { elicitations?: unknown[] } | undefined)?.elicitations ??
      []) as ElicitRequest['params'][];
    for (const elicitation of elicitations) {
      const answer = await this.deps.elicit(
        request.serverId,
        { ...elicitation, mode: 'url' } as ElicitRequest['params'],
        request.signal ?? new AbortController().signal,
      );
      if (answer.action !== 'accept') throw error;
    }
    return again();
  }

  /**
   * A retry is a new execution: a call that is not safe takes the approval step again, so an "Allow
   * once" covers one execution and a refusal ends the retries (the last error stands).
   */
  private async approveRetry(call: ResolvedCall): Promise<boolean> {
    try {
      await this.checks.askApproval(call);
      return true;
    } catch (error) {
      if (error instanceof KernelError && error.wireCode === PERMISSION_DENIED) return false;
      throw error;
    }
  }
}

/** MCP draft §2: the seed asked for, the one the server says it used; §1-§2 fields left out. */
function draftDetails(call: ResolvedCall, value: CappedResult): Record<string, unknown> {
  const seed = call.request.args.seed;
  return {
    ...(typeof seed === 'number' ? { seed } : {}),
    ...determinismDetails(value),
    ...(call.draftFieldsDropped ? { draft_fields_dropped: call.draftFieldsDropped } : {}),
  };
}

function cancelledByServer(result: CappedResult): boolean {
  return (result as { _mgp?: { cancelled?: unknown } })._mgp?.cancelled === true;
}
