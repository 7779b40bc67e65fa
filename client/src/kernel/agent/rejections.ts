/**
 * Tool errors a model can correct itself from, in the shape of MGP §7.4's structured rejection:
 * `status`, `reason`, `violations`, and `hints` (the tools it may call, the schema it missed). A
 * model that names a tool that does not exist, writes arguments that do not parse or do not fit the
 * schema, or is refused by the kernel gets one of these as the tool's result, never a crash of the loop.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { KernelError } from '../domain/errors';
import { checkName, checkPhrase } from '../pipeline/checkNames';
import { wireErrorOf } from '../mgp/mgpErrors';

export interface Rejection {
  status: 'rejected';
  reason: string;
  violations: string[];
  hints?: Record<string, unknown>;
  /** The MGP §14.3 code, for refusals by the kernel. */
  code?: number;
  error?: string;
}

export function unknownToolRejection(name: string, available: readonly string[]): Rejection {
  return {
    status: 'rejected',
    reason: 'Unknown tool',
    violations: [`no tool named "${name}" is available to you`],
    hints: {
      available_tools: available,
      next_step:
        'call one of the available tools; to find another tool, call the discover tool with what you need',
    },
  };
}

export function unparsableRejection(
  problem: string,
  schema: Record<string, unknown> | undefined,
): Rejection {
  return {
    status: 'rejected',
    reason: 'Arguments are not a JSON object',
    violations: [problem],
    hints: { expected_schema: schema ?? { type: 'object' } },
  };
}

/** Arguments the model wrote, parsed; a problem when they are not a JSON object. */
export function parseArguments(
  text: string,
): { args: Record<string, unknown> } | { problem: string } {
  if (text.trim() === '') return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      problem: `a JSON object is required, not ${Array.isArray(value) ? 'an array' : typeof value}`,
    };
  return { args: value as Record<string, unknown> };
}

/** A refusal or failure of the kernel or the server, as the model reads it. */
export function errorRejection(error: unknown, schema?: Record<string, unknown>): Rejection {
  const message = error instanceof Error ? error.message : String(error);
  const wire = wireErrorOf(error);
  const check = error instanceof KernelError ? error.check : undefined;
  const invalid = check === 'input_schema';
  return {
    status: 'rejected',
    reason: invalid
      ? 'Arguments do not match the input schema'
      : check
        ? `Refused by the kernel's ${checkPhrase(check)}`
        : 'The call failed',
    violations: [message],
    ...(wire ? { code: wire.code, ...(wire.name ? { error: wire.name } : {}) } : {}),
    hints: {
      next_step: check ? checkName(check).remedy : 'read the error; retry only if it can succeed',
      ...(invalid && schema ? { expected_schema: schema } : {}),
    },
  };
}

/**
 * A rejection as a tool's result (`isError`), which every MCP client hands its model, where a
 * JSON-RPC error reaches most models only as "an error occurred". `_mgp` keeps the §14.3 code for
 * clients that read it.
 */
export function rejectionResult(rejection: Rejection): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(rejection) }],
    isError: true,
    ...(rejection.code !== undefined
      ? { _mgp: { code: rejection.code, ...(rejection.error ? { error: rejection.error } : {}) } }
      : {}),
  };
}
