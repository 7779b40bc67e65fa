/**
 * MCPL's part in tool calls, as the kernel wires it: the pipeline's feature-set and scope stages
 * (MCPL §6.6, §7.7), and the connection's checkpoint fields (§8.4), each over the call's context
 * (toolCalls.ts).
 */
import type { McplSettings } from '../config/types';
import type { ToolCallExtension } from '../connection/service';
import type { ListedTool } from '../connection/toolResults';
import type { ScopeQuestion } from '../host/interaction';
import type { ExtensionCheck } from '../pipeline/types';
import type { Checkpoints } from './checkpoints';
import type { McplAudit } from './mcplAudit';
import type { McplServer } from './mcplServer';
import type { ScopeAnswers } from './scopes';
import { featureSetRefusal, scopeVerdict, toolCallExtension, ToolCallContext } from './toolCalls';

export interface McplCallDeps {
  server(serverId: string): McplServer | undefined;
  settings(serverId: string): McplSettings | undefined;
  checkpoints: Checkpoints;
  audit: McplAudit;
  scopes: ScopeAnswers;
  ask(question: ScopeQuestion): Promise<boolean> | undefined;
  log(serverId: string, level: string, message: string): void;
}

export class McplCalls {
  constructor(private readonly deps: McplCallDeps) {}

  /** The pipeline's feature-set stage (MCPL §6.6). */
  readonly featureSetCheck: ExtensionCheck = ({ serverId, tool }) => {
    const server = this.deps.server(serverId);
    return server && featureSetRefusal(server, tool);
  };

  /** The pipeline's scope stage (MCPL §7.7). */
  readonly scopeCheck: ExtensionCheck = ({ serverId, tool, args }) => {
    const context = this.context(serverId, tool, args);
    return context && scopeVerdict(context);
  };

  /** What a tools/call carries to the server, and what its answer's state becomes (MCPL §8.4). */
  extension(
    serverId: string,
    tool: ListedTool | string,
    args: Record<string, unknown>,
  ): ToolCallExtension | undefined {
    const context = this.context(serverId, tool, args);
    return context && toolCallExtension(context);
  }

  private context(
    serverId: string,
    tool: ListedTool | string,
    args: Record<string, unknown>,
  ): ToolCallContext | undefined {
    const server = this.deps.server(serverId);
    if (!server || typeof tool === 'string') return undefined;
    const { checkpoints, audit, scopes } = this.deps;
    return {
      server,
      tool,
      args,
      settings: this.deps.settings(serverId),
      checkpoints,
      audit,
      scopes,
      ask: (question) => this.deps.ask(question),
      log: (level, message) => this.deps.log(serverId, level, message),
    };
  }
}
