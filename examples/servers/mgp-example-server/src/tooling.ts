/**
 * What a tool is, for the registry and for the files that define tools: its MCP definition, its MGP
 * security metadata (MGP §4.3, §7.3), and the context a call runs in.
 */
import type { ProgressToken, RequestId, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { TextBlock } from './inflight';
import { textBlock } from './util';

export type RiskLevel = 'safe' | 'moderate' | 'dangerous';
export type SideEffect = 'filesystem' | 'network' | 'process' | 'database' | 'notification';
export type ValidatorName = 'sandbox' | 'readonly' | 'network_restricted' | 'code_safety' | 'none';

/** MGP §7.3. */
export interface CodeSafetySpec {
  level: 'unrestricted' | 'standard' | 'strict' | 'readonly';
  language: string;
  max_code_size_bytes: number;
  blocked_imports: string[];
  blocked_patterns: string[];
  allowed_imports: string[];
}

/** MGP §4.3. */
export interface ToolSecurity {
  risk_level: RiskLevel;
  permissions_required: string[];
  side_effects: SideEffect[];
  validator?: ValidatorName;
  reversible?: boolean;
  confirmation_required?: boolean;
  code_safety?: CodeSafetySpec;
}

/** A tools/call result; `_mgp` carries MGP's result metadata (MGP §12.5). A type, not an interface, so it is a JSON-RPC Result. */
export type ToolResult = {
  content: TextBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _mgp?: Record<string, unknown>;
};

export interface ToolContext {
  /** The JSON-RPC id of this tools/call: the `request_id` of its stream notifications and callbacks. */
  readonly requestId: RequestId;
  /** Aborted by `mgp/stream/cancel` or by MCP's `notifications/cancelled`. */
  readonly signal: AbortSignal;
  /** The call asked for `_mgp.stream` and the client negotiated `streaming` (MGP §12.3). */
  readonly streaming: boolean;
  /** MCP progress token of the call, if the client sent one. */
  readonly progressToken?: ProgressToken;
  notify(method: string, params: Record<string, unknown>): Promise<void>;
  /** Tells `mgp/stream/cancel` how to read this call's output so far. */
  setPartial(partial: () => TextBlock[]): void;
}

export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  output?: z.ZodObject;
  annotations: ToolAnnotations;
  security: ToolSecurity;
  /** Listed to plain MCP clients (the tools this server had before it spoke MGP). */
  plainMcp?: boolean;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** Keeps a tool's argument type while defining it, and erases it for the registry's list. */
export function defineTool<S extends z.ZodObject>(def: ToolDef<S>): ToolDef {
  return def as unknown as ToolDef;
}

/** Security metadata with the lists defaulted to empty. */
export function security(
  risk_level: RiskLevel,
  rest: Partial<Omit<ToolSecurity, 'risk_level'>> = {},
): ToolSecurity {
  return { risk_level, permissions_required: [], side_effects: [], ...rest };
}

export function textResult(text: string, structuredContent?: Record<string, unknown>): ToolResult {
  return { content: [textBlock(text)], ...(structuredContent && { structuredContent }) };
}

/** A tool-level failure: `isError` in the result, not a protocol error (MCP's convention). */
export function toolError(text: string, structuredContent?: Record<string, unknown>): ToolResult {
  return { ...textResult(text, structuredContent), isError: true };
}
