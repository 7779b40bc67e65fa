/**
 * The folder of kept icons stays bounded across sessions: servers come and go, and each may list
 * new icons. When it holds more than its bounds, the icons used longest ago go first (a file's
 * modification time is when the kernel last wrote or used it).
 */
import { readdir, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';

export interface ShelfBounds {
  maxFiles: number;
  maxBytes: number;
}

/** Enough for the icons of a few hundred servers' tools; at most ICON_MAX_BYTES each. */
export const ICON_SHELF: ShelfBounds = { maxFiles: 512, maxBytes: 8 * 1024 * 1024 };

/** Marks a kept icon as used now, so that it is kept before the ones unused for longer. */
export async function markUsed(path: string): Promise<void> {
  const now = new Date();
  await utimes(path, now, now).catch(() => undefined);
}

/** Removes the icons used longest ago until the folder is within its bounds. Never throws. */
export async function pruneShelf(dir: string, bounds: ShelfBounds): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = await Promise.all(
    names.map(async (name) => {
      const info = await stat(join(dir, name)).catch(() => undefined);
      return info?.isFile() ? { name, size: info.size, used: info.mtimeMs } : undefined;
    }),
  );
  const newestFirst = files
    .filter((f): f is NonNullable<typeof f> => f !== undefined)
    .sort((a, b) => b.used - a.used || a.name.localeCompare(b.name));
  let count = 0;
  let bytes = 0;
  for (const file of newestFirst) {
    count++;
    bytes += file.size;
    if (count > bounds.maxFiles || bytes > bounds.maxBytes)
      await rm(join(dir, file.name), { force: true }).catch(() => undefined);
  }
}
