import { FEATURE_SET_NAME, FEATURE_SET_WILDCARD } from '../../schemas/vocabulary';
import { isTable, RuleContext } from './context';
import type { ServerView } from './servers';

/** Whether a feature-set pattern (a name or a `prefix.*` wildcard, MCPL §6.3) covers a name. */
export function featureSetMatches(pattern: string, name: string): boolean {
  return pattern.endsWith('.*') ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

function stringItems(value: unknown): { item: string; index: number }[] {
  return Array.isArray(value)
    ? value.flatMap((item, index) => (typeof item === 'string' ? [{ item, index }] : []))
    : [];
}

/**
 * MCPL §6–7 for `[servers.mcpl]`: names and wildcards well formed, no set both enabled and disabled,
 * scopes only for sets that are enabled.
 */
export function checkFeatureSets(ctx: RuleContext, servers: ServerView[]): void {
  for (const server of servers) {
    const mcpl = server.table.mcpl;
    if (!isTable(mcpl)) continue;
    const base = [...server.path, 'mcpl'];
    const enabled = stringItems(mcpl.enabled_feature_sets);
    const disabled = stringItems(mcpl.disabled_feature_sets);
    for (const [list, items] of [
      ['enabled_feature_sets', enabled],
      ['disabled_feature_sets', disabled],
    ] as const) {
      for (const { item, index } of items) {
        if (FEATURE_SET_NAME.test(item) || FEATURE_SET_WILDCARD.test(item)) continue;
        ctx.report(
          [...base, list, index],
          ['value'],
          'error',
          'feature-set-name',
          `"${item}" is not a feature-set name or wildcard: use dot-separated names such as memory.retrieval, or memory.* for all of memory (MCPL §6.3)`,
        );
      }
    }
    for (const { item, index } of disabled) {
      const conflict = enabled.find(
        (e) =>
          e.item === item || featureSetMatches(e.item, item) || featureSetMatches(item, e.item),
      );
      if (!conflict) continue;
      ctx.report(
        [...base, 'disabled_feature_sets', index],
        ['value'],
        'warning',
        'feature-set-conflict',
        `feature set "${item}" is both enabled (as "${conflict.item}") and disabled: disabled wins, so remove it from one list`,
      );
    }
    const scopes = mcpl.scopes;
    if (!isTable(scopes)) continue;
    for (const name of Object.keys(scopes)) {
      const isEnabled =
        enabled.some((e) => featureSetMatches(e.item, name)) &&
        !disabled.some((d) => featureSetMatches(d.item, name));
      if (isEnabled) continue;
      ctx.report(
        [...base, 'scopes', name],
        ['key'],
        'warning',
        'scope-not-enabled',
        `scopes for feature set "${name}", which is not enabled: they have no effect until it is listed in enabled_feature_sets (MCPL §7.2)`,
      );
    }
  }
}
