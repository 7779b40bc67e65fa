/**
 * What the user turned off: whole servers and single tools. A server turned off does not start; a
 * tool turned off is offered to nobody (discovery, agents, the gateway's tools/list) and a call of it
 * is refused with TOOL_DISABLED (MGP §14.3 4002).
 *
 * Kept in the workspace's state folder beside the approvals, not in settings: `mgp` run in the same
 * folder reads the same file, and the folder lies outside the workspace, so a repository cannot turn
 * a tool back on.
 */
import { join } from 'node:path';
import { JsonStore } from '../store/jsonStore';

interface SwitchesDocument {
  version: 1;
  /** Servers turned off. */
  servers: string[];
  /** Tools turned off, by server. */
  tools: Record<string, string[]>;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isDocument(value: unknown): value is SwitchesDocument {
  const doc = value as SwitchesDocument;
  return (
    typeof doc === 'object' &&
    doc !== null &&
    doc.version === 1 &&
    isStringList(doc.servers) &&
    typeof doc.tools === 'object' &&
    doc.tools !== null &&
    Object.values(doc.tools).every(isStringList)
  );
}

/** Why a call cannot go out: its server or the tool itself is turned off. */
export type TurnedOff = 'server' | 'tool';

export interface SwitchChange {
  serverId: string;
  /** Absent when the whole server was switched. */
  toolName?: string;
  enabled: boolean;
}

export class Switches {
  private readonly store: JsonStore<SwitchesDocument>;
  private offServers = new Set<string>();
  private offTools = new Map<string, Set<string>>();
  private readonly listeners = new Set<(change: SwitchChange) => void>();

  constructor(stateDir: string, onCorrupt?: (message: string) => void) {
    this.store = new JsonStore<SwitchesDocument>({
      path: join(stateDir, 'switches.json'),
      defaultValue: () => ({ version: 1, servers: [], tools: {} }),
      validate: isDocument,
      onCorrupt: (report) =>
        onCorrupt?.(
          `switches file was not readable (${report.reason}); kept aside as ${report.movedTo}`,
        ),
    });
  }

  get path(): string {
    return this.store.path;
  }

  async load(): Promise<void> {
    await this.store.load();
    this.index();
  }

  serverOff(serverId: string): boolean {
    return this.offServers.has(serverId);
  }

  /** The tool itself is turned off (its server may still run). */
  toolOff(serverId: string, toolName: string): boolean {
    return this.offTools.get(serverId)?.has(toolName) ?? false;
  }

  /** Whether a call of the tool is refused, and why; undefined when it may go on. */
  turnedOff(serverId: string, toolName: string): TurnedOff | undefined {
    if (this.offServers.has(serverId)) return 'server';
    return this.toolOff(serverId, toolName) ? 'tool' : undefined;
  }

  /** The tools of the server that are turned off. */
  toolsOff(serverId: string): string[] {
    return [...(this.offTools.get(serverId) ?? [])];
  }

  async setServer(serverId: string, enabled: boolean): Promise<void> {
    await this.store.update((doc) => {
      const rest = doc.servers.filter((id) => id !== serverId);
      doc.servers = enabled ? rest : [...rest, serverId];
    });
    this.index();
    this.tell({ serverId, enabled });
  }

  async setTool(serverId: string, toolName: string, enabled: boolean): Promise<void> {
    await this.store.update((doc) => {
      const rest = (doc.tools[serverId] ?? []).filter((name) => name !== toolName);
      const next = enabled ? rest : [...rest, toolName];
      if (next.length) doc.tools[serverId] = next;
      else delete doc.tools[serverId];
    });
    this.index();
    this.tell({ serverId, toolName, enabled });
  }

  onChange(listener: (change: SwitchChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(change: SwitchChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /** Sets for the per-call lookups: the pipeline asks on every call. */
  private index(): void {
    const doc = this.store.value;
    this.offServers = new Set(doc.servers);
    this.offTools = new Map(Object.entries(doc.tools).map(([id, names]) => [id, new Set(names)]));
  }
}
