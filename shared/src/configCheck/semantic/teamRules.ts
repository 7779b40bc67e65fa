/**
 * Rules for what a team shares: the PostgreSQL audit URL (mgp.toml and the managed policy) and the
 * managed policy's own lists.
 */
import { isTable, RuleContext } from './context';

/** A password written into a `postgres://` URL belongs in secret storage, like an API key. */
export function checkPostgresUrl(ctx: RuleContext): void {
  const kernel = ctx.value.kernel;
  const audit = isTable(kernel) && isTable(kernel.audit) ? kernel.audit : undefined;
  const postgres = audit && isTable(audit.postgres) ? audit.postgres : undefined;
  if (typeof postgres?.url !== 'string') return;
  const path = ['kernel', 'audit', 'postgres', 'url'];
  if (/^postgres(?:ql)?:\/\/[^/@:]*:[^/@]+@/.test(postgres.url))
    ctx.report(
      path,
      ['value'],
      'warning',
      'literal-secret',
      'kernel.audit.postgres.url holds a password: keep the URL in secret storage and write url = "${secret:NAME}"',
    );
}

const PREFIXED = /^(id|command|url):/;

/** An allow list that matches nothing lets nothing start; a pattern on both lists is denied. */
export function checkPolicyServers(ctx: RuleContext): void {
  const servers = ctx.value.servers;
  if (!isTable(servers)) return;
  const allow = Array.isArray(servers.allow) ? servers.allow : undefined;
  const deny = Array.isArray(servers.deny) ? servers.deny : [];
  if (allow && allow.length === 0)
    ctx.report(
      ['servers', 'allow'],
      ['value'],
      'warning',
      'policy-allows-nothing',
      'servers.allow is empty: no server may start on this machine',
    );
  allow?.forEach((entry, index) => {
    if (typeof entry === 'string' && deny.includes(entry))
      ctx.report(
        ['servers', 'allow', index],
        ['value'],
        'information',
        'policy-denied-too',
        `"${entry}" is in servers.deny too: a deny wins, so it never starts`,
      );
    if (typeof entry === 'string' && /^\w+:/.test(entry) && !PREFIXED.test(entry))
      ctx.report(
        ['servers', 'allow', index],
        ['value'],
        'information',
        'policy-pattern-kind',
        `"${entry}" is matched against server ids: only id:, command: and url: name another kind of pattern`,
      );
  });
}
