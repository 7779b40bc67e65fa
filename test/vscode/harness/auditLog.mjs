// The kernel's audit log as a window's profile keeps it, read by the scenarios that check it.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The audit records of the kernel's log in this window's profile, oldest first. */
export function auditRecords(dirs) {
  const state = join(dirs.xdg, 'state/mgp');
  if (!existsSync(state)) return [];
  return readdirSync(state).flatMap((key) => {
    const audit = join(state, key, 'audit');
    if (!existsSync(audit)) return [];
    return readdirSync(audit)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .flatMap((name) => readFileSync(join(audit, name), 'utf8').split('\n'))
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  });
}
