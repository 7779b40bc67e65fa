/**
 * The tools the gateway offers its clients. `all`: every connected server's tools. `meta` (the
 * default, MGP §16.3 L2 growing into L3): the meta-tools first; the tools a session discovers, pins
 * or uses join its list as they load. Either way the kernel's own tools follow their §16.8
 * visibility: the meta-tools and the session tools are listed, administrative ones only to a client
 * with an access grant for them (the pipeline refuses them otherwise).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ListedTool } from '../connection/toolResults';
import type { Caller } from '../domain/caller';
import { kernelToolAccess } from '../discovery/kernelToolAccess';
import type { Kernel } from '../kernel';
import { KERNEL_SERVER_ID } from '../domain/kernelTool';
import { qualifiedToolName } from '../lifecycle/serverManager';
import { NameTable, type NamedItem, type NameStyle, type NameWarning } from './names';

export type ExposeMode = 'meta' | 'all';

/** How a gateway lists: which tools, and in which style of names (undefined: per client). */
export interface GatewayMode {
  expose: ExposeMode;
  names?: NameStyle;
}

export interface GatewayTool extends NamedItem {
  tool: ListedTool;
  kernel: boolean;
}

/**
 * The kernel's tools a client is listed (§16.8): the ones it may call, by the pipeline's own rule:
 * the meta-tools and the session tools, and an administrative one only with an access grant.
 */
export function visibleKernelTool(kernel: Kernel, caller: Caller, name: string): boolean {
  const tool = kernel.kernelTools.get(name);
  return Boolean(tool && kernelToolAccess(kernel.access, caller, tool).allowed);
}

/**
 * Whether the gateway serves several servers, and so names their items by server (names.ts): a
 * fact of the config, not of which servers are up.
 */
export function servesSeveral(kernel: Kernel): boolean {
  return kernel.manager.list().length > 1;
}

/** Every tool a gateway client may name: the connected servers' (less those turned off) and the kernel's own. */
export function gatewayTools(
  kernel: Kernel,
  warn?: NameWarning<GatewayTool>,
): NameTable<GatewayTool> {
  const kernelTools: GatewayTool[] = kernel.kernelTools.list().map((tool) => ({
    serverId: KERNEL_SERVER_ID,
    name: tool.name,
    kernelName: tool.name,
    kernel: true,
    tool: {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as ListedTool['inputSchema'],
    },
  }));
  const serverTools: GatewayTool[] = kernel.manager
    .list()
    .filter((server) => server.state === 'connected')
    .flatMap((server) =>
      kernel.offeredTools(server).map((tool) => ({
        serverId: server.id,
        name: tool.name,
        kernelName: qualifiedToolName(server.config, tool.name),
        kernel: false,
        tool,
      })),
    );
  return new NameTable(serverTools, { fixed: kernelTools, qualify: servesSeveral(kernel), warn });
}

/**
 * A tool the user turned off, named as a client would name it (its own or its kernel name): its call
 * goes to the pipeline, which refuses it and records why, rather than being answered as unknown.
 */
export function turnedOffTool(kernel: Kernel, name: string): GatewayTool | undefined {
  for (const server of kernel.manager.list())
    for (const tool of server.tools) {
      const kernelName = qualifiedToolName(server.config, tool.name);
      if (
        (tool.name === name || kernelName === name) &&
        kernel.switches.turnedOff(server.id, tool.name)
      )
        return { serverId: server.id, name: tool.name, kernelName, kernel: false, tool };
    }
  return undefined;
}

/**
 * The MCP definition of a listed tool: the server's own, renamed when it must be. `execution` is left
 * out: the kernel runs a task-only tool as a task itself and answers the client's plain call.
 */
export function toolDefinition(listedName: string, tool: ListedTool): Tool {
  const definition = { ...tool, name: listedName } as Record<string, unknown>;
  delete definition.execution;
  definition.inputSchema ??= { type: 'object' };
  return definition as Tool;
}
