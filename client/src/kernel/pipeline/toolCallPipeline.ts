/**
 * The one path every tool call takes, whoever calls (a view, the CLI, the chat tools, the gateway):
 * resolve → access → approval → validate → forward → audit (DESIGN.md). Each refusal is audited
 * and answered with its MGP §14.3 code; each forward to a server that negotiated MGP carries the trace id
 * in `params._mgp` (MGP §6.5). A standard MCP server gets no `_mgp` (§17.2); the audit keeps the id.
 */
import {
  CallToolResult,
  ElicitRequest,
  ElicitResult,
  ErrorCode,
  McpError,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { AuditEventInput, newTraceId } from '../audit/auditEvent';
import type { ApprovalPolicy, KernelSettings } from '../config/model';
import type { CappedResult, ListedTool } from '../connection/serverConnection';
import {
  ACCESS_DENIED,
  CODE_SAFETY_VIOLATION,
  INVALID_TOOL_ARGS,
  KernelError,
  PERMISSION_DENIED,
  TOOL_NOT_FOUND,
  VALIDATION_BLOCKED,
} from '../model/errors';
import type { AuditSink } from '../audit/auditSink';
import { KernelToolRegistry, toolResult } from '../kernelTools/registry';
import { KERNEL_SERVER_ID } from '../model/kernelTool';
import type { SupervisedServer } from '../lifecycle/supervisedServer';
import { errorData, wireErrorOf } from '../mgp/mgpErrors';
import type { EffectiveSecurity } from '../model/security';
import type { ApprovalOutcome, ToolApprovals } from '../security/toolApprovals';
import type { ServerManager } from '../lifecycle/serverManager';
import { actorOf, Caller } from '../model/caller';
import { RetriesExhausted, retryAfterFirst } from './retry';
import { ArgumentChecker } from './argumentChecker';
import type { CallValidation } from './validation';

export interface StreamHooks {
  /** The JSON-RPC id the tools/call went out with (MGP §12.4 chunks carry it as request_id). */
  requestId(id: RequestId): void;
}

export interface ToolCallRequest {
  serverId: string;
  toolName: string;
  args: Record<string, unknown>;
  caller: Caller;
  /** One per user action (MGP §6.5); a new one when left out. */
  traceId?: string;
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Ask the server to stream (MGP §12.3), when it negotiated `streaming`. */
  stream?: StreamHooks;
}

export interface ToolCallOutcome {
  result: CappedResult;
  traceId: string;
  serverId: string;
  toolName: string;
  security?: EffectiveSecurity;
  attempts: number;
  durationMs: number;
  approval?: ApprovalOutcome;
}

export interface PipelineDeps {
  manager: ServerManager;
  kernelTools: KernelToolRegistry;
  settings(): KernelSettings;
  securityOf(server: SupervisedServer, tool: ListedTool): EffectiveSecurity;
  access: {
    query(
      agentId: string,
      serverId: string,
      toolName?: string,
    ): { permission: 'allow' | 'deny'; source: string };
  };
  approvals: ToolApprovals;
  /** A server permission (MGP §3) as the operator decided it. */
  permissionState(serverId: string, permission: string): 'approved' | 'denied' | undefined;
  validation: CallValidation;
  /** Whether the server negotiated MGP at all (§2), and an MGP extension. */
  speaksMgp(serverId: string): boolean;
  negotiated(serverId: string, extension: string): boolean;
  /** Asks the person about a URL elicitation (MCP: consent, then the browser). */
  elicit?(
    serverId: string,
    params: ElicitRequest['params'],
    signal: AbortSignal,
  ): Promise<ElicitResult>;
  audit: AuditSink;
}

const MAX_FALLBACK_DEPTH = 2;

export class ToolCallPipeline {
  /** The one check of arguments against a tool's schema, shared with the Run Tool form. */
  readonly argumentChecker = new ArgumentChecker();

  constructor(private readonly deps: PipelineDeps) {}

  call(request: ToolCallRequest, fallbackDepth = 0): Promise<ToolCallOutcome> {
    const traceId = request.traceId ?? newTraceId();
    const started = performance.now();
    if (request.serverId === KERNEL_SERVER_ID)
      return this.callKernelTool({ ...request, traceId }, started);
    const server = this.deps.manager.find(request.serverId);
    const tool = server?.tools.find((t) => t.name === request.toolName);
    if (!server || !tool) return this.checkedCall(request, traceId, started, fallbackDepth);
    // A call every check lets through at once goes straight out, with no turn of the event loop and
    // no async layer of its own; anything else (a refusal, a question, validators, a check that
    // throws) takes checkedCall, which runs the same checks again and waits where it has to.
    let cleared: { security: EffectiveSecurity; approval: ApprovalOutcome } | undefined;
    try {
      cleared = this.clearedAtOnce(request, server, tool);
    } catch {
      cleared = undefined;
    }
    if (!cleared) return this.checkedCall(request, traceId, started, fallbackDepth);
    return this.forward(
      request,
      server,
      tool,
      traceId,
      cleared.security,
      started,
      cleared.approval,
      fallbackDepth,
    );
  }

  private clearedAtOnce(
    request: ToolCallRequest,
    server: SupervisedServer,
    tool: ListedTool,
  ): { security: EffectiveSecurity; approval: ApprovalOutcome } | undefined {
    const security = this.deps.securityOf(server, tool);
    if (
      this.deps.access.query(request.caller.agentId, request.serverId, request.toolName)
        .permission !== 'allow'
    )
      return undefined;
    if (
      this.argumentChecker.problem(
        tool.inputSchema as Record<string, unknown> | undefined,
        request.args,
      ) !== undefined
    )
      return undefined;
    if (
      security.permissions_required.some(
        (p) => this.deps.permissionState(request.serverId, p) === 'denied',
      )
    )
      return undefined;
    if (this.deps.validation.validatorsFor(server, tool, security).length > 0) return undefined;
    const approval = this.quickApproval(request, server, security);
    return approval && { security, approval };
  }

  private async checkedCall(
    request: ToolCallRequest,
    traceId: string,
    started: number,
    fallbackDepth: number,
  ): Promise<ToolCallOutcome> {
    const server = this.deps.manager.find(request.serverId);
    const tool = server?.tools.find((t) => t.name === request.toolName);
    if (!server || (!tool && server.state === 'connected')) {
      await this.blocked(request, traceId, 'TOOL_BLOCKED', 'NOT_FOUND', { reason: 'unknown_tool' });
      throw new KernelError(
        'UnknownTool',
        server
          ? `${request.serverId} has no tool "${request.toolName}"`
          : `no server "${request.serverId}" is configured`,
        TOOL_NOT_FOUND,
        errorData(TOOL_NOT_FOUND),
      );
    }
    if (!tool) server.session(); // throws the lifecycle error (2000/2001/2002) for a server that is not connected
    const listed = tool as ListedTool;
    const security = this.deps.securityOf(server, listed);
    await this.checkAccess(request, traceId, security);
    this.checkArguments(request, listed, traceId, security);
    await this.checkPermissions(request, traceId, security);
    const approval =
      this.quickApproval(request, server, security) ??
      (await this.checkApproval(request, server, listed, traceId, security));
    if (this.deps.validation.validatorsFor(server, listed, security).length > 0) {
      const rejection = await this.checkValidators(request, server, listed, traceId, security);
      if (rejection)
        return {
          result: rejection,
          traceId,
          serverId: request.serverId,
          toolName: request.toolName,
          security,
          attempts: 0,
          durationMs: performance.now() - started,
          approval,
        };
    }
    return this.forward(
      request,
      server,
      listed,
      traceId,
      security,
      started,
      approval,
      fallbackDepth,
    );
  }

  /** The approval verdict when it needs neither the operator nor a refusal; undefined otherwise. */
  private quickApproval(
    request: ToolCallRequest,
    server: SupervisedServer,
    security: EffectiveSecurity,
  ): ApprovalOutcome | undefined {
    const settings = this.deps.settings();
    return this.deps.approvals.allowedWithoutAsking({
      serverId: request.serverId,
      toolName: request.toolName,
      security,
      policy: server.config.policy.approvalPolicy ?? settings.approvalPolicy,
      approvedTools: server.config.policy.approvedTools,
      moderateRequiresApproval: settings.moderateToolsRequireApproval,
    });
  }

  private checkAccess(
    request: ToolCallRequest,
    traceId: string,
    security: EffectiveSecurity,
  ): Promise<void> | undefined {
    const access = this.deps.access.query(
      request.caller.agentId,
      request.serverId,
      request.toolName,
    );
    if (access.permission === 'allow') return undefined;
    return this.refuseAccess(request, traceId, security, access.source);
  }

  private async refuseAccess(
    request: ToolCallRequest,
    traceId: string,
    security: EffectiveSecurity,
    source: string,
  ): Promise<void> {
    await this.blocked(request, traceId, 'TOOL_BLOCKED', 'DENIED', {
      reason: 'access_denied',
      access_source: source,
      risk_level: security.risk_level,
    });
    throw new KernelError(
      'AccessDenied',
      `${request.caller.agentId} has no access to ${request.serverId}.${request.toolName} (${source})`,
      ACCESS_DENIED,
      errorData(ACCESS_DENIED, { details: { agent_id: request.caller.agentId, source } }),
    );
  }

  private checkArguments(
    request: ToolCallRequest,
    tool: ListedTool,
    traceId: string,
    security: EffectiveSecurity,
  ): void {
    const problem = this.argumentChecker.problem(
      tool.inputSchema as Record<string, unknown> | undefined,
      request.args,
    );
    if (!problem) return;
    void this.blocked(request, traceId, 'TOOL_BLOCKED', 'INVALID', {
      reason: 'invalid_arguments',
      problem,
      risk_level: security.risk_level,
    });
    throw new KernelError(
      'InvalidArguments',
      `arguments of ${request.serverId}.${request.toolName} do not match its input schema: ${problem}`,
      INVALID_TOOL_ARGS,
      errorData(INVALID_TOOL_ARGS, { details: { problem } }),
    );
  }

  /** A tool whose required permission the operator denied does not run (MGP §3, §4.3). */
  private checkPermissions(
    request: ToolCallRequest,
    traceId: string,
    security: EffectiveSecurity,
  ): Promise<void> | undefined {
    if (security.permissions_required.length === 0) return undefined;
    const denied = security.permissions_required.filter(
      (p) => this.deps.permissionState(request.serverId, p) === 'denied',
    );
    return denied.length === 0
      ? undefined
      : this.refusePermissions(request, traceId, security, denied);
  }

  private async refusePermissions(
    request: ToolCallRequest,
    traceId: string,
    security: EffectiveSecurity,
    denied: string[],
  ): Promise<void> {
    await this.blocked(request, traceId, 'TOOL_BLOCKED', 'DENIED', {
      reason: 'permission_denied',
      permissions: denied,
      risk_level: security.risk_level,
    });
    throw new KernelError(
      'PermissionDenied',
      `${request.serverId}.${request.toolName} needs ${denied.join(', ')}, which the operator denied`,
      PERMISSION_DENIED,
      errorData(PERMISSION_DENIED, { details: { permissions: denied } }),
    );
  }

  private async checkApproval(
    request: ToolCallRequest,
    server: SupervisedServer,
    tool: ListedTool,
    traceId: string,
    security: EffectiveSecurity,
  ): Promise<ApprovalOutcome> {
    const settings = this.deps.settings();
    const policy: ApprovalPolicy = server.config.policy.approvalPolicy ?? settings.approvalPolicy;
    const outcome = await this.deps.approvals.authorize(
      {
        serverId: request.serverId,
        toolName: request.toolName,
        description: tool.description,
        args: request.args,
        security,
        agentId: request.caller.agentId,
        traceId,
        policy,
        approvedTools: server.config.policy.approvedTools,
        moderateRequiresApproval: settings.moderateToolsRequireApproval,
      },
      request.signal,
    );
    if (outcome.allowed) return outcome;
    await this.blocked(request, traceId, 'TOOL_BLOCKED', 'DENIED', {
      reason: 'approval_denied',
      why: outcome.reason,
      policy,
      risk_level: security.risk_level,
    });
    throw new KernelError(
      'PermissionDenied',
      `${request.serverId}.${request.toolName} was not approved: ${outcome.reason}`,
      PERMISSION_DENIED,
      errorData(PERMISSION_DENIED, { details: { reason: outcome.reason, policy } }),
    );
  }

  /** Kernel-side validators (MGP §4.5, §7): a block throws 1010; a code rejection answers §7.4 as a tool error. */
  private async checkValidators(
    request: ToolCallRequest,
    server: SupervisedServer,
    tool: ListedTool,
    traceId: string,
    security: EffectiveSecurity,
  ): Promise<CappedResult | undefined> {
    const outcome = await this.deps.validation.validate(server, tool, request.args, security);
    if (outcome.ok) return undefined;
    const violations = outcome.violations.map((v) => ({
      validator: v.validator,
      rule: v.rule,
      message: v.message,
      argument: v.argument,
    }));
    await this.blocked(request, traceId, 'VALIDATION_FAILED', 'BLOCKED', {
      validators: outcome.applied,
      violations,
      risk_level: security.risk_level,
    });
    if (outcome.codeRejection) {
      await this.blocked(request, traceId, 'CODE_REJECTED', 'REJECTED', {
        rejection: outcome.codeRejection,
      });
      const rejection = outcome.codeRejection;
      return {
        content: [{ type: 'text', text: JSON.stringify(rejection, null, 2) }],
        structuredContent: rejection as unknown as Record<string, unknown>,
        isError: true,
        _mgp: { code: CODE_SAFETY_VIOLATION, blocked_by: 'code_safety' },
      } as CappedResult;
    }
    await this.blocked(request, traceId, 'TOOL_BLOCKED', 'BLOCKED', {
      reason: 'validation_failed',
      validators: outcome.applied,
    });
    const summary = violations.map((v) => `${v.validator}: ${v.message}`).join('; ');
    throw new KernelError(
      'ValidationBlocked',
      `the kernel's validators blocked ${request.serverId}.${request.toolName}: ${summary}`,
      VALIDATION_BLOCKED,
      errorData(VALIDATION_BLOCKED, { details: { violations } }),
    );
  }

  /**
   * Sends the call. The success of a first attempt goes straight back to the caller; URL elicitation
   * (-32042), the retries of MGP §14.6 and the fallback tool come after a first failure.
   */
  private forward(
    request: ToolCallRequest,
    server: SupervisedServer,
    tool: ListedTool,
    traceId: string,
    security: EffectiveSecurity,
    started: number,
    approval: ApprovalOutcome,
    fallbackDepth: number,
  ): Promise<ToolCallOutcome> {
    const streaming =
      Boolean(request.stream) && this.deps.negotiated(request.serverId, 'streaming');
    // A server that did not negotiate MGP is treated as standard MCP (§17.2): its requests carry no `_mgp`.
    let mgp: Record<string, unknown> | undefined;
    if (this.deps.speaksMgp(request.serverId))
      mgp = streaming ? { trace_id: traceId, stream: true } : { trace_id: traceId };
    const onRequestId = streaming ? (id: RequestId) => request.stream?.requestId(id) : undefined;
    const sendOnce = () =>
      server.callTool(tool, request.args, {
        signal: request.signal,
        onProgress: request.onProgress,
        mgp,
        onRequestId,
      });
    const succeeded = (value: CappedResult, attempts: number): ToolCallOutcome => {
      const durationMs = performance.now() - started;
      this.executedLater(request, traceId, security, value.isError ? 'ERROR' : 'SUCCESS', {
        attempts,
        duration_ms: Math.round(durationMs),
        truncated: Boolean(value.truncated),
        approval: approval.allowed ? approval.basis : undefined,
        streamed: streaming,
      });
      return {
        result: value,
        traceId,
        serverId: request.serverId,
        toolName: request.toolName,
        security,
        attempts,
        durationMs,
        approval,
      };
    };
    const afterFirstFailure = async (error: unknown): Promise<ToolCallOutcome> => {
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
                  this.recordRetry(request, traceId, attempt, delayMs, wire),
                approve:
                  security.risk_level === 'safe'
                    ? undefined
                    : () => this.approveRetry(request, server, tool, traceId, security),
              },
              failure,
            ),
        );
        return succeeded(value, attempts);
      } catch (failure) {
        return this.afterFailure(request, traceId, security, failure, fallbackDepth);
      }
    };
    return sendOnce().then((value) => succeeded(value, 1), afterFirstFailure);
  }

  private async afterFailure(
    request: ToolCallRequest,
    traceId: string,
    security: EffectiveSecurity,
    error: unknown,
    fallbackDepth: number,
  ): Promise<ToolCallOutcome> {
    if (
      error instanceof RetriesExhausted &&
      error.fallbackTool &&
      fallbackDepth < MAX_FALLBACK_DEPTH
    ) {
      await this.executed(request, traceId, security, 'FAILURE', {
        attempts: error.attempts,
        error: error.message,
        fallback_tool: error.fallbackTool,
      });
      return this.call({ ...request, toolName: error.fallbackTool, traceId }, fallbackDepth + 1);
    }
    const cause = error instanceof RetriesExhausted ? error.last : error;
    const wire = wireErrorOf(cause);
    await this.executed(request, traceId, security, 'FAILURE', {
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
  private async approveRetry(
    request: ToolCallRequest,
    server: SupervisedServer,
    tool: ListedTool,
    traceId: string,
    security: EffectiveSecurity,
  ): Promise<boolean> {
    try {
      await this.checkApproval(request, server, tool, traceId, security);
      return true;
    } catch (error) {
      if (error instanceof KernelError && error.wireCode === PERMISSION_DENIED) return false;
      throw error;
    }
  }

  private recordRetry(
    request: ToolCallRequest,
    traceId: string,
    attempt: number,
    delayMs: number,
    error: { code: number; message: string },
  ): Promise<void> {
    return this.deps.audit.record({
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

  private executed(
    request: ToolCallRequest,
    traceId: string,
    security: EffectiveSecurity | undefined,
    result: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    return this.deps.audit.record(this.executedEvent(request, traceId, security, result, details));
  }

  /**
   * A successful call's record is made after its result is handed back (stamped with the time it
   * happened), with the other records of the audit log's next batch: the call's latency does not
   * include it. It is still durable before it counts as recorded.
   */
  private executedLater(
    request: ToolCallRequest,
    traceId: string,
    security: EffectiveSecurity | undefined,
    result: string,
    details: Record<string, unknown>,
  ): void {
    const at = Date.now();
    const makeEvent = () =>
      this.executedEvent(request, traceId, security, result, details, new Date(at).toISOString());
    if (this.deps.audit.recordLater) this.deps.audit.recordLater(makeEvent);
    else void this.deps.audit.record(makeEvent()).catch(() => undefined);
  }

  private executedEvent(
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

  private blocked(
    request: ToolCallRequest,
    traceId: string,
    eventType: string,
    result: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    return this.deps.audit.record({
      event_type: eventType,
      trace_id: traceId,
      actor: actorOf(request.caller),
      target: { server_id: request.serverId, tool_name: request.toolName },
      result,
      details,
    });
  }

  /** Kernel tools: operator-only ones need an operator or an explicit grant on the `mgp` server. */
  private async callKernelTool(
    request: ToolCallRequest & { traceId: string },
    started: number,
  ): Promise<ToolCallOutcome> {
    const tool = this.deps.kernelTools.get(request.toolName);
    if (!tool) {
      await this.blocked(request, request.traceId, 'TOOL_BLOCKED', 'NOT_FOUND', {
        reason: 'unknown_tool',
      });
      throw new KernelError(
        'UnknownTool',
        `the kernel has no tool "${request.toolName}"`,
        TOOL_NOT_FOUND,
        errorData(TOOL_NOT_FOUND),
      );
    }
    // An explicit entry on the `mgp` server decides; otherwise operators may use every kernel tool and
    // agents the ones that are not operator-only (MGP §5.4, §16.8).
    const access = this.deps.access.query(request.caller.agentId, KERNEL_SERVER_ID, tool.name);
    const allowed =
      access.source === 'default_policy'
        ? !tool.operatorOnly || request.caller.kind === 'operator'
        : access.permission === 'allow';
    if (!allowed) {
      await this.blocked(request, request.traceId, 'TOOL_BLOCKED', 'DENIED', {
        reason: tool.operatorOnly ? 'operator_only' : 'access_denied',
        access_source: access.source,
      });
      throw new KernelError(
        'AccessDenied',
        `${request.caller.agentId} may not use ${tool.name}${tool.operatorOnly ? ': it is for operators' : ''}`,
        ACCESS_DENIED,
        errorData(ACCESS_DENIED),
      );
    }
    const security: EffectiveSecurity = {
      risk_level: tool.risk,
      permissions_required: [],
      side_effects: [],
      sources: { risk_level: 'config' },
    };
    try {
      const value = await tool.run(request.args, {
        caller: request.caller,
        traceId: request.traceId,
        signal: request.signal,
      });
      const result = toolResult(value) as CallToolResult;
      this.executedLater(request, request.traceId, security, 'SUCCESS', {
        duration_ms: Math.round(performance.now() - started),
        kernel_tool: true,
      });
      return {
        result,
        traceId: request.traceId,
        serverId: KERNEL_SERVER_ID,
        toolName: tool.name,
        security,
        attempts: 1,
        durationMs: performance.now() - started,
      };
    } catch (error) {
      await this.executed(request, request.traceId, security, 'FAILURE', {
        error: error instanceof Error ? error.message : String(error),
        kernel_tool: true,
      });
      throw error;
    }
  }
}
