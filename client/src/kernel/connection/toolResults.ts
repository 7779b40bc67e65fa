import { CallToolResult, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/**
 * A tool as the server lists it, unknown fields kept: the SDK's `listTools()` strips MGP's `security`
 * and `_mgp`, which the kernel needs, so tools/list goes through this loose schema.
 */
export const LooseToolSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.string().optional() }).optional(),
  outputSchema: z.looseObject({}).optional(),
  annotations: z.looseObject({}).optional(),
  execution: z.looseObject({}).optional(),
});
export type ListedTool = z.infer<typeof LooseToolSchema>;
export const LooseToolsPageSchema = z.looseObject({
  tools: z.array(LooseToolSchema),
  nextCursor: z.string().optional(),
});

/** The SDK's result schema is a loose object: `_mgp` (streamed, cancelled…) survives parsing. */
export const LooseCallResultSchema = CallToolResultSchema;

export interface CappedResult extends CallToolResult {
  /** Set when text content was cut to the server's tool_result_max_chars. */
  truncated?: { originalChars: number; keptChars: number };
  /** Set when `structuredContent` is missing or does not fit the tool's outputSchema (outputCheck.ts). */
  outputSchemaMismatch?: { problem: string };
}

/** Cuts text content beyond `maxChars` in all and marks the result truncated (OpenFang's 50K cap). */
export function capResult(result: CallToolResult, maxChars: number): CappedResult {
  let total = 0;
  for (const item of result.content ?? []) if (item.type === 'text') total += item.text.length;
  if (total <= maxChars) return result;
  let left = maxChars;
  const content = (result.content ?? []).map((item) => {
    if (item.type !== 'text') return item;
    const kept = item.text.slice(0, Math.max(0, left));
    left -= kept.length;
    return { ...item, text: kept };
  });
  content.push({
    type: 'text',
    text: `\n[truncated: ${total - maxChars} of ${total} characters omitted]`,
  });
  return { ...result, content, truncated: { originalChars: total, keptChars: maxChars } };
}
