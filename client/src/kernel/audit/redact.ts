/**
 * Redaction of secrets from audit details before they reach the disk.
 *
 * Three rules, each replacing the secret with `[REDACTED]`:
 * 1. Known secret values, registered with `addSecret` (resolved `${secret:NAME}` values and the
 *    secret-like values of a server's env and headers, config/secretLike.ts), wherever they appear in `details`: whole strings, substrings of
 *    longer strings, object keys, and numbers whose digits hold one. Values shorter than 4 characters
 *    are not registered: they would redact half the log.
 * 2. The value of a key that names a credential, at any depth (so in a `headers` object too),
 *    whatever its type: `authorization`, `proxy-authorization`, `cookie`, `set-cookie`, `x-api-key`,
 *    `api_key`, `apikey`, `token`, `access_token`, `password`, `secret`, and a few more (see
 *    CREDENTIAL_KEYS). Keys are compared without case, `-` or `_` (`apiKey`, `API-KEY`,
 *    `Access_Token` all match). A `{ name, value }` pair (HAR-style header lists) whose `name` is such
 *    a key has its `value` redacted too.
 * 3. Inside strings: `Bearer <token>` and `Basic <token>` (the scheme is kept), and `key: value` /
 *    `key=value` for the keys of rule 2 (headers pasted into text, query strings, JSON in a string).
 *    A token after Bearer or Basic must look like one, to leave prose alone ("Basic configuration"):
 *    at least 8 characters of the token68 alphabet, with a digit, a symbol of `-._~+/=`, or a capital
 *    after the first letter.
 *
 * The result is a copy: the event given is not changed. Cycles become "[Circular]".
 *
 * The copy is also bounded, after redaction, so that no event can flood the log (a server's 2 MB
 * error message, a huge argument): strings are cut at MAX_DETAIL_STRING characters, arrays and
 * objects at MAX_DETAIL_ITEMS entries, nesting at MAX_DETAIL_DEPTH, and all the strings of one event
 * together at MAX_DETAIL_CHARS; each cut says so (`…[truncated: 2,093,056 more characters]`).
 */
export const REDACTED = '[REDACTED]';
export const MIN_SECRET_LENGTH = 4;
export const MAX_DETAIL_STRING = 4096;
export const MAX_DETAIL_ITEMS = 256;
export const MAX_DETAIL_DEPTH = 16;
export const MAX_DETAIL_CHARS = 64 * 1024;

const count = (n: number) => n.toLocaleString('en-US');

/** What is left of the characters one event's details may hold. */
interface Budget {
  chars: number;
}

const shortKey = (key: string) => (key.length > 256 ? `${key.slice(0, 256)}…` : key);

/** A string cut to what the budget allows, with a mark saying how much was cut. */
function bounded(text: string, budget: Budget): string {
  const keep = Math.max(0, Math.min(MAX_DETAIL_STRING, budget.chars));
  budget.chars -= Math.min(text.length, keep);
  return text.length <= keep
    ? text
    : `${text.slice(0, keep)}…[truncated: ${count(text.length - keep)} more characters]`;
}

export const CREDENTIAL_KEYS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api_key',
  'apikey',
  'token',
  'access_token',
  'password',
  'secret',
  'refresh_token',
  'id_token',
  'auth_token',
  'x-auth-token',
  'session_token',
  'client_secret',
  'private_key',
  'passwd',
];

const normalizeKey = (key: string): string => key.toLowerCase().replace(/[-_]/g, '');
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Rule 3 needs a separator or a scheme word: most strings (paths, names, prose) skip its patterns. */
const MAY_HOLD_CREDENTIAL = /[:=]|bearer|basic/i;
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+)([A-Za-z0-9\-._~+/]{8,}=*)/gi;
const looksLikeToken = (token: string): boolean =>
  /[0-9\-._~+/=]/.test(token) || /[A-Z]/.test(token.slice(1));

function keyValuePattern(keys: readonly string[]): RegExp {
  const names = keys
    .map((key) => escapeRegExp(key).replace(/[-_]/g, '[-_]?'))
    .sort((a, b) => b.length - a.length);
  return new RegExp(
    `\\b(${names.join('|')})(["']?\\s*[:=]\\s*["']?)((?:(?:Bearer|Basic|Digest|Token)\\s+)?[^\\s"'&,;]+)`,
    'gi',
  );
}

export class Redactor {
  private readonly secrets = new Set<string>();
  private secretPattern: RegExp | undefined;
  private readonly keys: Set<string>;
  private readonly keyValue: RegExp;

  constructor(options: { secrets?: Iterable<string>; credentialKeys?: readonly string[] } = {}) {
    const keys = options.credentialKeys ?? CREDENTIAL_KEYS;
    this.keys = new Set(keys.map(normalizeKey));
    this.keyValue = keyValuePattern(keys);
    for (const secret of options.secrets ?? []) this.addSecret(secret);
  }

  /** Registers a secret value; false (and ignored) when shorter than MIN_SECRET_LENGTH. */
  addSecret(value: string): boolean {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return false;
    if (!this.secrets.has(value)) {
      this.secrets.add(value);
      this.secretPattern = undefined;
    }
    return true;
  }

  get secretCount(): number {
    return this.secrets.size;
  }

  isCredentialKey(key: string): boolean {
    return this.keys.has(normalizeKey(key));
  }

  /** Rule 1 only: registered secret values. */
  redactSecrets(text: string): string {
    const secrets = text.length < MIN_SECRET_LENGTH ? undefined : this.pattern();
    return secrets ? text.replace(secrets, REDACTED) : text;
  }

  /** Rules 1 and 3. */
  redactString(text: string): string {
    if (text.length < MIN_SECRET_LENGTH) return text;
    const out = this.redactSecrets(text);
    if (!MAY_HOLD_CREDENTIAL.test(out)) return out;
    return out
      .replace(AUTH_SCHEME, (whole, scheme: string, space: string, token: string) =>
        looksLikeToken(token) ? `${scheme}${space}${REDACTED}` : whole,
      )
      .replace(this.keyValue, (whole, key: string, separator: string, value: string) =>
        value === REDACTED ? whole : `${key}${separator}${REDACTED}`,
      );
  }

  /** A redacted, bounded copy of `value` (any JSON-like value). */
  redact<T>(value: T): T {
    return this.walk(value, [], { chars: MAX_DETAIL_CHARS }) as T;
  }

  /** A copy of `event` with its `details` redacted. */
  redactEvent<E extends { details?: Record<string, unknown> }>(event: E): E {
    return event.details === undefined ? event : { ...event, details: this.redact(event.details) };
  }

  private pattern(): RegExp | undefined {
    if (this.secrets.size === 0) return undefined;
    this.secretPattern ??= new RegExp(
      [...this.secrets]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|'),
      'g',
    );
    return this.secretPattern;
  }

  private walk(input: unknown, stack: object[], budget: Budget): unknown {
    if (typeof input === 'string') return bounded(this.redactString(input), budget);
    if (typeof input === 'number' || typeof input === 'bigint') {
      const digits = String(input);
      return this.redactSecrets(digits) !== digits ? REDACTED : input;
    }
    if (typeof input !== 'object' || input === null) return input;
    if (typeof (input as { toJSON?: unknown }).toJSON === 'function')
      return this.walk((input as { toJSON(): unknown }).toJSON(), stack, budget);
    if (stack.includes(input)) return '[Circular]';
    if (stack.length >= MAX_DETAIL_DEPTH) return '…[truncated: nested too deep]';
    stack.push(input);
    try {
      return Array.isArray(input)
        ? this.walkArray(input, stack, budget)
        : this.walkObject(input as Record<string, unknown>, stack, budget);
    } finally {
      stack.pop();
    }
  }

  private walkArray(array: unknown[], stack: object[], budget: Budget): unknown[] {
    const out = array.slice(0, MAX_DETAIL_ITEMS).map((item) => this.walk(item, stack, budget));
    if (array.length > MAX_DETAIL_ITEMS)
      out.push(`…[truncated: ${count(array.length - MAX_DETAIL_ITEMS)} more items]`);
    return out;
  }

  /** The copy has its keys in sorted order: the canonical order of chain.ts, whose hashing is then fastest. */
  private walkObject(
    object: Record<string, unknown>,
    stack: object[],
    budget: Budget,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const namedCredential = typeof object.name === 'string' && this.isCredentialKey(object.name);
    const keys = Object.keys(object).sort();
    for (const key of keys.length > MAX_DETAIL_ITEMS ? keys.slice(0, MAX_DETAIL_ITEMS) : keys) {
      const value = object[key];
      const hide =
        value !== null &&
        value !== undefined &&
        (this.isCredentialKey(key) || (namedCredential && key === 'value'));
      out[shortKey(this.redactSecrets(key))] = hide ? REDACTED : this.walk(value, stack, budget);
    }
    if (keys.length > MAX_DETAIL_ITEMS)
      out['…'] = `[truncated: ${count(keys.length - MAX_DETAIL_ITEMS)} more keys]`;
    return out;
  }
}
