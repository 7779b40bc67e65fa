/**
 * The rows of Run Tool's picker: the servers' tools grouped by server, then the kernel's own tools
 * (lifecycle, access, events… MGP §16.8) in a group of their own, so an administrative tool such as
 * mgp.lifecycle.shutdown is never offered as if it were one of a server's. Pure: tested in node.
 */
import type { ToolKey } from '@shared/toolPanelMessages';
import type { KernelToolEntry } from '../../kernel';

export interface ToolPick {
  label: string;
  description?: string;
  detail: string;
  key: ToolKey;
}

export interface ToolPickGroup {
  /** The separator's words above the group. */
  title: string;
  picks: ToolPick[];
}

export const KERNEL_TOOLS_TITLE = "MGP Kernel's own tools";

function pickOf(t: KernelToolEntry): ToolPick {
  return {
    label: `${t.serverId}.${t.name}`,
    description: t.tool.description?.split('\n')[0],
    detail: `${t.security.risk_level} · from ${t.security.sources.risk_level ?? 'default'}`,
    key: { serverId: t.serverId, toolName: t.name },
  };
}

export function toolPickGroups(tools: readonly KernelToolEntry[]): ToolPickGroup[] {
  const byServer = new Map<string, ToolPick[]>();
  const kernel: ToolPick[] = [];
  for (const tool of tools) {
    if (tool.kernel) kernel.push(pickOf(tool));
    else byServer.set(tool.serverId, [...(byServer.get(tool.serverId) ?? []), pickOf(tool)]);
  }
  const groups = [...byServer].map(([serverId, picks]) => ({ title: serverId, picks }));
  return kernel.length ? [...groups, { title: KERNEL_TOOLS_TITLE, picks: kernel }] : groups;
}
