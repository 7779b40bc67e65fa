import { isTable, RuleContext } from './context';
import type { ServerView } from './servers';

/** MGP §11.6: the backoff starts at backoff_base_ms and grows to backoff_max_ms. */
export function checkBackoff(ctx: RuleContext, servers: ServerView[]): void {
  for (const server of servers) {
    const mgp = server.table.mgp;
    if (!isTable(mgp)) continue;
    const base = mgp.backoff_base_ms;
    const max = mgp.backoff_max_ms;
    if (typeof base === 'number' && typeof max === 'number' && base > max) {
      ctx.report(
        [...server.path, 'mgp', 'backoff_base_ms'],
        ['value'],
        'error',
        'backoff-order',
        `backoff_base_ms (${base}) is greater than backoff_max_ms (${max}): the first retry would wait longer than the longest`,
      );
    }
  }
}
