/**
 * The config files MGP Kernel reads, and what the extension, the language server and the CLI agree
 * about them. Order matters: the nearer file comes first and wins when two define the same server id.
 */
export type ConfigFormat = 'mgp' | 'openfang';

/** File names, in the workspace root, of MGP server configs (mcp.toml is the name MGP uses from 0.6). */
export const WORKSPACE_MGP_CONFIG_NAMES = ['mgp.toml', 'mcp.toml'] as const;

/** The user-wide MGP config, relative to the home folder. */
export const USER_MGP_CONFIG = '.config/mgp/servers.toml';

/** The environment variable that names one more MGP config file. */
export const CONFIG_PATH_ENV = 'MGP_CONFIG_PATH';

/** OpenFang configs: `config.toml` in the workspace (or its `.openfang/`), then `~/.openfang/config.toml`. */
export const WORKSPACE_OPENFANG_CONFIG_NAMES = ['config.toml', '.openfang/config.toml'] as const;
export const USER_OPENFANG_CONFIG = '.openfang/config.toml';

/** Base names the language server watches. A `config.toml` is checked only when it is OpenFang's. */
export const CONFIG_BASENAMES = ['mgp.toml', 'mcp.toml', 'servers.toml', 'config.toml'] as const;

/**
 * Whether a TOML text is an OpenFang config rather than Cargo's, Hugo's or any other `config.toml`:
 * it has an `[[mcp_servers]]` table or an `[a2a]` table. Read from the text so that a file with a
 * syntax error is still recognised.
 */
export function looksLikeOpenFangConfig(text: string): boolean {
  return /^[ \t]*\[\[?[ \t]*(mcp_servers|a2a)\b/m.test(text);
}

export function formatOfConfigFile(baseName: string): ConfigFormat {
  return baseName === 'config.toml' ? 'openfang' : 'mgp';
}
