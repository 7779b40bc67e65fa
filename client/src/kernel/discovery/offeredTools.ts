import type { ListedTool } from '../connection/toolResults';
import type { KernelToolRegistry } from '../kernelTools/registry';
import type { ServerManager } from '../lifecycle/serverManager';
import type { SupervisedServer } from '../lifecycle/supervisedServer';
import { KERNEL_SERVER_ID } from '../domain/kernelTool';
import type { EffectiveSecurity } from '../domain/security';
import { effectiveSecurity } from '../security/effectiveSecurity';
import type { Switches } from '../security/switches';

/** A tool as the kernel lists it: kernel name, server, definition and effective security. */
export interface KernelToolEntry {
  serverId: string;
  name: string;
  tool: ListedTool;
  security: EffectiveSecurity;
  kernel: boolean;
}

export interface OfferedToolsDeps {
  manager: ServerManager;
  kernelTools: KernelToolRegistry;
  switches: Switches;
}

/** The tools the kernel offers, each with its effective security (MGP §4), worked out once per definition. */
export class OfferedTools {
  private readonly securityCache = new WeakMap<
    ListedTool,
    { override: unknown; security: EffectiveSecurity }
  >();

  constructor(private readonly deps: OfferedToolsDeps) {}

  securityOf(server: SupervisedServer, tool: ListedTool): EffectiveSecurity {
    const override = server.config.policy.toolOverrides[tool.name];
    const cached = this.securityCache.get(tool);
    if (cached && cached.override === override) return cached.security;
    const security = effectiveSecurity(tool, override);
    this.securityCache.set(tool, { override, security });
    return security;
  }

  /**
   * Every tool of every connected server that is not turned off, then the kernel's own (MGP §16.8:
   * listed for discoverability).
   */
  all(): KernelToolEntry[] {
    const fromServers = this.deps.manager.list().flatMap((server) =>
      this.of(server).map((tool) => ({
        serverId: server.id,
        name: tool.name,
        tool,
        security: this.securityOf(server, tool),
        kernel: false,
      })),
    );
    const ownTools = this.deps.kernelTools.list().map((tool) => ({
      serverId: KERNEL_SERVER_ID,
      name: tool.name,
      tool: {
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as ListedTool['inputSchema'],
      },
      security: {
        risk_level: tool.risk,
        permissions_required: [],
        side_effects: [],
        sources: { risk_level: 'config' as const },
      },
      kernel: true,
    }));
    return [...fromServers, ...ownTools];
  }

  /** The server's tools that are offered: all but those the user turned off. */
  of(server: SupervisedServer): ListedTool[] {
    const switches = this.deps.switches;
    if (switches.serverOff(server.id)) return [];
    const off = switches.toolsOff(server.id);
    return off.length ? server.tools.filter((tool) => !off.includes(tool.name)) : server.tools;
  }
}
