/**
 * Tool and prompt names in the alphabet model APIs accept for a function name: `[A-Za-z0-9_-]`, 1 to
 * 64 characters (OpenAI's rule; Anthropic's and Gemini's are no stricter on these). A name that
 * already keeps to it stays as it is; one that does not has its other characters written `_`, and a
 * short hash of what it was added, so two names that clean to the same text stay apart. A qualified
 * name joins server and tool with `__`, which a plain part never holds, so it splits one way only.
 */
import { createHash } from 'node:crypto';
import { toolIdOf } from '../domain/toolId';

const MAX_LENGTH = 64;
/** Words of letters, digits and `-`, joined by single underscores. */
const PLAIN = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const HASH_LENGTH = 6;

const hashOf = (text: string) =>
  createHash('sha256').update(text).digest('hex').slice(0, HASH_LENGTH);

const cleaned = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');

/** `cleanedText_hash`, cut so that the whole is at most 64 characters. */
function hashed(text: string, original: string): string {
  return `${cleaned(text).slice(0, MAX_LENGTH - HASH_LENGTH - 1)}_${hashOf(original)}`;
}

/** A server's own name in the safe alphabet. */
export function safeName(name: string): string {
  return PLAIN.test(name) && name.length <= MAX_LENGTH ? name : hashed(name, name);
}

/**
 * A kernel tool's name in the safe alphabet: its dotted words joined by `_` (`mgp_tools_discover`).
 * No server's item is listed under one of these (names.ts), so they need no hash.
 */
export function safeKernelName(name: string): string {
  const joined = name.replace(/\./g, '_');
  return PLAIN.test(joined) && joined.length <= MAX_LENGTH ? joined : safeName(name);
}

/** A server's item under its qualified name in the safe alphabet: `server__tool`. */
export function safeQualifiedName(serverId: string, name: string): string {
  const joined = `${serverId}__${name}`;
  if (PLAIN.test(serverId) && PLAIN.test(name) && joined.length <= MAX_LENGTH) return joined;
  return hashed(joined, toolIdOf(serverId, name));
}
