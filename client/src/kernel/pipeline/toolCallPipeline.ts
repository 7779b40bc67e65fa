/**
 * The one path every tool call takes, whoever calls (a view, the CLI, an agent, the gateway):
 * turned off → resolve → access → arguments → feature set → permissions → validators → scope →
 * approval → forward → audit (ARCHITECTURE.md, "The one call path"). A tool or server the user
 * turned off is refused first, before the tool is even looked up (checks.ts `turnedOff`). Resolving
 * makes the call's context (server, tool, effective security); each check is a stage over it
 * (checks.ts); forwarding sends it and audits the execution (forward.ts). Each refusal is audited and
 * answered with its MGP §14.3 code (MCPL's with its own).
 *
 * A stage that decides at once returns nothing and the next runs in the same turn; only a stage that
 * waits (the operator, a validator, a refusal's audit record) puts the rest of the path behind a
 * promise. So a call every check lets through goes out with no turn of the event loop of its own.
 */
import { newTraceId } from '../audit/auditEvent';
import type { CappedResult } from '../connection/serverConnection';
import { errorData } from '../mgp/mgpErrors';
import { KernelError, refusedBy, TOOL_NOT_FOUND } from '../domain/errors';
import { KERNEL_SERVER_ID } from '../domain/kernelTool';
import type { SupervisedServer } from '../lifecycle/supervisedServer';
import { ArgumentChecker } from './argumentChecker';
import { CallAudit, EndedTask } from './callAudit';
import type { ResolvedCall, PipelineDeps, Stage, ToolCallOutcome, ToolCallRequest } from './types';
import { CallChecks } from './checks';
import { Forwarding } from './forward';
import { KernelToolCalls } from './kernelToolCall';
import { checkOutput } from './outputCheck';
import { keepDeclaredDraftFields } from '../drafts/fields';

export type { StreamHooks, ToolCallOutcome, ToolCallRequest } from './types';

export class ToolCallPipeline {
  private readonly audit: CallAudit;
  private readonly checks: CallChecks;
  private readonly stages: readonly Stage[];
  private readonly forwarding: Forwarding;
  private readonly kernelToolCalls: KernelToolCalls;

  constructor(
    private readonly deps: PipelineDeps,
    /** The one check of arguments against a tool's schema, shared with the Run Tool form. */
    readonly argumentChecker: ArgumentChecker = new ArgumentChecker(),
  ) {
    this.audit = new CallAudit(deps.audit);
    const checks = new CallChecks(deps, this.argumentChecker, this.audit);
    this.checks = checks;
    this.stages = checks.stages;
    this.forwarding = new Forwarding(
      deps,
      checks,
      this.audit,
      (request, depth) => this.call(request, depth),
      this.argumentChecker,
    );
    this.kernelToolCalls = new KernelToolCalls(deps, this.audit);
  }

  /**
   * A task's result that reached the kernel outside a call (through tasks/result), checked against
   * its tool's outputSchema the way a call's result is (outputCheck.ts), and audited.
   */
  taskEnded(task: EndedTask): CappedResult {
    const { serverId, toolName } = task;
    const tool = this.deps.manager.find(serverId)?.tools.find((t) => t.name === toolName);
    const result = tool ? checkOutput(this.argumentChecker, tool, task.result) : task.result;
    void this.audit.taskEnded({ ...task, result }).catch(() => undefined);
    return result;
  }

  call(request: ToolCallRequest, fallbackDepth = 0): Promise<ToolCallOutcome> {
    const traceId = request.traceId ?? newTraceId();
    const started = performance.now();
    if (request.serverId === KERNEL_SERVER_ID)
      return this.kernelToolCalls.call(request, traceId, started);
    const off = this.checks.turnedOff(request, traceId);
    if (off) return off;
    const server = this.deps.manager.find(request.serverId);
    const tool = server?.tools.find((t) => t.name === request.toolName);
    if (!server || !tool) return this.unresolved(request, traceId, server);
    // MCP draft §1-§2: a draft field goes only to a tool whose schema declares it (no-op otherwise).
    const drafted = keepDeclaredDraftFields(tool.inputSchema, request.args);
    const call: ResolvedCall = {
      request: drafted.dropped.length ? { ...request, args: drafted.args } : request,
      traceId,
      started,
      fallbackDepth,
      server,
      tool,
      security: this.deps.securityOf(server, tool),
      approval: undefined,
      operatorMs: 0,
      answer: undefined,
      ...(drafted.dropped.length ? { draftFieldsDropped: drafted.dropped } : {}),
    };
    try {
      return this.proceed(call, 0);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Runs the stages from `from` on, then forwards; waits only where a stage has to. */
  private proceed(call: ResolvedCall, from: number): Promise<ToolCallOutcome> {
    for (let i = from; i < this.stages.length; i++) {
      const waiting = this.stages[i](call);
      if (waiting) return waiting.then(() => this.afterWaiting(call, i + 1));
    }
    return this.forwarding.forward(call);
  }

  private afterWaiting(
    call: ResolvedCall,
    next: number,
  ): Promise<ToolCallOutcome> | ToolCallOutcome {
    return call.answer ? this.forwarding.answered(call, call.answer) : this.proceed(call, next);
  }

  /**
   * No such server or tool: refused as unknown (4001), or, for a server that is not connected, the
   * lifecycle error its session gives (2000/2001/2002).
   */
  private async unresolved(
    request: ToolCallRequest,
    traceId: string,
    server: SupervisedServer | undefined,
  ): Promise<never> {
    if (server?.blockedByPolicy !== undefined) {
      await this.audit.blocked(request, traceId, 'TOOL_BLOCKED', 'BLOCKED', {
        check: 'managed_policy',
        reason: server.blockedByPolicy,
      });
      server.session();
    }
    if (server && server.state !== 'connected') server.session();
    await this.audit.blocked(request, traceId, 'TOOL_BLOCKED', 'NOT_FOUND', {
      reason: 'unknown_tool',
    });
    throw refusedBy(
      'tool_lookup',
      new KernelError(
        'UnknownTool',
        server
          ? `${request.serverId} has no tool "${request.toolName}"`
          : `no server "${request.serverId}" is configured`,
        TOOL_NOT_FOUND,
        errorData(TOOL_NOT_FOUND),
      ),
    );
  }
}
