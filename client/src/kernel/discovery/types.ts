/**
 * Types of the tool index and the discovery kernel tools (MGP §16).
 */
import type { RiskLevel, ToolSecurity } from '../domain/security';

export type { RiskLevel, ToolSecurity };

/** Whether the server that provides a tool is connected now. */
export type ToolStatus = 'connected' | 'disconnected';

/** MCP tool annotations (hints: never trusted to lower a risk). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

export type JsonSchemaObject = Record<string, unknown>;

/** A tool as a server lists it (`tools/list`), with MGP security metadata when the server sends it. */
export interface ServerTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonSchemaObject;
  annotations?: ToolAnnotations;
  security?: Partial<ToolSecurity> & Record<string, unknown>;
  /**
   * Requests a person might type to find the tool, written by the user's model (exampleRequests.ts):
   * index text read with the description's lead, never shown as the tool's own words.
   */
  exampleRequests?: readonly string[];
}

/** One entry of the tool index (MGP §16.4). */
export interface ToolIndexEntry {
  /** `<server_id>.<name>`; a kernel tool's id is its name (`mgp.tools.discover`). */
  tool_id: string;
  server_id: string;
  name: string;
  description: string;
  /** Derived from the name, description, annotations and security, with their ancestors. */
  categories: string[];
  /** Derived words a person might search by. */
  keywords: string[];
  inputSchema: JsonSchemaObject;
  security?: ToolSecurity;
  annotations?: ToolAnnotations;
  status: ToolStatus;
  /** A Layer 4 kernel tool (`mgp.*`). */
  kernel: boolean;
}

export type SearchStrategy = 'keyword' | 'semantic' | 'category';

export interface DiscoverFilter {
  categories?: string[];
  risk_level_max?: RiskLevel;
  /** `connected` (default) or `all`. */
  status?: 'connected' | 'all';
}

/** `mgp.tools.discover` input (MGP §16.5). */
export interface DiscoverParams {
  query: string;
  strategy?: SearchStrategy;
  max_results?: number;
  filter?: DiscoverFilter;
}

/** One tool in a discovery answer: the full schema, so the model can call it at once. */
export interface DiscoveredTool {
  tool_id: string;
  name: string;
  server_id: string;
  description: string;
  relevance_score: number;
  inputSchema: JsonSchemaObject;
  security?: ToolSecurity;
  categories: string[];
}

/** `mgp.tools.discover` output (MGP §16.5). */
export interface DiscoverResult {
  tools: DiscoveredTool[];
  total_available: number;
  search_strategy: SearchStrategy;
  /** Present when the requested strategy could not run (semantic without embeddings). */
  fallback_strategy?: SearchStrategy;
  query_time_ms: number;
  /** Present when the discovery reserve of the context budget cut the answer short. */
  truncated?: { returned: number; matched: number; reason: 'discovery_reserve' };
}

/** `tool_context_budget` (MGP §16.8). */
export interface ToolContextBudget {
  max_tokens: number;
  pinned_reserve: number;
  discovery_reserve: number;
  cache_limit: number;
}

export const DEFAULT_TOOL_CONTEXT_BUDGET: Readonly<ToolContextBudget> = Object.freeze({
  max_tokens: 8000,
  pinned_reserve: 2000,
  discovery_reserve: 3000,
  cache_limit: 3000,
});
