/**
 * A secret longer than one keyring entry takes is kept in several. Windows' Credential Manager
 * holds at most 2,560 bytes per credential, which the keyring library fills with UTF-16: 1,280
 * characters, less than a token set with a JWT access token and a refresh token often is. So a
 * long value is cut into parts on every platform, each within that limit: the entry named by the
 * key holds a header with the number of parts and the first part; the others are `key#1`, `key#2`…
 */

/** The most characters of a secret in one entry, header included (Windows: 2,560 bytes, UTF-16). */
export const ENTRY_MAX_CHARS = 1280;
/** A header no token set starts with (they are JSON objects). */
const HEADER = '\u0001mgp-parts:';
const PART_CHARS = ENTRY_MAX_CHARS - HEADER.length - 8;

/** The name of the entry that holds part `index` (1 and up) of the key's value. */
export const partKey = (key: string, index: number) => `${key}#${index}`;

/** The entries to write for a value: the first under the key itself, then the parts in order. */
export function splitValue(value: string): string[] {
  if (value.length <= ENTRY_MAX_CHARS && !value.startsWith(HEADER)) return [value];
  const parts: string[] = [];
  for (let at = 0; at < value.length; at += PART_CHARS)
    parts.push(value.slice(at, at + PART_CHARS));
  return [`${HEADER}${parts.length}\n${parts[0]}`, ...parts.slice(1)];
}

/** How many parts the value in the key's own entry says there are (1 for a value kept whole). */
export function partCount(first: string): number {
  if (!first.startsWith(HEADER)) return 1;
  const count = Number.parseInt(first.slice(HEADER.length), 10);
  return Number.isSafeInteger(count) && count >= 1 ? count : 1;
}

/**
 * The value from the key's own entry and its other parts, read in order; undefined when a part is
 * missing (a write cut short): a sign-in that can't be read whole is treated as absent.
 */
export async function joinValue(
  first: string,
  readPart: (index: number) => Promise<string | undefined>,
): Promise<string | undefined> {
  const count = partCount(first);
  if (count === 1 && !first.startsWith(HEADER)) return first;
  const parts = [first.slice(first.indexOf('\n') + 1)];
  for (let index = 1; index < count; index++) {
    const part = await readPart(index);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return parts.join('');
}
