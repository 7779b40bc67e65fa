/**
 * Handlers of the discovery kernel tools (MGP §16.5–§16.7) as plain functions over a tool index and
 * a session cache: `mgp.tools.discover`, `mgp.tools.request`, `mgp.tools.session`,
 * `mgp.tools.session.evict`. They do no I/O; the kernel wires them to `tools/call`.
 */
import { KernelError } from '../domain/errors';
import { keywordSearch, search, type SearchOptions } from './search';
import type { SessionSnapshot, SessionToolCache } from './sessionCache';
import { ToolCreator, type ToolCreationOptions } from './toolCreation';
import type { ToolIndex } from './toolIndex';
import type {
  DiscoveredTool,
  DiscoverParams,
  DiscoverResult,
  RiskLevel,
  ToolIndexEntry,
  ToolSecurity,
} from './types';

export interface DiscoveryContext {
  index: ToolIndex;
  cache: SessionToolCache;
  search?: SearchOptions;
  /** True when calling this tool needs an approval the caller has not given yet (→ `pending_approval`). */
  needsApproval?: (tool: ToolIndexEntry) => boolean;
  /** Off unless `{ enabled: true }` (MGP §16.6): without it `creating` is never returned. */
  toolCreation?: ToolCreationOptions;
  /** Least relevance (0..1) for a tool to satisfy a requested capability. Default 0.25. */
  minRelevance?: number;
  /** Milliseconds, for `query_time_ms`. */
  clock?: () => number;
}

export interface RequestParams {
  reason: 'capability_gap' | 'performance' | 'preference';
  context: string;
  requirements: {
    capabilities?: string[];
    input_types?: string[];
    output_types?: string[];
    preferred_risk_level?: RiskLevel;
  };
  task_trace_id?: string;
}

export interface LoadedTool {
  tool_id: string;
  name: string;
  server_id: string;
  description: string;
  inputSchema: Record<string, unknown>;
  security?: ToolSecurity;
}

export interface RequestResult {
  status: 'fulfilled' | 'partial' | 'unavailable' | 'pending_approval' | 'creating';
  tools_loaded: LoadedTool[];
  /** Requested capabilities no tool satisfies. */
  tools_unavailable: string[];
  /** Tools that match but wait for approval (not loaded). */
  tools_pending_approval?: LoadedTool[];
  session_tools_count: number;
  context_tokens_added: number;
  /** Cached tools evicted to make room. */
  evicted?: string[];
  creation_id?: string;
}

export interface EvictParams {
  tools: string[];
  reason?: string;
}

export interface EvictResult {
  evicted: string[];
  not_evicted: Array<{ tool: string; reason: 'pinned' | 'not_cached' | 'ambiguous' }>;
  total_tokens: number;
  max_tokens: number;
}

const STRATEGIES = new Set(['keyword', 'semantic', 'category']);
const RISKS = new Set(['safe', 'moderate', 'dangerous']);
const REASONS = new Set(['capability_gap', 'performance', 'preference']);

function invalid(message: string): never {
  throw new KernelError('InvalidArguments', message, -32602);
}

const isStringArray = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string');

function checkDiscover(params: DiscoverParams): void {
  if (!params || typeof params.query !== 'string') invalid('query: a string is required');
  if (params.query.length > REQUEST_BOUNDS.queryChars)
    invalid(`query: at most ${REQUEST_BOUNDS.queryChars.toLocaleString('en-US')} characters`);
  if (params.strategy !== undefined && !STRATEGIES.has(params.strategy))
    invalid('strategy: one of keyword, semantic, category');
  if (
    params.max_results !== undefined &&
    (typeof params.max_results !== 'number' || !(params.max_results >= 1))
  )
    invalid('max_results: a number ≥ 1');
  const f = params.filter;
  if (f === undefined) return;
  if (typeof f !== 'object' || f === null) invalid('filter: an object');
  if (f.categories !== undefined && !isStringArray(f.categories))
    invalid('filter.categories: an array of strings');
  if (f.risk_level_max !== undefined && !RISKS.has(f.risk_level_max))
    invalid('filter.risk_level_max: one of safe, moderate, dangerous');
  if (f.status !== undefined && f.status !== 'connected' && f.status !== 'all')
    invalid('filter.status: connected or all');
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

function loaded(entry: ToolIndexEntry): LoadedTool {
  return {
    tool_id: entry.tool_id,
    name: entry.name,
    server_id: entry.server_id,
    description: entry.description,
    inputSchema: entry.inputSchema,
    ...(entry.security ? { security: entry.security } : {}),
  };
}

/** `mgp.tools.discover`: ranked tools with full schemas, cut to the discovery reserve. */
export async function discover(
  ctx: DiscoveryContext,
  params: DiscoverParams,
): Promise<DiscoverResult> {
  checkDiscover(params);
  const clock = ctx.clock ?? (() => performance.now());
  const started = clock();
  const strategy = params.strategy ?? 'keyword';
  const limit = Math.min(50, Math.floor(params.max_results ?? 5));
  const outcome = await search(ctx.index, params.query, strategy, params.filter, {
    ...ctx.search,
    limit,
  });
  const top = outcome.results.slice(0, limit);
  const { fitted } = ctx.cache.fitDiscovery(top.map((s) => s.entry));
  const tools: DiscoveredTool[] = top.slice(0, fitted.length).map(({ entry, relevance }) => ({
    ...loaded(entry),
    relevance_score: round(relevance),
    categories: entry.categories,
  }));
  return {
    tools,
    total_available: outcome.matched,
    search_strategy: strategy,
    ...(outcome.fallback ? { fallback_strategy: outcome.fallback } : {}),
    query_time_ms: round(clock() - started),
    ...(fitted.length < top.length
      ? {
          truncated: {
            returned: fitted.length,
            matched: top.length,
            reason: 'discovery_reserve' as const,
          },
        }
      : {}),
  };
}

/** What one request may ask for: each capability is a search, and a caller may be a model or a server. */
export const REQUEST_BOUNDS = { items: 32, itemChars: 500, contextChars: 8000, queryChars: 4000 };

function checkBoundedList(name: string, list: string[]): void {
  if (list.length > REQUEST_BOUNDS.items)
    invalid(`${name}: at most ${REQUEST_BOUNDS.items} entries (${list.length} given)`);
  if (list.some((item) => item.length > REQUEST_BOUNDS.itemChars))
    invalid(`${name}: each entry at most ${REQUEST_BOUNDS.itemChars} characters`);
}

function checkRequest(params: RequestParams): void {
  if (!params || !REASONS.has(params.reason))
    invalid('reason: one of capability_gap, performance, preference');
  if (typeof params.context !== 'string') invalid('context: a string is required');
  if (params.context.length > REQUEST_BOUNDS.contextChars)
    invalid(`context: at most ${REQUEST_BOUNDS.contextChars.toLocaleString('en-US')} characters`);
  const r = params.requirements;
  if (typeof r !== 'object' || r === null) invalid('requirements: an object is required');
  for (const key of ['capabilities', 'input_types', 'output_types'] as const) {
    const list = r[key];
    if (list === undefined) continue;
    if (!isStringArray(list)) invalid(`requirements.${key}: an array of strings`);
    checkBoundedList(`requirements.${key}`, list);
  }
  if (r.preferred_risk_level !== undefined && !RISKS.has(r.preferred_risk_level))
    invalid('requirements.preferred_risk_level: one of safe, moderate, dangerous');
}

/** The best tool for each capability, at or under the preferred risk, if relevant enough. */
function matchCapabilities(
  ctx: DiscoveryContext,
  params: RequestParams,
): { matched: ToolIndexEntry[]; missing: string[] } {
  const r = params.requirements;
  const capabilities = r.capabilities?.length ? r.capabilities : [params.context];
  const types = [...(r.input_types ?? []), ...(r.output_types ?? [])].join(' ');
  const filter = r.preferred_risk_level ? { risk_level_max: r.preferred_risk_level } : {};
  const matched = new Map<string, ToolIndexEntry>();
  const missing: string[] = [];
  for (const capability of capabilities) {
    const best = keywordSearch(ctx.index, `${capability} ${types}`, filter, {
      ...ctx.search,
      limit: 1,
    }).results[0];
    if (best && best.relevance >= (ctx.minRelevance ?? 0.25))
      matched.set(best.entry.tool_id, best.entry);
    else missing.push(capability);
  }
  return { matched: [...matched.values()], missing };
}

/**
 * `mgp.tools.request`: finds a tool per requested capability and loads it into the session.
 * `pending_approval` when a match needs an approval not yet given (those are not loaded); `creating`
 * only when nothing matches and tool creation is enabled with every guardrail in place.
 */
export function request(
  ctx: DiscoveryContext,
  params: RequestParams,
  creator?: ToolCreator,
): RequestResult {
  checkRequest(params);
  const { matched, missing } = matchCapabilities(ctx, params);
  const pending = matched.filter((e) => ctx.needsApproval?.(e) === true);
  const loadable = matched.filter((e) => !pending.includes(e));
  let added = 0;
  const evicted: string[] = [];
  for (const entry of loadable) {
    if (!ctx.cache.has(entry.tool_id)) added += ctx.cache.tokensOf(entry);
    evicted.push(...ctx.cache.use(entry));
  }
  const snapshot = ctx.cache.snapshot();
  const base = {
    tools_loaded: loadable.map(loaded),
    tools_unavailable: missing,
    session_tools_count: snapshot.pinned.length + snapshot.cached.length,
    context_tokens_added: added,
    ...(evicted.length ? { evicted } : {}),
  };
  if (pending.length)
    return { status: 'pending_approval', ...base, tools_pending_approval: pending.map(loaded) };
  if (matched.length) return { status: missing.length ? 'partial' : 'fulfilled', ...base };
  if (creator && !creator.blocker) {
    const r = params.requirements;
    const { creation_id } = creator.start({
      context: params.context,
      capabilities: r.capabilities ?? [],
      input_types: r.input_types ?? [],
      output_types: r.output_types ?? [],
      preferred_risk_level: r.preferred_risk_level,
      task_trace_id: params.task_trace_id,
    });
    return { status: 'creating', ...base, creation_id };
  }
  return { status: 'unavailable', ...base };
}

/** `mgp.tools.session`. */
export function session(ctx: DiscoveryContext): SessionSnapshot {
  return ctx.cache.snapshot();
}

/** `mgp.tools.session.evict`: pinned tools are never evicted. */
export function evict(ctx: DiscoveryContext, params: EvictParams): EvictResult {
  if (!params || !isStringArray(params.tools)) invalid('tools: an array of strings is required');
  if (params.tools.length > 1000) invalid('tools: at most 1,000 entries');
  const { evicted, refused } = ctx.cache.evict(params.tools);
  const { total_tokens, max_tokens } = ctx.cache.snapshot();
  return { evicted, not_evicted: refused, total_tokens, max_tokens };
}

export interface DiscoveryTools {
  discover(params: DiscoverParams): Promise<DiscoverResult>;
  request(params: RequestParams): RequestResult;
  session(): SessionSnapshot;
  evict(params: EvictParams): EvictResult;
  /** Dispatches a `tools/call` of one of the four tools by name. */
  call(name: string, args: unknown): Promise<unknown>;
  /** Ends the session: clears the cache and unregisters created tools. */
  endSession(): void;
}

/** The four handlers bound to one context (one session). */
export function createDiscoveryTools(ctx: DiscoveryContext): DiscoveryTools {
  const creator =
    ctx.toolCreation?.enabled === true ? new ToolCreator(ctx.toolCreation) : undefined;
  const tools: DiscoveryTools = {
    discover: (params) => discover(ctx, params),
    request: (params) => request(ctx, params, creator),
    session: () => session(ctx),
    evict: (params) => evict(ctx, params),
    async call(name, args) {
      const params = (args ?? {}) as never;
      if (name === 'mgp.tools.discover') return tools.discover(params);
      if (name === 'mgp.tools.request') return tools.request(params);
      if (name === 'mgp.tools.session') return tools.session();
      if (name === 'mgp.tools.session.evict') return tools.evict(params);
      throw new KernelError('UnknownTool', `no discovery kernel tool named ${name}`, -32602);
    },
    endSession() {
      ctx.cache.clear();
      creator?.endSession();
    },
  };
  return tools;
}
