/**
 * The audit events of a tool call (MGP §6.4): refusals (TOOL_BLOCKED, VALIDATION_FAILED, CODE_REJECTED),
 * retries, and the execution itself (TOOL_EXECUTED), each with the call's trace id and its caller.
 */
import { AuditEventInput, newTraceId } from '../audit/auditEvent';
import type { AuditSink } from '../audit/auditSink';
import { actorOf } from '../domain/caller';
import type { EffectiveSecurity } from '../domain/security';
import type { CappedResult } from '../connection/serverConnection';
import type { ToolCallRequest } from './types';

/** A task that ended outside a call the kernel was making, and its checked result. */
export interface EndedTask {
  serverId: string;
  taskId: string;
  toolName?: string;
  result: CappedResult;
}

export class CallAudit {
  constructor(private readonly audit: AuditSink) {}

  blocked(
    request: ToolCallRequest,
    traceId: string,
    eventType: string,
    result: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record({
      event_type: eventType,
      trace_id: traceId,
      actor: actorOf(request.caller),
      target: { server_id: request.serverId, tool_name: request.toolName },
      result,
      details,
    });
  }

  retried(
    request: ToolCallRequest,
    traceId: string,
    attempt: number,
    delayMs: number,
    error: { code: number; message: string },
  ): Promise<void> {
    return this.audit.record({
      event_type: 'dev.mgp-kernel.tool_retried',
      trace_id: traceId,
      actor: { type: 'kernel', id: 'mgp-kernel' },
      target: { server_id: request.serverId, tool_name: request.toolName },
      result: 'RETRY',
      details: {
        attempt,
        delay_ms: delayMs,
        error_code: error.code,
        error: error.message,
        requested_by: request.caller.agentId,
      },
    });
  }

  /**
   * A task's result that reached the kernel outside the call that started it (a task picked up
   * after a restart, or one a server listed): the call's own TOOL_EXECUTED never came, so the
   * result is recorded here, with its output check.
   */
  taskEnded(task: EndedTask): Promise<void> {
    return this.audit.record({
      event_type: 'dev.mgp-kernel.task_result',
      trace_id: newTraceId(),
      actor: { type: 'kernel', id: 'mgp-kernel' },
      target: { server_id: task.serverId, tool_name: task.toolName },
      result: task.result.isError ? 'ERROR' : 'SUCCESS',
      details: {
        task_id: task.taskId,
        truncated: Boolean(task.result.truncated),
        output_schema_mismatch: task.result.outputSchemaMismatch ? true : undefined,
      },
    });
  }

  executed(
    request: ToolCallRequest,
    traceId: string,
    security: EffectiveSecurity | undefined,
    result: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record(executedEvent(request, traceId, security, result, details));
  }

  /**
   * A successful call's record is made after its result is handed back (stamped with the time it
   * happened), with the other records of the audit log's next batch: the call's latency does not
   * include it. It is still durable before it counts as recorded.
   */
  executedLater(
    request: ToolCallRequest,
    traceId: string,
    security: EffectiveSecurity | undefined,
    result: string,
    details: Record<string, unknown>,
  ): void {
    const at = Date.now();
    const makeEvent = () =>
      executedEvent(request, traceId, security, result, details, new Date(at).toISOString());
    if (this.audit.recordLater) this.audit.recordLater(makeEvent);
    else void this.audit.record(makeEvent()).catch(() => undefined);
  }
}

function executedEvent(
  request: ToolCallRequest,
  traceId: string,
  security: EffectiveSecurity | undefined,
  result: string,
  details: Record<string, unknown>,
  timestamp = new Date().toISOString(),
): AuditEventInput {
  return {
    event_type: 'TOOL_EXECUTED',
    timestamp,
    trace_id: traceId,
    actor: actorOf(request.caller),
    target: { server_id: request.serverId, tool_name: request.toolName },
    result,
    details: {
      risk_level: security?.risk_level,
      validator_applied: security?.validator,
      ...details,
    },
  };
}
