/**
 * One writer per log. Two writers (two windows on the same folder) would fork the chain, so the
 * writer holds `writer.lock` (created exclusively, holding its pid and host) while the log is open.
 * A lock left by a process that no longer runs on this host is taken over; one held by a live process,
 * or by another host (not checkable), makes the open fail with `Locked`. (A pid reused by an unrelated
 * process after a crash keeps the lock held until that process ends: it errs on the safe side.)
 */
import { hostname } from 'node:os';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isCode } from '../store/atomicFile';
import { AuditError } from './errors';

export const LOCK_FILE = 'writer.lock';

interface LockContent {
  pid: number;
  host: string;
  since: string;
}

export interface WriterLock {
  release(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isCode(error, 'EPERM');
  }
}

async function readHolder(path: string): Promise<LockContent | undefined> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as LockContent;
    return Number.isInteger(value.pid) ? value : { pid: 0, host: hostname(), since: '' };
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    return { pid: 0, host: hostname(), since: '' }; // unreadable: a crash mid-creation, stale
  }
}

/** The live process holding the lock of `dir`, if any. */
export async function lockHolder(dir: string): Promise<LockContent | undefined> {
  const holder = await readHolder(join(dir, LOCK_FILE));
  if (!holder) return undefined;
  return holder.host !== hostname() || alive(holder.pid) ? holder : undefined;
}

async function createLock(path: string, content: LockContent): Promise<boolean> {
  // Written to a temp file and hard-linked into place: the lock appears with its content, or not at all.
  // Where hard links are not supported, an exclusive create (briefly empty: read as stale) does.
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(content), { mode: 0o600 });
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if (isCode(error, 'EEXIST')) return false;
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].some((code) => isCode(error, code)))
      throw error;
    return writeFile(path, JSON.stringify(content), { flag: 'wx', mode: 0o600 }).then(
      () => true,
      (failure: unknown) => (isCode(failure, 'EEXIST') ? false : Promise.reject(failure)),
    );
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Moves a stale lock out of the way; puts it back when it turns out to be a live one taken meanwhile. */
async function removeStale(path: string): Promise<void> {
  const aside = `${path}.stale-${process.pid}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return;
    throw error;
  }
  const moved = await readHolder(aside);
  if (moved && moved.pid !== 0 && alive(moved.pid)) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

export async function acquireWriterLock(dir: string): Promise<WriterLock> {
  const path = join(dir, LOCK_FILE);
  const content: LockContent = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createLock(path, content))
      return { release: () => unlink(path).catch(() => undefined) };
    const holder = await lockHolder(dir);
    if (holder)
      throw new AuditError(
        'Locked',
        `the audit log in ${dir} is being written by process ${holder.pid} on ${holder.host} (since ${holder.since})`,
      );
    await removeStale(path);
  }
  throw new AuditError('Locked', `could not take the writer lock of the audit log in ${dir}`);
}
