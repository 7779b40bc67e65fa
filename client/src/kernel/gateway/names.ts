/**
 * The names the gateway gives the tools and prompts of the servers it serves. A name depends only on
 * the item's own server and name, never on which other servers happen to be up, so a client sees the
 * same names across restarts:
 * - a gateway for one configured server lists its items under their own names (a transparent proxy);
 * - a gateway for several lists every server's items under a qualified name: `server.tool` (the
 *   tool id, domain/toolId.ts, or OpenFang's `mcp_{server}_{tool}`) in the spec's style, or
 *   `server__tool` in the safe style;
 * - an own name that is a kernel tool's takes its qualified name.
 *
 * Two styles, one table: `spec` names are MCP's (letters, digits, `_`, `-`, `.`) and the MGP kernel
 * tools' as the spec writes them (`mgp.tools.discover`); `safe` names keep to `[A-Za-z0-9_-]`, at
 * most 64 characters, which the model APIs behind most clients demand (safeNames.ts). A call may use
 * either style's name, the kernel name, or an own name while one connected server offers it.
 * Two items that still end up with the same name (a server listing one name twice, OpenFang's folded
 * names) keep none hidden silently: the later one is left out, with a warning.
 */
import { safeKernelName, safeName, safeQualifiedName } from './safeNames';

export type NameStyle = 'spec' | 'safe';

export interface NamedItem {
  serverId: string;
  name: string;
  /** The item's kernel name: its qualified name in the spec's style. */
  kernelName: string;
}

/** Told when an item is left out for a name another item holds. */
export type NameWarning<T> = (item: T, message: string) => void;

export interface ListedItem<T> {
  item: T;
  name: string;
}

export interface NameTableOptions<T> {
  /** Items always listed under their own names, first (the kernel's own tools). */
  fixed?: readonly T[];
  /** Whether server items are listed under qualified names (the gateway serves several servers). */
  qualify: boolean;
  warn?: NameWarning<T>;
}

export class NameTable<T extends NamedItem> {
  private readonly listed: Record<NameStyle, ListedItem<T>[]> = { spec: [], safe: [] };
  private readonly byName = new Map<string, T>();
  /** Own names offered by more than one server: the kernel names that answer for them. */
  private readonly shared = new Map<string, string[]>();
  private readonly byOwnName = new Map<string, T>();

  constructor(items: readonly T[], options: NameTableOptions<T>) {
    const warn = options.warn ?? (() => {});
    const fixed = options.fixed ?? [];
    const fixedNames = new Set(fixed.flatMap((item) => [item.name, safeKernelName(item.name)]));
    for (const item of fixed) this.add(item, item.name, safeKernelName(item.name), warn);
    for (const item of items) {
      const own =
        !options.qualify && !fixedNames.has(item.name) && !fixedNames.has(safeName(item.name));
      const spec = own ? item.name : item.kernelName;
      const safe = own ? safeName(item.name) : safeQualifiedName(item.serverId, item.name);
      this.add(item, spec, safe, warn);
    }
    this.indexOwnNames(items);
  }

  private add(item: T, spec: string, safe: string, warn: NameWarning<T>): void {
    const holder = [spec, safe, item.kernelName]
      .map((name) => this.byName.get(name))
      .find((other) => other !== undefined && other !== item);
    if (holder) {
      warn(
        item,
        `"${item.name}" of server "${item.serverId}" would be listed as "${spec}", which "${holder.name}" of "${holder.serverId}" holds: it is not offered`,
      );
      return;
    }
    for (const name of [spec, safe, item.kernelName]) this.byName.set(name, item);
    this.listed.spec.push({ item, name: spec });
    this.listed.safe.push({ item, name: safe });
  }

  private indexOwnNames(items: readonly T[]): void {
    const holders = new Map<string, T[]>();
    for (const item of items) {
      if (this.byName.get(item.kernelName) !== item) continue;
      holders.set(item.name, [...(holders.get(item.name) ?? []), item]);
    }
    for (const [name, group] of holders) {
      if (group.length === 1) this.byOwnName.set(name, group[0]);
      else
        this.shared.set(
          name,
          group.map((item) => item.kernelName),
        );
    }
  }

  /** Every listed item with the name a client of that style sees, in listing order. */
  entries(style: NameStyle = 'spec'): readonly ListedItem<T>[] {
    return this.listed[style];
  }

  /** The item a client means by `name`: a listed or kernel name, else an own name one server offers. */
  resolve(name: string): T | undefined {
    return this.byName.get(name) ?? this.byOwnName.get(name);
  }

  /** For an own name several servers offer: the kernel names to choose from. */
  alternatives(name: string): string[] | undefined {
    return this.shared.get(name);
  }
}
