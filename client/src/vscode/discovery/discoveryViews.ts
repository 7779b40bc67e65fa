/**
 * What the Tool Discovery panel shows, made from the kernel's discovery objects: a search answer with
 * each tool's effective security, token cost and place in the session cache, the session cache against
 * its token budget, and the category tree for the filter. Pure (no `vscode`): tested in node.
 */
import type { SecurityView } from '@shared/toolPanelMessages';
import type {
  CategoryView,
  DiscoveredToolView,
  DiscoveryResultView,
  SessionToolView,
  SessionView,
} from '@shared/discoveryMessages';
import {
  CATEGORY_TREE,
  discoverable,
  type DiscoveredTool,
  type DiscoverResult,
  KERNEL_SERVER_ID,
  type KernelToolEntry,
  type SessionToolCache,
  type ToolIndexEntry,
} from '../../kernel';
import { toolView } from '../runTool/toolViews';

export interface DiscoveryViewDeps {
  /** Every tool the kernel lists, with effective security and its sources. */
  tools: readonly KernelToolEntry[];
  cache: SessionToolCache;
  entry(toolId: string): ToolIndexEntry | undefined;
  streaming(serverId: string): boolean;
}

/** A tool found in the index whose server is not connected: the index keeps its effective security, without sources. */
function fromIndex(tool: DiscoveredTool): SecurityView {
  const s = tool.security;
  return {
    risk: s?.risk_level ?? 'moderate',
    riskSource: 'the index (server not connected)',
    sideEffects: s?.side_effects ?? [],
    permissions: s?.permissions_required ?? [],
    ...(s?.reversible !== undefined ? { reversible: s.reversible } : {}),
  };
}

export function discoveryResultView(
  result: DiscoverResult,
  deps: DiscoveryViewDeps,
): DiscoveryResultView {
  const byKey = new Map(deps.tools.map((t) => [`${t.serverId}\u0000${t.name}`, t]));
  const tools = result.tools.map((tool): DiscoveredToolView => {
    const listed = byKey.get(`${tool.server_id}\u0000${tool.name}`);
    const entry = deps.entry(tool.tool_id);
    const view = listed
      ? toolView(listed, deps.streaming(tool.server_id))
      : {
          serverId: tool.server_id,
          toolName: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          security: fromIndex(tool),
          kernel: tool.server_id === 'mgp',
          streaming: false,
        };
    return {
      toolId: tool.tool_id,
      tool: view,
      relevance: tool.relevance_score,
      categories: tool.categories,
      tokens: entry ? deps.cache.tokensOf(entry) : 0,
      pinned: deps.cache.isPinned(tool.tool_id),
      cached: !deps.cache.isPinned(tool.tool_id) && deps.cache.has(tool.tool_id),
      connected: entry ? entry.status === 'connected' : Boolean(listed),
    };
  });
  return {
    tools,
    totalAvailable: result.total_available,
    strategy: result.search_strategy,
    ...(result.fallback_strategy ? { fallbackStrategy: result.fallback_strategy } : {}),
    queryTimeMs: result.query_time_ms,
    ...(result.truncated
      ? { truncated: { returned: result.truncated.returned, matched: result.truncated.matched } }
      : {}),
  };
}

/**
 * How many more results to ask for so that, once the kernel's own tools are left out, a person still
 * gets as many as they asked for: the kernel tools discovery may offer (`mgp.tools.session*`, MGP
 * §16.8) are for agents managing their context, not for a person looking for a tool.
 */
export function kernelToolSlack(entries: readonly ToolIndexEntry[]): number {
  return entries.filter((entry) => entry.kernel && discoverable(entry)).length;
}

/** A discovery answer for a person: without the kernel's tools, at most `max` of them. */
export function withoutKernelTools(result: DiscoverResult, max: number): DiscoverResult {
  const tools = result.tools.filter((tool) => tool.server_id !== KERNEL_SERVER_ID);
  const dropped = result.tools.length - tools.length;
  return {
    ...result,
    tools: tools.slice(0, max),
    total_available: Math.max(tools.length, result.total_available - dropped),
  };
}

function sessionTool(cache: SessionToolCache, entry: ToolIndexEntry): SessionToolView {
  return {
    toolId: entry.tool_id,
    serverId: entry.server_id,
    toolName: entry.name,
    tokens: cache.tokensOf(entry),
  };
}

export function sessionView(cache: SessionToolCache): SessionView {
  return {
    pinned: cache.pinnedEntries().map((e) => sessionTool(cache, e)),
    cached: cache
      .cachedEntries()
      .reverse()
      .map((e) => sessionTool(cache, e)),
    pinnedTokens: cache.pinnedTokens,
    cachedTokens: cache.cachedTokens,
    maxTokens: cache.budget.max_tokens,
    pinnedReserve: cache.budget.pinned_reserve,
    discoveryReserve: cache.budget.discovery_reserve,
    cacheLimit: cache.cacheLimit,
  };
}

/** The categories a person filters by: all but `kernel`, whose tools a person is not shown. */
export function categoryViews(): CategoryView[] {
  return Object.entries(CATEGORY_TREE)
    .filter(([name]) => name !== 'kernel')
    .map(([name, c]) => ({
      name,
      ...(c.parent ? { parent: c.parent } : {}),
      description: c.description,
    }));
}
