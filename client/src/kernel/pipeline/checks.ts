/**
 * The checks a call to a server's tool passes before it is forwarded, in order (after the switches,
 * which the pipeline checks before it even resolves the tool): access (MGP §5), arguments (§14.3
 * 4000), the tool's feature set (MCPL §6.6), permissions (§3), kernel-side validators (§4.5, §7), the
 * call's scope (MCPL §7.7), approval (§4). Every check that can refuse without the operator runs
 * before the operator is asked, so nobody is asked about a call that would be refused anyway; the
 * scope, which may be put to the user, comes after all of those. Each is a
 * stage over the call's context: it returns nothing when it decides at once, a promise when it has to
 * wait (for the operator, for a validator, or for a refusal's audit record), and a refusal throws the
 * error the caller gets, after it is audited.
 */
import {
  ACCESS_DENIED,
  INVALID_TOOL_ARGS,
  KernelError,
  PERMISSION_DENIED,
  VALIDATION_BLOCKED,
  CODE_SAFETY_VIOLATION,
  TOOL_DISABLED,
  refusedBy,
} from '../domain/errors';
import type { ApprovalPolicy } from '../config/types';
import type { CappedResult } from '../connection/serverConnection';
import { errorData } from '../mgp/mgpErrors';
import type { ApprovalOutcome } from '../security/toolApprovals';
import type { TurnedOff } from '../security/switches';
import type { ArgumentChecker } from './argumentChecker';
import type { CallAudit } from './callAudit';
import type {
  ResolvedCall,
  ExtensionCheck,
  ExtensionRefusal,
  ExtensionVerdict,
  PipelineDeps,
  Stage,
  ToolCallRequest,
} from './types';

export class CallChecks {
  /** The stages in the order every call takes them. */
  readonly stages: readonly Stage[] = [
    (call) => this.access(call),
    (call) => this.argumentsMatch(call),
    (call) => this.extension(call, this.deps.featureSetCheck),
    (call) => this.permissions(call),
    (call) => this.validators(call),
    (call) => this.extension(call, this.deps.scopeCheck),
    (call) => this.approval(call),
  ];

  constructor(
    private readonly deps: PipelineDeps,
    private readonly argumentChecker: ArgumentChecker,
    private readonly audit: CallAudit,
  ) {}

  /**
   * The first check: a tool, or its whole server, the user turned off is refused (4002) before
   * anything else, before the tool is looked up (a server turned off lists none).
   */
  turnedOff(request: ToolCallRequest, traceId: string): Promise<never> | undefined {
    const off = this.deps.turnedOff?.(request.serverId, request.toolName);
    return off ? this.refuseTurnedOff(request, traceId, off) : undefined;
  }

  private async refuseTurnedOff(
    request: ToolCallRequest,
    traceId: string,
    off: TurnedOff,
  ): Promise<never> {
    const reason = off === 'server' ? 'server_turned_off' : 'tool_turned_off';
    await this.audit.blocked(request, traceId, 'TOOL_BLOCKED', 'DISABLED', { reason });
    throw refusedBy(
      'turned_off',
      new KernelError(
        'ToolDisabled',
        off === 'server'
          ? `${request.serverId} is turned off, so ${request.serverId}.${request.toolName} cannot be called; turn the server on to use it`
          : `${request.serverId}.${request.toolName} is turned off; turn it on to use it`,
        TOOL_DISABLED,
        errorData(TOOL_DISABLED, { details: { reason } }),
      ),
    );
  }

  access(call: ResolvedCall): Promise<void> | undefined {
    const { request } = call;
    const access = this.deps.access.query(
      request.caller.agentId,
      request.serverId,
      request.toolName,
    );
    return access.permission === 'allow' ? undefined : this.refuseAccess(call, access.source);
  }

  private async refuseAccess(call: ResolvedCall, source: string): Promise<void> {
    const { request } = call;
    await this.audit.blocked(request, call.traceId, 'TOOL_BLOCKED', 'DENIED', {
      reason: 'access_denied',
      access_source: source,
      risk_level: call.security.risk_level,
    });
    throw refusedBy(
      'access',
      new KernelError(
        'AccessDenied',
        `${request.caller.agentId} has no access to ${request.serverId}.${request.toolName} (${source})`,
        ACCESS_DENIED,
        errorData(ACCESS_DENIED, { details: { agent_id: request.caller.agentId, source } }),
      ),
    );
  }

  argumentsMatch(call: ResolvedCall): undefined {
    const { request } = call;
    const schema = call.tool.inputSchema as Record<string, unknown> | undefined;
    const problem = this.argumentChecker.problem(schema, request.args);
    if (!problem) return undefined;
    void this.audit.blocked(request, call.traceId, 'TOOL_BLOCKED', 'INVALID', {
      reason: 'invalid_arguments',
      problem,
      risk_level: call.security.risk_level,
    });
    throw refusedBy(
      'input_schema',
      new KernelError(
        'InvalidArguments',
        `arguments of ${request.serverId}.${request.toolName} do not match its input schema: ${problem}`,
        INVALID_TOOL_ARGS,
        errorData(INVALID_TOOL_ARGS, { details: { problem } }),
      ),
    );
  }

  /** A protocol extension's check (MCPL §6.6, §7.7): a refusal is audited as a block naming it. */
  private extension(
    call: ResolvedCall,
    check: ExtensionCheck | undefined,
  ): Promise<void> | undefined {
    if (!check) return undefined;
    const { request, tool, traceId } = call;
    const verdict = check({ serverId: request.serverId, tool, args: request.args, traceId });
    if (!verdict) return undefined;
    if (verdict instanceof Promise) return verdict.then((v) => this.extensionVerdict(call, v));
    return this.extensionVerdict(call, verdict);
  }

  private extensionVerdict(
    call: ResolvedCall,
    verdict: ExtensionVerdict,
  ): Promise<void> | undefined {
    if ('refusal' in verdict) return this.refuseExtension(call, verdict.refusal);
    if (verdict.params) call.params = { ...call.params, ...verdict.params };
    return undefined;
  }

  private async refuseExtension(call: ResolvedCall, refusal: ExtensionRefusal): Promise<void> {
    await this.audit.blocked(call.request, call.traceId, 'TOOL_BLOCKED', refusal.result, {
      reason: 'extension_check',
      check: refusal.check,
      ...refusal.details,
      risk_level: call.security.risk_level,
    });
    throw refusedBy(refusal.check, refusal.error);
  }

  /** A tool whose required permission the operator denied does not run (MGP §3, §4.3). */
  permissions(call: ResolvedCall): Promise<void> | undefined {
    const required = call.security.permissions_required;
    if (required.length === 0) return undefined;
    const denied = required.filter(
      (p) => this.deps.permissionState(call.request.serverId, p) === 'denied',
    );
    return denied.length === 0 ? undefined : this.refusePermissions(call, denied);
  }

  private async refusePermissions(call: ResolvedCall, denied: string[]): Promise<void> {
    const { request } = call;
    await this.audit.blocked(request, call.traceId, 'TOOL_BLOCKED', 'DENIED', {
      reason: 'permission_denied',
      permissions: denied,
      risk_level: call.security.risk_level,
    });
    throw refusedBy(
      'permissions',
      new KernelError(
        'PermissionDenied',
        `${request.serverId}.${request.toolName} needs ${denied.join(', ')}, which the operator denied`,
        PERMISSION_DENIED,
        errorData(PERMISSION_DENIED, { details: { permissions: denied } }),
      ),
    );
  }

  /** Allowed at once by policy, config or an approval held; otherwise the operator is asked. */
  approval(call: ResolvedCall): Promise<void> | undefined {
    call.approval = this.allowedWithoutAsking(call);
    if (call.approval) return undefined;
    return this.askApproval(call).then((outcome) => {
      call.approval = outcome;
    });
  }

  private allowedWithoutAsking(call: ResolvedCall): ApprovalOutcome | undefined {
    const settings = this.deps.settings();
    const policy = call.server.config.policy;
    return this.deps.approvals.allowedWithoutAsking({
      serverId: call.request.serverId,
      toolName: call.request.toolName,
      security: call.security,
      policy: policy.approvalPolicy ?? settings.approvalPolicy,
      approvedTools: policy.approvedTools,
      moderateRequiresApproval: settings.moderateToolsRequireApproval,
      agentId: call.request.caller.agentId,
    });
  }

  /**
   * Puts the call to the operator when the policy says so; a refusal is audited and thrown. Also asked
   * before each retry of a call that is not safe (MGP §14.6: a retry is a new execution).
   */
  async askApproval(call: ResolvedCall): Promise<ApprovalOutcome> {
    const { request, server, security } = call;
    const settings = this.deps.settings();
    const policy: ApprovalPolicy = server.config.policy.approvalPolicy ?? settings.approvalPolicy;
    const asked = performance.now();
    const outcome = await this.deps.approvals
      .authorize(
        {
          serverId: request.serverId,
          toolName: request.toolName,
          description: call.tool.description,
          args: request.args,
          security,
          agentId: request.caller.agentId,
          traceId: call.traceId,
          policy,
          approvedTools: server.config.policy.approvedTools,
          moderateRequiresApproval: settings.moderateToolsRequireApproval,
        },
        request.signal,
      )
      .finally(() => {
        call.operatorMs += performance.now() - asked;
      });
    if (outcome.allowed) return outcome;
    await this.audit.blocked(request, call.traceId, 'TOOL_BLOCKED', 'DENIED', {
      reason: 'approval_denied',
      why: outcome.reason,
      policy,
      risk_level: security.risk_level,
    });
    throw refusedBy(
      'approval',
      new KernelError(
        'PermissionDenied',
        `${request.serverId}.${request.toolName} was not approved: ${outcome.reason}`,
        PERMISSION_DENIED,
        errorData(PERMISSION_DENIED, { details: { reason: outcome.reason, policy } }),
      ),
    );
  }

  /** Kernel-side validators (MGP §4.5, §7): a block throws 1010; a code rejection answers §7.4 as a tool error. */
  validators(call: ResolvedCall): Promise<void> | undefined {
    const { server, tool, security } = call;
    if (this.deps.validation.validatorsFor(server, tool, security).length === 0) return undefined;
    return this.runValidators(call);
  }

  private async runValidators(call: ResolvedCall): Promise<void> {
    const { request, server, tool, security, traceId } = call;
    const outcome = await this.deps.validation.validate(server, tool, request.args, security);
    if (outcome.ok) return;
    const violations = outcome.violations.map((v) => ({
      validator: v.validator,
      rule: v.rule,
      message: v.message,
      argument: v.argument,
    }));
    await this.audit.blocked(request, traceId, 'VALIDATION_FAILED', 'BLOCKED', {
      validators: outcome.applied,
      violations,
      risk_level: security.risk_level,
    });
    if (outcome.codeRejection) {
      await this.audit.blocked(request, traceId, 'CODE_REJECTED', 'REJECTED', {
        rejection: outcome.codeRejection,
      });
      const rejection = outcome.codeRejection;
      call.answer = {
        content: [{ type: 'text', text: JSON.stringify(rejection, null, 2) }],
        structuredContent: rejection as unknown as Record<string, unknown>,
        isError: true,
        _mgp: { code: CODE_SAFETY_VIOLATION, blocked_by: 'code_safety' },
      } as CappedResult;
      return;
    }
    await this.audit.blocked(request, traceId, 'TOOL_BLOCKED', 'BLOCKED', {
      reason: 'validation_failed',
      validators: outcome.applied,
    });
    const summary = violations.map((v) => `${v.validator}: ${v.message}`).join('; ');
    throw refusedBy(
      'validators',
      new KernelError(
        'ValidationBlocked',
        `the kernel's validators blocked ${request.serverId}.${request.toolName}: ${summary}`,
        VALIDATION_BLOCKED,
        errorData(VALIDATION_BLOCKED, { details: { violations } }),
      ),
    );
  }
}
