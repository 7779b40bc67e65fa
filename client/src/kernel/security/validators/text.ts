/** Small text helpers shared by the validators: word splitting of names and excerpts for messages. */

/**
 * `runShellCommand`, `run_shell-command`, `run.shell` → ['run', 'shell', 'command']; trailing digits are
 * dropped (`python3` → `python`), so version numbers do not hide a word.
 */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.replace(/\d+$/, '') || word);
}

const CONTEXT_BEFORE = 20;
const MAX_MATCH = 60;
const CONTEXT_AFTER = 20;

/** A one-line quote of `text` around `[index, index + length)`, with … where it was cut. */
export function excerpt(text: string, index = 0, length = text.length): string {
  const start = Math.max(0, index - CONTEXT_BEFORE);
  const end = Math.min(text.length, index + Math.min(length, MAX_MATCH) + CONTEXT_AFTER);
  const body = text
    .slice(start, end)
    .replace(/\r\n|\r|\n/g, '⏎')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '·');
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

/** Where a violation is, for a message: the pointer, or "the arguments" for the call as a whole. */
export function place(pointer: string): string {
  return pointer === '' ? 'the arguments' : pointer;
}

/** A Map with a size cap, for caches keyed by names that come from servers. */
export function boundedSet<K, V>(cache: Map<K, V>, key: K, value: V, cap = 512): V {
  if (cache.size >= cap) cache.clear();
  cache.set(key, value);
  return value;
}
