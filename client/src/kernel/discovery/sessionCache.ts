/**
 * The per-session tool cache and its context budget (MGP §16.7, §16.8).
 *
 * - Pinned tools are always in context and never evicted.
 * - Cached tools (used, or loaded by `mgp.tools.request`) stay until evicted: least recently used
 *   first, whenever the cache is over its limit.
 * - Discovery results live for one request; an answer that would exceed the discovery reserve is cut
 *   to fewer tools.
 *
 * Budget arithmetic: the cache may use `cache_limit`, but never more than what `max_tokens` leaves
 * after the discovery reserve and the pinned tools (which take at least `pinned_reserve`: pinned tools
 * over their reserve are still kept, and shrink the cache). The meta-tools (`mgp.tools.discover`,
 * `mgp.tools.request`) are outside the budget, as kernel tools are unless pinned (§16.8).
 */
import { cl100kTokens, toolTokens, type TokenCounter } from './tokens';
import { DEFAULT_TOOL_CONTEXT_BUDGET, type ToolContextBudget, type ToolIndexEntry } from './types';

interface Held {
  entry: ToolIndexEntry;
  tokens: number;
}

export interface SessionSnapshot {
  pinned: string[];
  cached: string[];
  total_tokens: number;
  max_tokens: number;
}

export interface SessionCacheOptions {
  budget?: Partial<ToolContextBudget>;
  countTokens?: TokenCounter;
}

export class SessionToolCache {
  readonly budget: ToolContextBudget;
  private readonly counter: TokenCounter;
  private readonly pinned = new Map<string, Held>();
  private readonly cached = new Map<string, Held>();

  constructor(options: SessionCacheOptions = {}) {
    this.budget = { ...DEFAULT_TOOL_CONTEXT_BUDGET, ...options.budget };
    this.counter = options.countTokens ?? cl100kTokens;
  }

  tokensOf(entry: ToolIndexEntry): number {
    return toolTokens(entry, this.counter);
  }

  get pinnedTokens(): number {
    return sum(this.pinned);
  }

  get cachedTokens(): number {
    return sum(this.cached);
  }

  /** What the cache may hold now. */
  get cacheLimit(): number {
    const { max_tokens, pinned_reserve, discovery_reserve, cache_limit } = this.budget;
    return Math.max(
      0,
      Math.min(
        cache_limit,
        max_tokens - discovery_reserve - Math.max(pinned_reserve, this.pinnedTokens),
      ),
    );
  }

  /** Pins a tool (taking it out of the cache if it was there). */
  pin(entry: ToolIndexEntry): void {
    this.cached.delete(entry.tool_id);
    this.pinned.set(entry.tool_id, { entry, tokens: this.tokensOf(entry) });
    this.enforce();
  }

  unpin(toolId: string): boolean {
    return this.pinned.delete(toolId);
  }

  isPinned(toolId: string): boolean {
    return this.pinned.has(toolId);
  }

  has(toolId: string): boolean {
    return this.pinned.has(toolId) || this.cached.has(toolId);
  }

  /**
   * Records a use of a tool: it joins the cache, or moves to its most recently used end. Returns the
   * tool ids evicted to make room (possibly the tool itself, when it alone is over the limit).
   */
  use(entry: ToolIndexEntry): string[] {
    if (this.pinned.has(entry.tool_id)) return [];
    this.cached.delete(entry.tool_id);
    this.cached.set(entry.tool_id, { entry, tokens: this.tokensOf(entry) });
    return this.enforce();
  }

  /** Evicts least recently used cached tools until the cache fits its limit. */
  private enforce(): string[] {
    const evicted: string[] = [];
    let total = this.cachedTokens;
    const limit = this.cacheLimit;
    // A Map keeps insertion order, and `use` re-inserts: the first entry is the least recently used.
    for (const [id, held] of this.cached) {
      if (total <= limit) break;
      this.cached.delete(id);
      total -= held.tokens;
      evicted.push(id);
    }
    return evicted;
  }

  /**
   * Evicts tools by tool id, or by name when one cached tool has that name. Pinned tools are refused.
   * An id is read as an id first: a tool named like another tool's id is not mistaken for it.
   */
  evict(names: readonly string[]): {
    evicted: string[];
    refused: Array<{ tool: string; reason: 'pinned' | 'not_cached' | 'ambiguous' }>;
  } {
    const evicted: string[] = [];
    const refused: Array<{ tool: string; reason: 'pinned' | 'not_cached' | 'ambiguous' }> = [];
    for (const name of names) {
      const pinnedByName =
        !this.cached.has(name) && [...this.pinned.values()].some((h) => h.entry.name === name);
      if (this.pinned.has(name) || pinnedByName) {
        refused.push({ tool: name, reason: 'pinned' });
        continue;
      }
      const matches = this.cached.has(name)
        ? [name]
        : [...this.cached.values()]
            .filter((h) => h.entry.name === name)
            .map((h) => h.entry.tool_id);
      if (matches.length !== 1) {
        refused.push({ tool: name, reason: matches.length ? 'ambiguous' : 'not_cached' });
        continue;
      }
      this.cached.delete(matches[0]);
      evicted.push(matches[0]);
    }
    return { evicted, refused };
  }

  /** Drops tools whose entry is gone or changed (after the index changed). */
  refresh(lookup: (toolId: string) => ToolIndexEntry | undefined): void {
    for (const map of [this.pinned, this.cached]) {
      for (const [id, held] of map) {
        const now = lookup(id);
        if (!now) map.delete(id);
        else if (now !== held.entry)
          map.set(id, { ...held, entry: now, tokens: this.tokensOf(now) });
      }
    }
    this.enforce();
  }

  /**
   * The longest prefix of ranked discovery results whose definitions fit the discovery reserve
   * (results keep their rank order; fewer are returned rather than reordered).
   */
  fitDiscovery<T extends ToolIndexEntry>(ranked: readonly T[]): { fitted: T[]; tokens: number } {
    const fitted: T[] = [];
    let tokens = 0;
    for (const entry of ranked) {
      const cost = this.tokensOf(entry);
      if (tokens + cost > this.budget.discovery_reserve) break;
      fitted.push(entry);
      tokens += cost;
    }
    return { fitted, tokens };
  }

  pinnedEntries(): ToolIndexEntry[] {
    return [...this.pinned.values()].map((h) => h.entry);
  }

  /** Cached entries, least recently used first. */
  cachedEntries(): ToolIndexEntry[] {
    return [...this.cached.values()].map((h) => h.entry);
  }

  /** `mgp.tools.session` output. */
  snapshot(): SessionSnapshot {
    return {
      pinned: [...this.pinned.keys()],
      cached: [...this.cached.keys()].reverse(),
      total_tokens: this.pinnedTokens + this.cachedTokens,
      max_tokens: this.budget.max_tokens,
    };
  }

  /** Ends the session: drops the cache (pinned tools stay configured). */
  clear(): void {
    this.cached.clear();
  }
}

function sum(map: ReadonlyMap<string, Held>): number {
  let total = 0;
  for (const held of map.values()) total += held.tokens;
  return total;
}
