/**
 * Where a workspace's durable state lives, outside the workspace (a repository should not carry its
 * own audit trail, and a tool server working in the folder should not reach it):
 *
 *     $XDG_STATE_HOME/mgp/<key>/          stateDirectory: the audit log and the kernel's stores
 *     $XDG_STATE_HOME/mgp/<key>/audit/    auditDirectory
 *
 * `$XDG_STATE_HOME` defaults to `~/.local/state` (and is ignored unless absolute, as the XDG spec
 * says). `<key>` is `<folder name>-<first 12 hex digits of SHA-256 of the folder's absolute path>`,
 * readable yet distinct for two folders of the same name, or `global` without a workspace folder.
 */
import { createHash } from 'node:crypto';
import { basename, isAbsolute, join, resolve } from 'node:path';

export interface StateLocation {
  workspaceFolder?: string;
  env: Record<string, string | undefined>;
  home: string;
}

export function workspaceKey(workspaceFolder?: string): string {
  if (!workspaceFolder) return 'global';
  const folder = resolve(workspaceFolder);
  const name =
    basename(folder)
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^\.+/, '') || 'root';
  return `${name}-${createHash('sha256').update(folder).digest('hex').slice(0, 12)}`;
}

/** `$XDG_STATE_HOME/mgp`: every workspace's state folder, and the user's own files beside them. */
export function stateRoot(location: Omit<StateLocation, 'workspaceFolder'>): string {
  const xdg = location.env.XDG_STATE_HOME;
  const stateHome = xdg && isAbsolute(xdg) ? xdg : join(location.home, '.local', 'state');
  return join(stateHome, 'mgp');
}

export function stateDirectory(location: StateLocation): string {
  return join(stateRoot(location), workspaceKey(location.workspaceFolder));
}

export function auditDirectory(location: StateLocation): string {
  return join(stateDirectory(location), 'audit');
}
