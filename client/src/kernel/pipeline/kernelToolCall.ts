/**
 * A call of one of the kernel's own tools (server `mgp`, MGP §1.6 Layer 4): resolved in the registry,
 * checked for access (kernelToolAccess.ts: MGP §5.4, §16.8), run in process, audited.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolResult } from '../kernelTools/registry';
import { kernelToolAccess } from '../discovery/kernelToolAccess';
import { kernelToolVisibility } from '../discovery/visibility';
import { errorData } from '../mgp/mgpErrors';
import { ACCESS_DENIED, KernelError, refusedBy, TOOL_NOT_FOUND } from '../domain/errors';
import { KERNEL_SERVER_ID, type KernelTool } from '../domain/kernelTool';
import type { EffectiveSecurity } from '../domain/security';
import type { CallAudit } from './callAudit';
import type { PipelineDeps, ToolCallOutcome, ToolCallRequest } from './types';

export class KernelToolCalls {
  constructor(
    private readonly deps: PipelineDeps,
    private readonly audit: CallAudit,
  ) {}

  async call(request: ToolCallRequest, traceId: string, started: number): Promise<ToolCallOutcome> {
    const tool = this.deps.kernelTools.get(request.toolName);
    if (!tool) return this.refuseUnknown(request, traceId);
    const access = kernelToolAccess(this.deps.access, request.caller, tool);
    if (!access.allowed) return this.refuseAccess(request, traceId, tool, access.source);
    const security: EffectiveSecurity = {
      risk_level: tool.risk,
      permissions_required: [],
      side_effects: [],
      sources: { risk_level: 'config' },
    };
    try {
      const value = await tool.run(request.args, {
        caller: request.caller,
        traceId,
        signal: request.signal,
      });
      const result = toolResult(value) as CallToolResult;
      this.audit.executedLater(request, traceId, security, 'SUCCESS', {
        duration_ms: Math.round(performance.now() - started),
        kernel_tool: true,
      });
      return {
        result,
        traceId,
        serverId: KERNEL_SERVER_ID,
        toolName: tool.name,
        security,
        attempts: 1,
        durationMs: performance.now() - started,
      };
    } catch (error) {
      await this.audit.executed(request, traceId, security, 'FAILURE', {
        error: error instanceof Error ? error.message : String(error),
        kernel_tool: true,
      });
      throw error;
    }
  }

  private async refuseUnknown(request: ToolCallRequest, traceId: string): Promise<never> {
    await this.audit.blocked(request, traceId, 'TOOL_BLOCKED', 'NOT_FOUND', {
      reason: 'unknown_tool',
    });
    throw refusedBy(
      'tool_lookup',
      new KernelError(
        'UnknownTool',
        `the kernel has no tool "${request.toolName}"`,
        TOOL_NOT_FOUND,
        errorData(TOOL_NOT_FOUND),
      ),
    );
  }

  private async refuseAccess(
    request: ToolCallRequest,
    traceId: string,
    tool: KernelTool,
    source: string,
  ): Promise<never> {
    await this.audit.blocked(request, traceId, 'TOOL_BLOCKED', 'DENIED', {
      reason: tool.operatorOnly
        ? 'operator_only'
        : kernelToolVisibility(tool.name) === 'admin'
          ? 'administrative'
          : 'access_denied',
      access_source: source,
    });
    throw refusedBy(
      'access',
      new KernelError(
        'AccessDenied',
        `${request.caller.agentId} may not use ${tool.name}${refusalNote(tool)}`,
        ACCESS_DENIED,
        errorData(ACCESS_DENIED),
      ),
    );
  }
}

function refusalNote(tool: KernelTool): string {
  if (tool.operatorOnly) return ': it is for operators';
  if (kernelToolVisibility(tool.name) === 'admin')
    return ': it is administrative (MGP §16.8), for an agent only with an access grant on server mgp';
  return '';
}
