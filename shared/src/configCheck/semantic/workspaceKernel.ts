/**
 * A workspace file may only tighten the user's security settings (issue: a repository's mgp.toml
 * `[kernel]` table switched approvals off for the user's own servers). The kernel ignores what would
 * loosen them; this rule says so in the editor and in `mgp check`, for the values that loosen the
 * defaults. Whether a value loosens the user's own settings is known only where both are read: the
 * kernel reports that case when it loads the files.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { CONFIG_PATH_ENV, USER_MGP_CONFIG } from '../../configFiles';
import { isTable, RuleContext, Table } from './context';

/** Whether `path` is one of the user's own config files (trusted), not a workspace file. */
export function isUserConfigPath(
  path: string,
  env: Readonly<Record<string, string | undefined>>,
  home = homedir(),
): boolean {
  const target = resolve(path);
  const fromEnv = env[CONFIG_PATH_ENV];
  return (
    target === resolve(join(home, USER_MGP_CONFIG)) || (!!fromEnv && target === resolve(fromEnv))
  );
}

interface Loosening {
  path: (string | number)[];
  what: string;
}

/** The `[kernel]` keys whose values loosen the defaults. */
export function kernelLoosenings(kernel: Table): Loosening[] {
  const found: Loosening[] = [];
  if (kernel.approval_policy === 'auto_approve')
    found.push({ path: ['approval_policy'], what: 'approval_policy = "auto_approve"' });
  if (kernel.tool_creation === true)
    found.push({ path: ['tool_creation'], what: 'tool_creation = true' });
  if (kernel.keep_registered_servers === true)
    found.push({ path: ['keep_registered_servers'], what: 'keep_registered_servers = true' });
  if (Array.isArray(kernel.access_grants))
    kernel.access_grants.forEach((grant, index) => {
      if (isTable(grant) && grant.permission !== 'deny')
        found.push({ path: ['access_grants', index], what: 'an access grant that allows' });
    });
  const audit = kernel.audit;
  if (isTable(audit) && typeof audit.retention === 'string' && audit.retention !== 'keep_all')
    found.push({
      path: ['audit', 'retention'],
      what: `audit retention = "${audit.retention}"`,
    });
  return found;
}

export function checkWorkspaceKernel(ctx: RuleContext, path: string | undefined): void {
  if (!path || isUserConfigPath(path, ctx.environment.env)) return;
  const kernel = ctx.value.kernel;
  if (!isTable(kernel)) return;
  for (const { path: key, what } of kernelLoosenings(kernel))
    ctx.report(
      ['kernel', ...key],
      ['key', 'value'],
      'warning',
      'workspace-loosens',
      `A workspace file may only tighten security: ${what} is ignored here. Set it in your user config (~/${USER_MGP_CONFIG}).`,
    );
}
