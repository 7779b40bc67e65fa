/**
 * Atomic, durable file replacement: the reader of `path` sees either the old content or the new,
 * never a mix, even when the process is killed or the machine loses power mid-write.
 *
 * The recipe: write a temp file in the same directory (a rename is atomic only within one file
 * system), fsync it, rename it over the target, then fsync the directory so that the rename itself
 * is on disk.
 */
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const TEMP_SUFFIX = '.tmp';

function tempPathFor(path: string): string {
  return join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`,
  );
}

/**
 * fsync a directory, so that entries created, renamed or removed in it survive a crash. Windows
 * cannot open a directory for this (NTFS journals its metadata), and some file systems refuse it:
 * there is then nothing more durable to ask for.
 */
export async function fsyncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!['EINVAL', 'EISDIR', 'EPERM', 'ENOTSUP', 'EBADF'].some((code) => isCode(error, code)))
      throw error;
  } finally {
    await handle?.close();
  }
}

/** Replaces `path` with `data` atomically and durably (temp file, fsync, rename, fsync of the directory). */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  mode = 0o600,
): Promise<void> {
  const temp = tempPathFor(path);
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await fsyncDirectory(dirname(path));
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isCode(error, 'EPERM');
  }
}

/**
 * Removes temp files that `writeFileAtomic(path)` left behind in a process that died mid-write.
 * Temp files of live processes are left alone: they may be about to be renamed.
 */
export async function removeStaleTemps(path: string): Promise<string[]> {
  const prefix = `.${basename(path)}.`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (!Number.isInteger(pid) || processAlive(pid)) continue;
    await unlink(join(dirname(path), name)).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}

export function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
