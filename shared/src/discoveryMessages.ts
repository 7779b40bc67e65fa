/**
 * Messages between Tool Discovery (media/src/discovery) and its host (client/src/vscode/discovery):
 * search as you type (MGP §16.5), pin and unpin, the session cache and its token budget
 * (§16.7–16.8), and a "Try it" form per result on the run sub-protocol (toolPanelMessages.ts).
 */
import { isCount, isObject, isText, isToolKey } from './messageGuards';
import { RISK_LEVEL_NAMES, type RiskLevel } from './schemas/vocabulary';
import {
  isRunFromWebview,
  type RunFromWebview,
  type RunToWebview,
  type ToolKey,
  type ToolView,
} from './toolPanelMessages';

export const SEARCH_STRATEGIES = ['keyword', 'category', 'semantic'] as const;
export type SearchStrategyName = (typeof SEARCH_STRATEGIES)[number];

export interface SearchFilterView {
  risk_level_max?: RiskLevel;
  categories?: string[];
  status?: 'connected' | 'all';
}

export interface SearchRequest {
  seq: number;
  query: string;
  strategy: SearchStrategyName;
  maxResults: number;
  filter: SearchFilterView;
}

export interface DiscoveredToolView {
  toolId: string;
  tool: ToolView;
  relevance: number;
  categories: string[];
  /** Tokens the definition takes in a model's context (cl100k). */
  tokens: number;
  pinned: boolean;
  cached: boolean;
  connected: boolean;
}

export interface DiscoveryResultView {
  tools: DiscoveredToolView[];
  totalAvailable: number;
  strategy: string;
  /** Present when the requested strategy could not run (semantic without embeddings, §16.4). */
  fallbackStrategy?: string;
  /**
   * The query asked for something and no tool fits it well: the best answer's relevance is under
   * the calibrated threshold. The tools shown are the closest, not matches.
   */
  noMatch?: boolean;
  queryTimeMs: number;
  /** The discovery reserve cut the answer to fewer tools. */
  truncated?: { returned: number; matched: number };
}

export interface SessionToolView {
  toolId: string;
  serverId: string;
  toolName: string;
  tokens: number;
}

/** The session tool cache against the context budget (MGP §16.7–16.8). */
export interface SessionView {
  pinned: SessionToolView[];
  /** Most recently used first. */
  cached: SessionToolView[];
  pinnedTokens: number;
  cachedTokens: number;
  maxTokens: number;
  pinnedReserve: number;
  discoveryReserve: number;
  /** What the cache may hold now (cache_limit, shrunk by pinned tools over their reserve). */
  cacheLimit: number;
}

export interface CategoryView {
  name: string;
  parent?: string;
  description: string;
}

export type DiscoveryToWebview =
  | { type: 'init'; categories: CategoryView[] }
  | { type: 'results'; seq: number; result: DiscoveryResultView }
  | { type: 'searchError'; seq: number; message: string }
  | { type: 'session'; session: SessionView }
  | RunToWebview;

export type DiscoveryFromWebview =
  | { type: 'ready' }
  | ({ type: 'search' } & SearchRequest)
  | { type: 'pin'; toolId: string }
  | { type: 'unpin'; toolId: string }
  | (ToolKey & { type: 'openRunTool' })
  | { type: 'addServer' }
  | RunFromWebview;

function isSearchFilter(value: unknown): value is SearchFilterView {
  if (!isObject(value)) return false;
  const { risk_level_max: risk, categories, status } = value;
  if (risk !== undefined && !RISK_LEVEL_NAMES.includes(risk as string)) return false;
  if (
    categories !== undefined &&
    !(Array.isArray(categories) && categories.length <= 100 && categories.every(isText))
  )
    return false;
  return status === undefined || status === 'connected' || status === 'all';
}

export function isDiscoveryFromWebview(value: unknown): value is DiscoveryFromWebview {
  if (!isObject(value)) return false;
  switch (value.type) {
    case 'ready':
      return true;
    case 'search':
      return (
        isCount(value.seq) &&
        typeof value.query === 'string' &&
        value.query.length <= 1000 &&
        SEARCH_STRATEGIES.includes(value.strategy as never) &&
        typeof value.maxResults === 'number' &&
        Number.isInteger(value.maxResults) &&
        value.maxResults >= 1 &&
        value.maxResults <= 50 &&
        isSearchFilter(value.filter)
      );
    case 'pin':
    case 'unpin':
      return isText(value.toolId);
    case 'openRunTool':
      return isToolKey(value);
    case 'addServer':
      return true;
    default:
      return isRunFromWebview(value);
  }
}
