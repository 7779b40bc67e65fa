/** What the MCPL checks share: the server's MCPL, its requests seen, and calls that provoke them. */
import type { ListedTool } from '../../connection/toolResults';
import { parseServerMcpl, type ServerMcpl } from '../../mcpl/capabilities';
import { callableTools, callTool, type CheckContext, skipped, type Verdict } from '../context';
import type { Notice } from '../probe';

export const NOT_MCPL = 'the server does not advertise experimental.mcpl';

export function serverMcpl(context: CheckContext): ServerMcpl | undefined {
  return context.mgp ? parseServerMcpl(context.mgp.capabilities).mcpl : undefined;
}

export function featureSetOf(tool: ListedTool): string | undefined {
  const meta = (tool as { _meta?: Record<string, unknown> })._meta;
  const set = meta?.['mcpl/featureSet'];
  return typeof set === 'string' ? set : undefined;
}

export function requestsOf(context: CheckContext, method: string): Notice[] {
  return (context.mgp?.notices ?? []).filter((notice) => notice.method === method);
}

/** Calls callable tools of the feature sets that use `use` until the server sends `method`. */
export async function provoke(
  context: CheckContext,
  mcpl: ServerMcpl,
  use: string,
  method: string,
): Promise<{ seen: Notice[]; left: string[] }> {
  let seen = requestsOf(context, method);
  if (seen.length) return { seen, left: [] };
  const sets = [...mcpl.featureSets.values()].filter((set) => set.uses.includes(use as never));
  const tools = (context.mgpTools ?? []).filter((tool) =>
    sets.some((set) => set.name === featureSetOf(tool)),
  );
  const { callable, left } = callableTools(context, tools);
  for (const { tool, args } of callable.slice(0, 3)) {
    await callTool(context.mgp!, tool, args, { timeoutMs: context.options.checkTimeoutMs });
    seen = requestsOf(context, method);
    if (seen.length) break;
  }
  return { seen, left };
}

/** A check of traffic the server starts, when none came: skipped, and what would let it come. */
export function notProvoked(what: string, left: readonly string[]): Verdict {
  return skipped(
    `no ${what} came${left.length ? `; not called: ${left.slice(0, 2).join('; ')}` : ''}`,
    left.length ? 'run with --allow-dangerous to let the validator call the tools' : undefined,
  );
}
