/**
 * Whether a window has anything for MGP Kernel, told before anything heavy loads. The manifest
 * activates the extension on `workspaceContains:config.toml`, since OpenFang's config is named so;
 * VS Code matches file names, not contents, so a Hugo, Netlify or Cargo `config.toml` activates it
 * too. Such a window, when no other config of ours is there (the workspace's, the user's, the
 * environment's), has nothing to do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  CONFIG_PATH_ENV,
  looksLikeOpenFangConfig,
  USER_MGP_CONFIG,
  USER_OPENFANG_CONFIG,
  WORKSPACE_MGP_CONFIG_NAMES,
} from '@shared/configFiles';

/** Files in a folder's root that make it ours whatever they hold (the manifest's other events). */
const OURS = [...WORKSPACE_MGP_CONFIG_NAMES, '.openfang/config.toml', '.vscode/mcp.json'];

/** A config.toml at the root that is not OpenFang's, and nothing else of ours anywhere. */
export function nothingToDo(
  folders: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  home = homedir(),
): boolean {
  let foreignConfigToml = false;
  for (const folder of folders) {
    if (OURS.some((name) => existsSync(join(folder, name)))) return false;
    const configToml = join(folder, 'config.toml');
    if (!existsSync(configToml)) continue;
    if (looksLikeOpenFangConfig(readText(configToml))) return false;
    foreignConfigToml = true;
  }
  if (!foreignConfigToml) return false;
  if (env[CONFIG_PATH_ENV]) return false;
  return ![USER_MGP_CONFIG, USER_OPENFANG_CONFIG].some((path) => existsSync(join(home, path)));
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
