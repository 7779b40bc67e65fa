/**
 * What a person approves when they allow a workspace server to start: everything in its definition
 * that leaves the machine (command line, URL, headers and the `${…}` references in them, env, OAuth)
 * or decides what it may do (its policy keys). Any change to it asks again (issue 24, finding 10).
 */
import type { ConfiguredServer } from './types';

/**
 * A stable text of the approved definition. The source line is left out (a comment added above a
 * server changes nothing it does); key order is canonical, so reordering a table does not ask again.
 */
export function launchFingerprint(server: ConfiguredServer): string {
  const { id, transport, command, args, url, settings, policy } = server;
  return JSON.stringify({ id, transport, command, args, url, settings, policy }, sortedKeys);
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
