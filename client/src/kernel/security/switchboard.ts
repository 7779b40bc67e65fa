/**
 * The user turns servers and tools on and off: the switch is kept (switches.ts), audited, and takes
 * effect at once. A server turned off stops and is held back from starting; turned on again it starts
 * when the start gate lets it. A tool switched either way is announced as a change of its server's
 * tool list, so discovery, the gateway's clients and the views list it again.
 */
import type { AuditSink } from '../audit/auditSink';
import type { ServerManager } from '../lifecycle/serverManager';
import type { Switches } from './switches';

/** Why a server turned off is held back (shown with the server). */
export const TURNED_OFF_REASON = 'turned off by you';

export interface SwitchboardDeps {
  switches: Switches;
  manager: ServerManager;
  audit: AuditSink;
  /** The operator's agent id: the switches are theirs. */
  operator: string;
}

export class Switchboard {
  constructor(private readonly deps: SwitchboardDeps) {}

  async setServer(serverId: string, enabled: boolean): Promise<void> {
    const { switches, manager } = this.deps;
    if (switches.serverOff(serverId) === !enabled) return;
    await switches.setServer(serverId, enabled);
    await this.record(serverId, undefined, enabled);
    const server = manager.find(serverId);
    if (!server) return;
    if (!enabled) {
      await manager.stop(serverId);
      server.holdBack(TURNED_OFF_REASON);
    } else if (manager.gate(serverId) === true) await manager.start(serverId);
    else manager.bus.emit('servers', { server_ids: [serverId] });
  }

  async setTool(serverId: string, toolName: string, enabled: boolean): Promise<void> {
    const { switches, manager } = this.deps;
    if (switches.toolOff(serverId, toolName) === !enabled) return;
    await switches.setTool(serverId, toolName, enabled);
    await this.record(serverId, toolName, enabled);
    manager.bus.emit('listChanged', { server_id: serverId, kind: 'tools' });
  }

  private record(serverId: string, toolName: string | undefined, enabled: boolean): Promise<void> {
    return this.deps.audit.record({
      event_type: 'dev.mgp-kernel.switched',
      actor: { type: 'operator', id: this.deps.operator },
      target:
        toolName === undefined
          ? { server_id: serverId }
          : { server_id: serverId, tool_name: toolName },
      result: enabled ? 'ENABLED' : 'DISABLED',
      details: { what: toolName === undefined ? 'server' : 'tool' },
    });
  }
}
