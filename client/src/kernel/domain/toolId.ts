/**
 * A tool's id (MGP §16.4 `tool_id`): the one string that names a (server, tool) pair, in discovery
 * answers, session caches, pins and the gateway's kernel names. It is `server.tool` and splits at its
 * last dot: a `.` or `%` inside the tool name is written `%2E` or `%25`, so the tool `temp` of server
 * `files.cleanup` (`files.cleanup.temp`) and the tool `cleanup.temp` of server `files`
 * (`files.cleanup%2Etemp`) never share an id (issue 24, finding 19). The kernel's own tools keep
 * their names (`mgp.tools.discover`): a server id in their namespace (`mgp.…`) has its dots written
 * `%2E`, so no server's tool passes for one. Every place that keys tools by one string keys them by this.
 */
import { KERNEL_SERVER_ID } from './kernelTool';

export interface ToolPair {
  serverId: string;
  toolName: string;
}

const KERNEL_PREFIX = `${KERNEL_SERVER_ID}.`;
const ESCAPES: Record<string, string> = { '%': '%25', '.': '%2E' };
const UNESCAPES: Record<string, string> = { '%25': '%', '%2E': '.' };

const escape = (text: string, pattern: RegExp) => text.replace(pattern, (c) => ESCAPES[c]);

function unescape(part: string): string | undefined {
  if (/%(?!25|2E)/i.test(part)) return undefined;
  return part.replace(/%25|%2E/gi, (c) => UNESCAPES[c.toUpperCase()]);
}

/** The id of a server's tool; a kernel tool's id is its name. */
export function toolIdOf(serverId: string, toolName: string): string {
  if (serverId === KERNEL_SERVER_ID) return toolName;
  const server = escape(serverId, serverId.startsWith(KERNEL_PREFIX) ? /[%.]/g : /%/g);
  return `${server}.${escape(toolName, /[%.]/g)}`;
}

/** The (server, tool) pair an id names, or undefined for a string that is no tool id. */
export function parseToolId(id: string): ToolPair | undefined {
  if (id.startsWith(KERNEL_PREFIX)) return { serverId: KERNEL_SERVER_ID, toolName: id };
  const dot = id.lastIndexOf('.');
  if (dot <= 0 || dot === id.length - 1) return undefined;
  const serverId = unescape(id.slice(0, dot));
  const toolName = unescape(id.slice(dot + 1));
  return serverId === undefined || toolName === undefined ? undefined : { serverId, toolName };
}
