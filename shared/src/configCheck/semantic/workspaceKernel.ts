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
  if (Array.isArray(kernel.private_hosts) && kernel.private_hosts.length > 0)
    found.push({ path: ['private_hosts'], what: 'private_hosts' });
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

/** A `sandbox` table's keys that widen what a server may do: more writes, more reads, no sandbox. */
export function sandboxLoosenings(sandbox: Table): Loosening[] {
  const found: Loosening[] = [];
  if (sandbox.mode === 'off') found.push({ path: ['mode'], what: 'sandbox mode = "off"' });
  if (Array.isArray(sandbox.write) && sandbox.write.length)
    found.push({ path: ['write'], what: 'sandbox write paths' });
  if (Array.isArray(sandbox.allow_read) && sandbox.allow_read.length)
    found.push({ path: ['allow_read'], what: 'sandbox allow_read paths' });
  return found;
}

/** Every loosening in the file, with the path of its key. */
function loosenings(value: Table): Loosening[] {
  const kernel = isTable(value.kernel) ? value.kernel : {};
  const found = kernelLoosenings(kernel).map((l) => ({ ...l, path: ['kernel', ...l.path] }));
  if (isTable(kernel.sandbox))
    for (const l of sandboxLoosenings(kernel.sandbox))
      found.push({ ...l, path: ['kernel', 'sandbox', ...l.path] });
  const servers = Array.isArray(value.servers) ? value.servers : [];
  servers.forEach((server, index) => {
    if (isTable(server) && isTable(server.sandbox))
      for (const l of sandboxLoosenings(server.sandbox))
        found.push({ ...l, path: ['servers', index, 'sandbox', ...l.path] });
  });
  return found;
}

export function checkWorkspaceKernel(ctx: RuleContext, path: string | undefined): void {
  if (!path || isUserConfigPath(path, ctx.environment.env)) return;
  for (const { path: key, what } of loosenings(ctx.value))
    ctx.report(
      key,
      ['key', 'value'],
      'warning',
      'workspace-loosens',
      `A workspace file may only tighten security: ${what} is ignored here. Set it in your user config (~/${USER_MGP_CONFIG}).`,
    );
}
