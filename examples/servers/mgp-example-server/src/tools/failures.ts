/**
 * Tools that fail on purpose with MGP errors (MGP §14): `flaky` fails a set number of times and then
 * succeeds, with retry hints; `broken` always fails and says not to retry.
 */
import { z } from 'zod';
import { categoryOf, codeName, ErrorCodes, MgpError } from '../errors';
import { defineTool, security, textResult, type ToolDef } from '../tooling';

const RETRY_STRATEGIES = ['immediate', 'fixed_delay', 'exponential_backoff'] as const;

const flakyInput = z.object({
  key: z.string().min(1).describe('Calls with the same key share one attempt counter'),
  fail_times: z.number().int().min(0).max(100),
  code: z
    .number()
    .int()
    .default(ErrorCodes.RateLimited)
    .describe('MGP error code to fail with (default 3000 RATE_LIMITED)'),
  retry_strategy: z.enum(RETRY_STRATEGIES).default('exponential_backoff'),
  retry_after_ms: z.number().int().min(0).max(600_000).default(50),
  max_retries: z.number().int().min(0).max(100).default(3),
  fallback_tool: z.string().min(1).optional(),
});

function flaky(): ToolDef {
  const attempts = new Map<string, number>();
  return defineTool({
    name: 'flaky',
    title: 'Flaky service',
    description:
      'Fails with a retryable MGP error for the first fail_times calls with the same key, then succeeds and tells how many attempts it took.',
    input: flakyInput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    security: security('safe', { reversible: true, confirmation_required: false }),
    run: async (args) => {
      const attempt = (attempts.get(args.key) ?? 0) + 1;
      attempts.set(args.key, attempt);
      if (attempt > args.fail_times)
        return textResult(`Succeeded on attempt ${attempt}`, { key: args.key, attempts: attempt });
      throw new MgpError(
        args.code,
        `${codeName(args.code)}: attempt ${attempt} of key "${args.key}" failed (fails ${args.fail_times} times)`,
        {
          category: categoryOf(args.code),
          retryable: true,
          retry_after_ms: args.retry_after_ms,
          retry_strategy: args.retry_strategy,
          max_retries: args.max_retries,
          ...(args.fallback_tool && { fallback_tool: args.fallback_tool }),
          details: { key: args.key, attempt, fail_times: args.fail_times },
        },
      );
    },
  });
}

const broken = defineTool({
  name: 'broken',
  title: 'Broken service',
  description: 'Always fails: its upstream service answers with an error. Retrying does not help.',
  input: z.object({}),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  // It only pretends to call an upstream service: no request leaves the process.
  security: security('safe', { reversible: true, confirmation_required: false }),
  run: async () => {
    throw new MgpError(
      ErrorCodes.UpstreamError,
      'UPSTREAM_ERROR: the upstream service answered 502 Bad Gateway',
      {
        category: 'external',
        retryable: false,
        details: { upstream: 'https://upstream.example.invalid', status: 502 },
      },
    );
  },
});

export function failureTools(): ToolDef[] {
  return [flaky(), broken];
}
