/** What the tool panel commands accept as arguments (pure: tested in node). */
import type { ToolKey } from '@shared/toolPanelMessages';

/**
 * `mgp.runTool`'s target: a tool item of the Servers view, or `{ serverId, toolName }` (from the
 * Discovery panel or a keybinding's `args`); undefined for anything else (a quick pick follows).
 */
export function toolKeyOf(target: unknown): ToolKey | undefined {
  if (typeof target !== 'object' || target === null) return undefined;
  const t = target as Record<string, unknown>;
  if (
    t.kind === 'item' &&
    t.group === 'tools' &&
    typeof t.serverId === 'string' &&
    typeof t.name === 'string'
  )
    return { serverId: t.serverId, toolName: t.name };
  if (
    t.kind === undefined &&
    typeof t.serverId === 'string' &&
    typeof t.toolName === 'string' &&
    t.serverId &&
    t.toolName
  )
    return { serverId: t.serverId, toolName: t.toolName };
  return undefined;
}

/** `mgp.showStreams`' `{ streamId }`: the tab to show. */
export function streamIdOf(args: unknown): string | undefined {
  const id =
    typeof args === 'object' && args !== null
      ? (args as { streamId?: unknown }).streamId
      : undefined;
  return typeof id === 'string' && id ? id : undefined;
}
