import { interpolate, SecretSource } from '../config/interpolate';
import type { ConfiguredServer } from '../config/types';
import { EntryValue, isCredentialName, secretValues } from '../config/secretLike';

export interface ResolvedEnvironment {
  env: Record<string, string>;
  headers: Record<string, string>;
  /** `[servers.oauth]` secrets, resolved. */
  oauth: { clientSecret?: string; privateKey?: string };
  /** `${…}` references that had no value. */
  missing: string[];
  /** The values among them that are secrets (config/secretLike.ts): what the audit trail hides. */
  secrets: string[];
}

/**
 * What a server process gets: PATH, plus only the variables its config lists or passes through
 * (OpenFang's env_clear rule); values and headers with `${VAR}` and `${secret:NAME}` resolved.
 */
export async function resolveEnvironment(
  server: ConfiguredServer,
  host: Readonly<Record<string, string | undefined>>,
  secrets: SecretSource,
): Promise<ResolvedEnvironment> {
  const env: Record<string, string> = {};
  const missing: string[] = [];
  const entries: EntryValue[] = [];
  if (host.PATH) env.PATH = host.PATH;
  if (process.platform === 'win32' && host.SystemRoot) env.SystemRoot = host.SystemRoot;
  for (const name of server.settings.passEnv) {
    const value = host[name];
    if (value === undefined) missing.push(`\${${name}}`);
    else {
      env[name] = value;
      if (isCredentialName(name)) entries.push({ name, raw: '', value, references: [] });
    }
  }
  const resolveAll = async (values: Record<string, string>) => {
    const out: Record<string, string> = {};
    for (const [key, raw] of Object.entries(values)) {
      const result = await interpolate(raw, host, secrets);
      out[key] = result.value;
      missing.push(...result.missing);
      entries.push({ name: key, raw, value: result.value, references: result.resolved });
    }
    return out;
  };
  Object.assign(env, await resolveAll(server.settings.env));
  const headers = await resolveAll(server.settings.headers);
  const { clientSecret, privateKey } = server.settings.oauth ?? {};
  const oauth = await resolveAll({
    ...(clientSecret ? { clientSecret } : {}),
    ...(privateKey ? { privateKey } : {}),
  });
  // The OAuth client's secret and key are secrets whatever they look like.
  const oauthSecrets = Object.values(oauth).filter((value) => value !== '');
  return {
    env,
    headers,
    oauth,
    missing: [...new Set(missing)],
    secrets: [...secretValues(entries), ...oauthSecrets],
  };
}
