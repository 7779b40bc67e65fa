/**
 * The model endpoint's API key, bound to the origin (scheme://host:port) it was entered for: it is
 * sent to that origin only, never to another one a setting names later (issue 24, finding 2). A
 * request asks for its key at the moment it is made, for the URL it goes to.
 */

/** A key as the endpoint options take it: a fixed one (the CLI's env), or one asked for per request URL. */
export type ApiKey = string | ((baseUrl: string) => Promise<string | undefined>);

/** The key to send with a request to `baseUrl`, or none. */
export async function apiKeyFor(
  key: ApiKey | undefined,
  baseUrl: string,
): Promise<string | undefined> {
  return typeof key === 'function' ? key(baseUrl) : key;
}

/** A stored key and the origin it was entered for; no origin for a key stored before binding. */
export interface StoredKey {
  key: string;
  origin?: string;
}

/** What may be done with the stored key for a request to an endpoint. */
export type KeyDecision =
  | { kind: 'send'; key: string | undefined }
  | { kind: 'other-origin'; boundTo: string; origin: string }
  | { kind: 'unbound'; key: string; origin: string };

const FORMAT = 'mgp-bound-key/1';

/** The origin a URL connects to, as a WHATWG parser reads it; only http(s) endpoints have one. */
export function endpointOrigin(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`the model endpoint "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`the model endpoint "${url}" is not an http(s) URL`);
  return parsed.origin;
}

/** The text to keep in secret storage for a key entered for `url`. */
export function storedKeyText(url: string, key: string): string {
  return JSON.stringify({ format: FORMAT, origin: endpointOrigin(url), key });
}

/** Reads what secret storage holds: a bound key, or a key stored as plain text before binding. */
export function parseStoredKey(text: string | undefined): StoredKey | undefined {
  if (text === undefined || text === '') return undefined;
  if (text.startsWith('{')) {
    try {
      const value = JSON.parse(text) as Record<string, unknown>;
      if (
        value?.format === FORMAT &&
        typeof value.origin === 'string' &&
        typeof value.key === 'string'
      )
        return { key: value.key, origin: value.origin };
    } catch {
      // not ours: a plain key that happens to start with a brace
    }
  }
  return { key: text };
}

/** Whether the stored key may go to `url`: only to the origin it was bound to. */
export function judgeStoredKey(stored: StoredKey | undefined, url: string): KeyDecision {
  const origin = endpointOrigin(url);
  if (!stored) return { kind: 'send', key: undefined };
  if (stored.origin === undefined) return { kind: 'unbound', key: stored.key, origin };
  if (stored.origin !== origin) return { kind: 'other-origin', boundTo: stored.origin, origin };
  return { kind: 'send', key: stored.key || undefined };
}
