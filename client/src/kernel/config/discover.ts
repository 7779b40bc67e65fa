import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CONFIG_PATH_ENV,
  ServerConfigFormat,
  USER_MGP_CONFIG,
  USER_OPENFANG_CONFIG,
  WORKSPACE_MGP_CONFIG_NAMES,
  WORKSPACE_OPENFANG_CONFIG_NAMES,
} from '@shared/configFiles';

export type ConfigOrigin = 'workspace' | 'user' | 'env';

export interface ConfigLocation {
  path: string;
  format: ServerConfigFormat;
  origin: ConfigOrigin;
}

export interface DiscoveryInputs {
  workspaceFolders: readonly string[];
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  exists?: (path: string) => boolean;
}

/**
 * The config files that exist, nearest first: `./mgp.toml`, `./mcp.toml` (each workspace folder),
 * `~/.config/mgp/servers.toml`, `$MGP_CONFIG_PATH`, then OpenFang's `config.toml` in the workspace
 * (or its `.openfang/`) and `~/.openfang/config.toml`.
 */
export function discoverConfigFiles(inputs: DiscoveryInputs): ConfigLocation[] {
  const exists = inputs.exists ?? existsSync;
  const candidates: ConfigLocation[] = [];
  for (const folder of inputs.workspaceFolders) {
    for (const name of WORKSPACE_MGP_CONFIG_NAMES) {
      candidates.push({ path: join(folder, name), format: 'mgp', origin: 'workspace' });
    }
  }
  candidates.push({ path: join(inputs.home, USER_MGP_CONFIG), format: 'mgp', origin: 'user' });
  const fromEnv = inputs.env[CONFIG_PATH_ENV];
  if (fromEnv) {
    candidates.push({
      path: resolve(fromEnv),
      format: fromEnv.endsWith('config.toml') ? 'openfang' : 'mgp',
      origin: 'env',
    });
  }
  for (const folder of inputs.workspaceFolders) {
    for (const name of WORKSPACE_OPENFANG_CONFIG_NAMES) {
      candidates.push({ path: join(folder, name), format: 'openfang', origin: 'workspace' });
    }
  }
  candidates.push({
    path: join(inputs.home, USER_OPENFANG_CONFIG),
    format: 'openfang',
    origin: 'user',
  });

  const seen = new Set<string>();
  return candidates.filter((candidate) => {
    const key = resolve(candidate.path);
    if (seen.has(key) || !exists(candidate.path)) return false;
    seen.add(key);
    return true;
  });
}
