/**
 * Which values of a server's env and headers are secrets, for the audit trail to hide. Hiding every
 * value would let a config erase any word it likes from the trail (`RISK = "dangerous"` would turn
 * every `risk_level: "dangerous"` into `[REDACTED]`), so only these count:
 * - the value of a `${secret:NAME}` reference;
 * - the value of a `${VAR}` reference, or of a whole entry, whose name says it holds a credential
 *   (`GITHUB_TOKEN`, `OPENAI_API_KEY`, `Authorization`, `DB_PASSWORD`…);
 * - a literal that looks like a token: 16 characters or more without spaces, mixing letters and
 *   digits, with the spread of characters random keys have (at least 3 bits of entropy a character).
 */

const CREDENTIAL_PARTS = new Set([
  'token',
  'key',
  'apikey',
  'secret',
  'password',
  'passwd',
  'pwd',
  'pass',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'cookie',
  'session',
  'pat',
  'private',
  'signature',
  'bearer',
]);

/** `GITHUB_TOKEN`, `openaiApiKey`, `X-Api-Key` → their words, lower case. */
function nameParts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function isCredentialName(name: string): boolean {
  const parts = nameParts(name);
  return parts.some((part) => CREDENTIAL_PARTS.has(part)) || parts.join('') === 'apikey';
}

function entropyPerCharacter(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

export function looksLikeToken(value: string): boolean {
  return (
    value.length >= 16 &&
    !/\s/.test(value) &&
    /[A-Za-z]/.test(value) &&
    /[0-9]/.test(value) &&
    entropyPerCharacter(value) >= 3
  );
}

/** A `scheme token` credential (`Bearer abc…`) also hides the token alone. */
function withTokenPart(value: string): string[] {
  const match = /^(?:Bearer|Basic|Token|Digest)\s+(\S+)$/i.exec(value.trim());
  return match ? [value, match[1]] : [value];
}

export interface EntryValue {
  /** The env variable's or header's name. */
  name: string;
  /** As written in the config. */
  raw: string;
  /** Resolved. */
  value: string;
  references: { name: string; secret: boolean; value: string }[];
}

/** The secrets among resolved env and header entries, by the rules above. */
export function secretValues(entries: readonly EntryValue[]): string[] {
  const found = new Set<string>();
  for (const entry of entries) {
    if (!entry.value) continue;
    if (isCredentialName(entry.name)) withTokenPart(entry.value).forEach((v) => found.add(v));
    for (const reference of entry.references)
      if (reference.secret || isCredentialName(reference.name)) found.add(reference.value);
    for (const literal of entry.raw.split(/\$\{[^}]*\}/))
      for (const word of literal.split(/[\s"'=&?,;]+/)) if (looksLikeToken(word)) found.add(word);
  }
  found.delete('');
  return [...found];
}
