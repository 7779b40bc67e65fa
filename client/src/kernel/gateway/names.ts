/**
 * The names the gateway gives the tools and prompts of the servers it serves. A client sees each under
 * its own name, as if it were connected to the server directly, unless that name is not the item's
 * alone: another connected server offers it, it is the kernel's (`mgp.tools.discover`…), or it is
 * another item's kernel name. Then the item is listed under its kernel name (`server.tool` as a tool
 * id writes it, domain/toolId.ts, or OpenFang's `mcp_{server}_{tool}`). A call may always use the
 * kernel name; an own name resolves only while it is the item's alone.
 *
 * Kernel names are unique: two items whose kernel names are the same string (OpenFang's names fold
 * case and punctuation) or an item whose kernel name is a kernel tool's keep none of them hidden
 * silently: the later one is renamed to its tool id, or refused when that is taken too, with a warning.
 */
import { toolIdOf } from '../domain/toolId';

export interface NamedItem {
  serverId: string;
  name: string;
  /** The item's kernel name. */
  kernelName: string;
}

/** Told when an item is listed under another name than its kernel name, or left out. */
export type NameWarning<T> = (item: T, message: string) => void;

export class NameTable<T extends NamedItem> {
  private readonly byListedName = new Map<string, T>();
  private readonly byKernelName = new Map<string, T>();
  private readonly listed: { item: T; name: string }[] = [];
  /** Own names offered by more than one server: the kernel names that answer for them. */
  private readonly shared = new Map<string, string[]>();

  /** `fixed`: items always listed under their own names, first (the kernel's own tools). */
  constructor(items: readonly T[], fixed: readonly T[] = [], warn: NameWarning<T> = () => {}) {
    for (const item of fixed) this.list(item, item.name);
    const kernelNames = new Map<T, string>();
    for (const item of items) {
      const name = this.uniqueKernelName(item, warn);
      if (name === undefined) continue;
      kernelNames.set(item, name);
      this.byKernelName.set(name, item);
    }
    const holders = new Map<string, T[]>();
    for (const item of kernelNames.keys()) {
      const same = holders.get(item.name);
      if (same) same.push(item);
      else holders.set(item.name, [item]);
    }
    for (const [name, group] of holders)
      if (group.length > 1 || this.byListedName.has(name))
        this.shared.set(
          name,
          group.map((item) => kernelNames.get(item) ?? item.kernelName),
        );
    for (const [item, kernelName] of kernelNames) {
      const own = !this.shared.has(item.name) && !this.byKernelName.has(item.name);
      this.list(item, own ? item.name : kernelName);
    }
  }

  /** The item's kernel name, or its tool id when that name is taken; undefined when both are. */
  private uniqueKernelName(item: T, warn: NameWarning<T>): string | undefined {
    const taken = (name: string) => this.byListedName.has(name) || this.byKernelName.has(name);
    if (!taken(item.kernelName)) return item.kernelName;
    const holder = this.byListedName.get(item.kernelName) ?? this.byKernelName.get(item.kernelName);
    const clash = `"${item.name}" of server "${item.serverId}" has the kernel name "${item.kernelName}", which "${holder?.name}" of "${holder?.serverId}" holds`;
    const id = toolIdOf(item.serverId, item.name);
    if (!taken(id)) {
      warn(item, `${clash}: it is listed as "${id}"`);
      return id;
    }
    warn(item, `${clash}, and its id "${id}" is taken too: it is not offered`);
    return undefined;
  }

  private list(item: T, name: string): void {
    this.byListedName.set(name, item);
    this.listed.push({ item, name });
  }

  /** Every listed item with the name a client sees, in listing order. */
  entries(): readonly { item: T; name: string }[] {
    return this.listed;
  }

  /** The item a client means by `name`: its listed name, else its kernel name. */
  resolve(name: string): T | undefined {
    return this.byListedName.get(name) ?? this.byKernelName.get(name);
  }

  /** For an own name several servers offer: the kernel names to choose from. */
  alternatives(name: string): string[] | undefined {
    return this.shared.get(name);
  }
}
