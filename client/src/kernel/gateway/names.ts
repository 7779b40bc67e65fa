/**
 * The names the gateway gives the tools and prompts of the servers it serves. A client sees each under
 * its own name, as if it were connected to the server directly, unless another connected server offers
 * the same name, or the name is the kernel's (`mgp.tools.discover`…): then every holder of that name is
 * listed under its kernel name (`server.tool`, or OpenFang's `mcp_{server}_{tool}`). A call may always
 * use the kernel name; an own name resolves only while a single server offers it.
 */

export interface NamedItem {
  serverId: string;
  name: string;
  /** The item's kernel name (unique across servers). */
  kernelName: string;
}

export class NameTable<T extends NamedItem> {
  private readonly byListedName = new Map<string, T>();
  private readonly byKernelName = new Map<string, T>();
  private readonly listed: { item: T; name: string }[] = [];
  /** Own names offered by more than one server: the kernel names that answer for them. */
  private readonly shared = new Map<string, string[]>();

  /** `fixed`: items always listed under their own names, first (the kernel's own tools). */
  constructor(items: readonly T[], fixed: readonly T[] = []) {
    for (const item of fixed) this.list(item, item.name);
    const holders = new Map<string, T[]>();
    for (const item of items) {
      const same = holders.get(item.name);
      if (same) same.push(item);
      else holders.set(item.name, [item]);
    }
    for (const [name, group] of holders)
      if (group.length > 1 || this.byListedName.has(name))
        this.shared.set(
          name,
          group.map((item) => item.kernelName),
        );
    for (const item of items) {
      this.byKernelName.set(item.kernelName, item);
      // A kernel name can equal another item's own name (`a` + `b.c` beside `a.b` + `c`): the first
      // holder is listed under it; the other is left out of the listing rather than listed twice.
      this.list(item, this.shared.has(item.name) ? item.kernelName : item.name);
    }
  }

  private list(item: T, name: string): void {
    if (this.byListedName.has(name)) return;
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
