/**
 * What every check works with: the sessions the validator opened, the tools as each listed them, the
 * run's options, and helpers to call tools and tell what came back, so each check reads as the steps
 * the section describes.
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CappedResult } from '../connection/toolResults';
import type { ListedTool } from '../connection/toolResults';
import { KernelError } from '../domain/errors';
import type { Probe } from './probe';
import type { SchemaJudge } from './schemas';
import type { CheckResult, CheckStatus, CheckTier, Exchange, MgpExtensionRow } from './types';

export interface ValidateRunOptions {
  /** Call tools the server marks dangerous (MGP §4.4) or destructive (MCP annotations). */
  allowDangerous: boolean;
  /** How long one check may take before it FAILs as hanging. */
  checkTimeoutMs: number;
}

export interface CheckContext {
  /** The session that offered nothing beyond base MCP. */
  plain: Probe;
  /** The session that offered MGP (§2.2); undefined when it could not be opened. */
  mgp?: Probe;
  /** tools/list on each session (undefined when listing failed). */
  plainTools?: ListedTool[];
  mgpTools?: ListedTool[];
  /** What the validator offered as `capabilities.mgp` (MGP §2.2). */
  mgpOffer: { version: string; extensions: string[] };
  /** The server's `capabilities.mgp` on the MGP session, when it is an object. */
  serverMgp?: Record<string, unknown>;
  /** The extensions active on the MGP session: ours ∩ the server's (MGP §2.4 rule 1). */
  negotiated: Set<string>;
  options: ValidateRunOptions;
  schemas: SchemaJudge;
  /** Results of the checks run so far, by id. */
  earlier: Map<string, CheckResult>;
}

export interface Verdict {
  status: CheckStatus;
  detail: string;
  expected?: string;
  received?: string;
  exchange?: Exchange;
  advice?: string;
}

export interface Check {
  id: string;
  tier: CheckTier;
  title: string;
  section: string;
  extension?: MgpExtensionRow;
  /** How long this check may take; the run's per-check timeout when not set. */
  timeoutMs?: number;
  run(context: CheckContext): Promise<Verdict>;
}

export const pass = (detail: string): Verdict => ({ status: 'pass', detail });
export const missing = (detail: string, advice?: string): Verdict => ({
  status: 'missing',
  detail,
  advice,
});
export const skipped = (detail: string, advice?: string): Verdict => ({
  status: 'skipped',
  detail,
  advice,
});
export const fail = (verdict: Omit<Verdict, 'status'>): Verdict => ({ status: 'fail', ...verdict });

const SHOWN = 600;

/** A value as one line of JSON, cut to a length a report can show. */
export function shown(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  if (text === undefined) return 'nothing';
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}… (${text.length} characters)` : text;
}

/** The request with this id as sent and its answer as received, from the session's trace. */
export function exchangeOf(probe: Probe, id: RequestId | undefined): Exchange | undefined {
  if (id === undefined) return undefined;
  const sent = probe.trace.find(
    (entry) =>
      entry.direction === 'send' &&
      'id' in entry.message &&
      'method' in entry.message &&
      entry.message.id === id,
  )?.message;
  if (!sent) return undefined;
  const answer: JSONRPCMessage | undefined = probe.answerTo(id);
  return { sent: shown(sent), received: answer ? shown(answer) : 'no answer' };
}

/** The last request of `method` sent on the session and its answer. */
export function lastExchange(probe: Probe, method: string): Exchange | undefined {
  const sent = probe.lastSent(method);
  return sent && 'id' in sent ? exchangeOf(probe, sent.id) : undefined;
}

/** What came back from a request: a result, a JSON-RPC error, or nothing in time. */
export type Outcome =
  | { kind: 'result'; result: CappedResult; id?: RequestId }
  | { kind: 'error'; code?: number; message: string; data?: unknown; id?: RequestId }
  | { kind: 'timeout'; message: string; id?: RequestId };

function outcomeOfError(error: unknown, id: RequestId | undefined): Outcome {
  if (error instanceof McpError)
    return { kind: 'error', code: error.code, message: error.message, data: error.data, id };
  if (error instanceof KernelError && error.code === 'Timeout')
    return { kind: 'timeout', message: error.message, id };
  if (error instanceof KernelError)
    return { kind: 'error', code: error.wireCode, message: error.message, data: error.data, id };
  return { kind: 'error', message: error instanceof Error ? error.message : String(error), id };
}

/** tools/call on a session; never throws: an error or a timeout is an outcome like a result. */
export async function callTool(
  probe: Probe,
  tool: ListedTool | string,
  args: Record<string, unknown>,
  options: { mgp?: Record<string, unknown>; timeoutMs?: number; signal?: AbortSignal } = {},
  onRequestId?: (id: RequestId) => void,
): Promise<Outcome> {
  let id: RequestId | undefined;
  try {
    const result = await probe.connection.callTool(tool, args, {
      mgp: options.mgp,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      onRequestId: (sentId) => {
        id = sentId;
        onRequestId?.(sentId);
      },
    });
    return { kind: 'result', result, id };
  } catch (error) {
    return outcomeOfError(error, id);
  }
}

/** Any request on a session; never throws. The id is found in the session's trace. */
export async function request(
  probe: Probe,
  method: string,
  params: Record<string, unknown>,
  timeoutMs?: number,
): Promise<Outcome> {
  const before = probe.trace.length;
  const idOf = () => {
    for (const entry of probe.trace.slice(before))
      if (entry.direction === 'send' && 'method' in entry.message && 'id' in entry.message)
        if (entry.message.method === method) return entry.message.id;
    return undefined;
  };
  try {
    const result = await probe.connection.request(method, params, timeoutMs);
    return { kind: 'result', result: result as CappedResult, id: idOf() };
  } catch (error) {
    return outcomeOfError(error, idOf());
  }
}

/** An outcome in words, for a FAIL's "received". */
export function describeOutcome(outcome: Outcome): string {
  if (outcome.kind === 'timeout') return `no answer (${outcome.message})`;
  if (outcome.kind === 'error')
    return `JSON-RPC error ${outcome.code ?? '(no code)'}: ${outcome.message}`;
  const text = (outcome.result.content ?? [])
    .filter((item): item is { type: 'text'; text: string } => item.type === 'text')
    .map((item) => item.text)
    .join(' ');
  return `${outcome.result.isError ? 'a tool error' : 'a result'}${text ? `: ${shown(text).slice(0, 200)}` : ''}`;
}

/**
 * Why the validator will not call this tool on its own: the server marks it dangerous (MGP §4.4),
 * or, with no MGP risk level, its MCP annotations do not say it is read-only or non-destructive
 * (MCP's defaults are destructive). Undefined: the tool may be called.
 */
export function dangerOf(tool: ListedTool, allowDangerous: boolean): string | undefined {
  if (allowDangerous) return undefined;
  const security = (tool as { security?: { risk_level?: unknown } }).security;
  const risk = security?.risk_level;
  if (risk === 'dangerous') return `${tool.name} is marked dangerous`;
  if (risk === 'safe' || risk === 'moderate') return undefined;
  const annotations = tool.annotations as
    { readOnlyHint?: unknown; destructiveHint?: unknown } | undefined;
  if (annotations?.readOnlyHint === true || annotations?.destructiveHint === false)
    return undefined;
  return `${tool.name} has no MGP risk level and its MCP annotations do not say it is read-only or non-destructive`;
}

/** The tools a check may call with arguments made from their schemas, and why the others are left. */
export function callableTools(
  context: CheckContext,
  tools: ListedTool[],
): { callable: { tool: ListedTool; args: Record<string, unknown> }[]; left: string[] } {
  const callable: { tool: ListedTool; args: Record<string, unknown> }[] = [];
  const left: string[] = [];
  for (const tool of tools) {
    const danger = dangerOf(tool, context.options.allowDangerous);
    if (danger) {
      left.push(danger);
      continue;
    }
    const args = context.schemas.sampleArguments(tool.inputSchema ?? { type: 'object' });
    if (!args) left.push(`no arguments could be made for ${tool.name} from its inputSchema`);
    else callable.push({ tool, args });
  }
  return { callable, left };
}

/** The server's `security` of a tool, loosely (checks judge its shape). */
export function securityOf(tool: ListedTool): Record<string, unknown> | undefined {
  const security = (tool as { security?: unknown }).security;
  return typeof security === 'object' && security !== null && !Array.isArray(security)
    ? (security as Record<string, unknown>)
    : undefined;
}

export function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? (value as string[])
    : undefined;
}
