/**
 * The config files MGP Kernel reads, and what the extension, the language server and the CLI agree
 * about them. Order matters: the nearer file comes first and wins when two define the same server id.
 */
export type ConfigFormat = ServerConfigFormat | 'policy';

/** The formats that declare servers; the managed policy declares none. */
export type ServerConfigFormat = 'mgp' | 'openfang';

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
export const CONFIG_BASENAMES = [
  'mgp.toml',
  'mcp.toml',
  'servers.toml',
  'config.toml',
  'policy.toml',
] as const;

/**
 * Whether a TOML text is an OpenFang config rather than Cargo's, Hugo's or any other `config.toml`:
 * it has an `[[mcp_servers]]` table or an `[a2a]` table. Read from the text so that a file with a
 * syntax error is still recognised.
 */
export function looksLikeOpenFangConfig(text: string): boolean {
  return /^[ \t]*\[\[?[ \t]*(mcp_servers|a2a)\b/m.test(text);
}

export function formatOfConfigFile(baseName: string): ConfigFormat {
  if (baseName === MANAGED_POLICY_NAME) return 'policy';
  return baseName === 'config.toml' ? 'openfang' : 'mgp';
}

/** The machine-wide policy an organisation sets, above the user's and the workspace's files. */
export const MANAGED_POLICY_NAME = 'policy.toml';

/** The environment variable that names the managed policy file in place of the platform's. */
export const MANAGED_POLICY_ENV = 'MGP_MANAGED_POLICY';

/**
 * Where the managed policy lives: `$MGP_MANAGED_POLICY`, else the platform's place, which only an
 * administrator can write (`/etc/mgp`, `/Library/Application Support/MGP`, `%ProgramData%\MGP`).
 */
export function managedPolicyPath(
  platform: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const fromEnv = env[MANAGED_POLICY_ENV];
  if (fromEnv) return fromEnv;
  if (platform === 'darwin') return '/Library/Application Support/MGP/policy.toml';
  if (platform === 'win32')
    return `${env.ProgramData ?? env.PROGRAMDATA ?? 'C:\\ProgramData'}\\MGP\\policy.toml`;
  return '/etc/mgp/policy.toml';
}

/**
 * Whether a `policy.toml` is MGP's managed policy and not another tool's: it has one of the policy's
 * tables (`[servers]` as a single table, `[kernel…]`, `[models]`). Read from the text, like OpenFang's.
 */
export function looksLikeManagedPolicy(text: string): boolean {
  return /^[ \t]*\[[ \t]*(servers|models|kernel)[ \t]*[\].]/m.test(text);
}
