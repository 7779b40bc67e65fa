/**
 * The gateway's call meta-tool, for clients whose tool list is fixed for a run (the AI SDK's
 * `generateText`, agents that list once): in meta mode they discover a tool with
 * mgp.tools.discover, then call it by its `tool_id` through this one, which takes the same path
 * as a direct call (access control, approval, validators, audit) under the client's identity.
 * Clients that re-list on `tools/list_changed` can call what they found directly as well.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { NameStyle } from './names';
import { safeKernelName } from './safeNames';

export const CALL_META_TOOL = 'mgp.tools.call';

const definition: Tool = {
  name: CALL_META_TOOL,
  title: 'Call a discovered tool',
  description:
    "Calls a tool that mgp.tools.discover or mgp.tools.request found, by its tool_id, with its arguments (an object that fits the input schema the discovery showed). The call is checked as any other: it may be refused, or need the user's approval.",
  inputSchema: {
    type: 'object',
    properties: {
      tool_id: { type: 'string', description: 'The tool_id from the discovery answer' },
      arguments: { type: 'object', description: "The tool's arguments" },
    },
    required: ['tool_id'],
  },
};

/** The meta-tool as a client of that style of names is given it (names.ts). */
export function callMetaTool(style: NameStyle): Tool {
  return style === 'safe' ? { ...definition, name: safeKernelName(CALL_META_TOOL) } : definition;
}

/** Whether a call names the meta-tool, in either style. */
export const isCallMetaTool = (name: string): boolean =>
  name === CALL_META_TOOL || name === safeKernelName(CALL_META_TOOL);

/** The call the meta-tool stands for; a problem in words when its arguments do not say one. */
export function metaCallTarget(
  args: Record<string, unknown> | undefined,
): { toolId: string; args: Record<string, unknown> } | { problem: string } {
  const toolId = args?.tool_id;
  if (typeof toolId !== 'string' || toolId === '')
    return { problem: 'tool_id must be the tool_id of a discovered tool, as a string' };
  if (isCallMetaTool(toolId)) return { problem: `${CALL_META_TOOL} does not call itself` };
  const inner = args?.arguments ?? {};
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner))
    return { problem: 'arguments must be a JSON object' };
  return { toolId, args: inner as Record<string, unknown> };
}
