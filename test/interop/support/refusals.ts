import * as assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A kernel refusal as a gateway client receives it: a tool error its model reads, with the §14.3 code. */
export interface RefusalSeen {
  code: number | undefined;
  reason: string;
  violations: string[];
  next_step: string;
  text: string;
}

/** The refusal a call was answered with; fails when the call ran or came back as a JSON-RPC error. */
export async function refusalResult(call: Promise<unknown>): Promise<RefusalSeen> {
  const result = (await call) as CallToolResult & { _mgp?: { code?: number } };
  assert.equal(result.isError, true, `the call was not refused: ${JSON.stringify(result)}`);
  const first = result.content[0];
  assert.ok(first?.type === 'text', JSON.stringify(result));
  const parsed = JSON.parse(first.text) as {
    reason: string;
    violations: string[];
    hints: { next_step: string };
  };
  return {
    code: result._mgp?.code,
    reason: parsed.reason,
    violations: parsed.violations,
    next_step: parsed.hints.next_step,
    text: first.text,
  };
}
