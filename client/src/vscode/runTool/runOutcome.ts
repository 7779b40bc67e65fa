/**
 * How a run ended, for the Run Tool panel: whether the kernel blocked the call (and by which check),
 * and the tools/call exchange as raw JSON. Pure (no `vscode`): tested in node.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { BlockView, ExchangeView } from '@shared/toolPanelMessages';
import { checkName, KernelError, type KernelErrorCode } from '../../kernel';

/**
 * Refusals that name no check (older records kept in a run history, say), named by their code. A
 * refusal the pipeline made names its check (`KernelError.check`), and that is what the panel shows.
 */
const BLOCKING_CODES: Partial<Record<KernelErrorCode, string>> = {
  AccessDenied: 'access',
  InvalidArguments: 'input_schema',
  ValidationBlocked: 'validators',
  CodeSafetyViolation: 'code_safety',
  ToolDisabled: 'turned_off',
};

/** The most raw JSON a panel is sent per side of an exchange. */
export const MAX_EXCHANGE_CHARS = 200_000;

function detailsOf(error: KernelError): Record<string, unknown> {
  const mgp = (error.data as { _mgp?: { details?: unknown } } | undefined)?._mgp;
  const details = mgp?.details;
  return typeof details === 'object' && details !== null
    ? (details as Record<string, unknown>)
    : {};
}

/** The check as the panel shows it: its words first, its section for the tooltip (checkNames.ts). */
function blockBy(check: string, why: string): BlockView {
  const { label, section } = checkName(check);
  return {
    check: label.charAt(0).toUpperCase() + label.slice(1),
    why,
    ...(section ? { section } : {}),
  };
}

/**
 * The check that refused the call, when the kernel refused it; undefined for anything else: the
 * server's own error (a JSON-RPC error, even with an MGP code), a timeout, a lost connection.
 */
export function blockOf(error: unknown): BlockView | undefined {
  if (!(error instanceof KernelError) || error.wireCode === undefined) return undefined;
  if (error.check) return blockBy(error.check, error.message);
  if (error.code === 'PermissionDenied')
    // MGP §3 (a permission the operator denied) and §4 (the approval asked for) share 1000.
    return blockBy(
      Array.isArray(detailsOf(error).permissions) ? 'permissions' : 'approval',
      error.message,
    );
  const check = BLOCKING_CODES[error.code];
  return check ? blockBy(check, error.message) : undefined;
}

/** A result the kernel answered itself instead of the server (MGP §7.4: a code-safety rejection). */
export function blockOfResult(result: {
  _mgp?: unknown;
  content?: unknown;
}): BlockView | undefined {
  const mgp = result._mgp as { blocked_by?: unknown } | undefined;
  if (mgp?.blocked_by !== 'code_safety') return undefined;
  const content = Array.isArray(result.content) ? (result.content as { text?: unknown }[]) : [];
  const text = content.find((c) => typeof c.text === 'string')?.text as string | undefined;
  const reason = text ? summaryOf(text) : 'the code-safety validator rejected the code';
  return blockBy('code_safety', reason);
}

function summaryOf(text: string): string {
  try {
    // MGP §7.4's rejection: { status: "rejected", violations: [...], hints }.
    const parsed = JSON.parse(text) as { violations?: unknown; reason?: unknown };
    if (Array.isArray(parsed.violations) && parsed.violations.length)
      return parsed.violations.map(String).join('; ');
    if (typeof parsed.reason === 'string') return parsed.reason;
  } catch {
    // not JSON: the text itself
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

export function prettyJson(value: unknown, max = MAX_EXCHANGE_CHARS): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? 'undefined';
  } catch (error) {
    text = `(not serialisable: ${error instanceof Error ? error.message : String(error)})`;
  }
  return text.length > max
    ? `${text.slice(0, max)}\n… (${text.length - max} more characters not shown)`
    : text;
}

/** The error as a JSON-RPC error object (`{ code, message, data }`), or its message for a local one. */
export function errorJson(error: unknown): Record<string, unknown> {
  if (error instanceof McpError)
    return {
      code: error.code,
      message: error.message.replace(/^MCP error -?\d+: /, ''),
      ...(error.data !== undefined ? { data: error.data } : {}),
    };
  if (error instanceof KernelError)
    return {
      ...(error.wireCode !== undefined ? { code: error.wireCode } : { kernelError: error.code }),
      message: error.message,
      ...(error.data !== undefined ? { data: error.data } : {}),
    };
  return { message: error instanceof Error ? error.message : String(error) };
}

export function exchangeView(
  sent: Record<string, unknown> | undefined,
  answer: { result: unknown } | { error: unknown },
): ExchangeView {
  return {
    ...(sent ? { request: prettyJson(sent) } : {}),
    response: prettyJson('result' in answer ? answer.result : { error: errorJson(answer.error) }),
  };
}
