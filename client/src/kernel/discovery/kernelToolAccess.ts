/**
 * Who may use a kernel tool (MGP §5.4, §16.8), one rule for the pipeline and for what the gateway
 * lists: an explicit access entry on the `mgp` server decides. Without one, operators may use every
 * kernel tool, and agents only the tools §16.8 gives a model: the meta-tools and the session tools.
 * The administrative ones (`mgp.access.*`, `mgp.health.*`, `mgp.events.*`…) answer an agent only
 * with a grant, whatever the default policy (`opt-out` too).
 */
import type { Caller } from '../domain/caller';
import { KERNEL_SERVER_ID, type KernelTool } from '../domain/kernelTool';
import { kernelToolVisibility } from './visibility';

export interface KernelToolAccessQuery {
  query(
    agentId: string,
    serverId: string,
    toolName?: string,
  ): { permission: 'allow' | 'deny'; source: string };
}

export interface KernelToolAccess {
  allowed: boolean;
  /** Where the answer came from: the access entry's source, or `default_policy`. */
  source: string;
}

export function kernelToolAccess(
  access: KernelToolAccessQuery,
  caller: Pick<Caller, 'agentId' | 'kind'>,
  tool: KernelTool,
): KernelToolAccess {
  const answer = access.query(caller.agentId, KERNEL_SERVER_ID, tool.name);
  if (answer.source !== 'default_policy')
    return { allowed: answer.permission === 'allow', source: answer.source };
  const allowed =
    caller.kind === 'operator' ||
    (!tool.operatorOnly && kernelToolVisibility(tool.name) !== 'admin');
  return { allowed, source: answer.source };
}
