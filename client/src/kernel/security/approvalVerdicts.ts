import type { KernelSettings } from '../config/types';
import { newTraceId } from '../audit/auditEvent';
import type { ListedTool } from '../connection/toolResults';
import type { ServerManager } from '../lifecycle/serverManager';
import type { SupervisedServer } from '../lifecycle/supervisedServer';
import type { EffectiveSecurity } from '../domain/security';
import { ApprovalVerdict, configApproves, decideApproval, needsApproval } from './approvalPolicy';
import type { Switches } from './switches';
import type { ToolApprovals } from './toolApprovals';

export interface ApprovalVerdictDeps {
  manager: ServerManager;
  switches: Switches;
  approvals: ToolApprovals;
  settings(): KernelSettings;
  securityOf(server: SupervisedServer, tool: ListedTool): EffectiveSecurity;
}

/** The approval policy (MGP §3.3) asked about a tool outside a call: ahead of it, or to grant it. */
export class ApprovalVerdicts {
  constructor(private readonly deps: ApprovalVerdictDeps) {}

  /**
   * What the approval policy makes of a call of the tool now, with the answers already given: allow,
   * ask the operator, or deny; undefined for a tool no connected server lists, or one turned off.
   */
  verdict(serverId: string, toolName: string): ApprovalVerdict | undefined {
    if (this.deps.switches.turnedOff(serverId, toolName)) return undefined;
    const found = this.find(serverId, toolName);
    if (!found) return undefined;
    const { server, tool } = found;
    const settings = this.deps.settings();
    const security = this.deps.securityOf(server, tool);
    const policy = server.config.policy.approvalPolicy ?? settings.approvalPolicy;
    return decideApproval(policy, needsApproval(security, settings.moderateToolsRequireApproval), {
      ...this.deps.approvals.held(serverId, toolName),
      configRule: configApproves(server.config.policy.approvedTools, toolName, security),
    });
  }

  /** Whether a call of the tool would wait for the operator now (for `mgp.tools.request`, MGP §16.6). */
  wouldAsk(serverId: string, toolName: string): boolean {
    const verdict = this.verdict(serverId, toolName);
    return verdict !== undefined && verdict.kind !== 'allow';
  }

  /** Grants a tool ahead of its call as the operator; false when no connected server lists it. */
  async grant(
    serverId: string,
    toolName: string,
    answer: 'session' | 'always' | 'server_session',
    requestedBy: string,
  ): Promise<boolean> {
    const found = this.find(serverId, toolName);
    if (!found) return false;
    const { server, tool } = found;
    const settings = this.deps.settings();
    await this.deps.approvals.grant(
      {
        serverId,
        toolName,
        description: tool.description,
        args: {},
        security: this.deps.securityOf(server, tool),
        agentId: requestedBy,
        traceId: newTraceId(),
        policy: server.config.policy.approvalPolicy ?? settings.approvalPolicy,
        approvedTools: server.config.policy.approvedTools,
        moderateRequiresApproval: settings.moderateToolsRequireApproval,
      },
      answer,
    );
    return true;
  }

  private find(
    serverId: string,
    toolName: string,
  ): { server: SupervisedServer; tool: ListedTool } | undefined {
    const server = this.deps.manager.find(serverId);
    const tool = server?.tools.find((t) => t.name === toolName);
    return server && tool ? { server, tool } : undefined;
  }
}
