/**
 * Values in config files may refer to `${VAR}` (the environment) and `${secret:NAME}` (VS Code's
 * SecretStorage in the editor, the environment in the CLI). Resolution happens when a server starts,
 * so the resolved text never enters logs, audit events or views: those show the reference.
 */
export interface SecretSource {
  get(name: string): Promise<string | undefined>;
}

export interface InterpolationResult {
  value: string;
  /** References that had no value (they resolve to the empty string). */
  missing: string[];
  /** The references that had a value, with it. */
  resolved: { name: string; secret: boolean; value: string }[];
}

const REFERENCE = /\$\{(secret:)?([A-Za-z_][A-Za-z0-9_.-]*)\}/g;

export async function interpolate(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  secrets: SecretSource,
): Promise<InterpolationResult> {
  const missing: string[] = [];
  const resolved: InterpolationResult['resolved'] = [];
  const values = new Map<string, string>();
  for (const match of text.matchAll(REFERENCE)) {
    const [reference, secret, name] = match;
    if (values.has(reference)) continue;
    const value = secret ? await secrets.get(name) : env[name];
    if (value === undefined) missing.push(reference);
    else resolved.push({ name, secret: Boolean(secret), value });
    values.set(reference, value ?? '');
  }
  return {
    value: text.replace(REFERENCE, (reference) => values.get(reference) ?? ''),
    missing,
    resolved,
  };
}

/** References in a text, for display and for checks: `${VAR}` and `${secret:NAME}`. */
export function referencesIn(text: string): { name: string; secret: boolean }[] {
  return [...text.matchAll(REFERENCE)].map((match) => ({
    name: match[2],
    secret: Boolean(match[1]),
  }));
}

/** The CLI's secrets: `${secret:NAME}` reads the environment variable NAME. */
export function environmentSecrets(
  env: Readonly<Record<string, string | undefined>>,
): SecretSource {
  return { get: async (name) => env[name] };
}
