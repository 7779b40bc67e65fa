/**
 * Server icons as files the editor can show: a `data:` icon is decoded and written once, an https icon
 * is fetched once (iconFetch.ts) and kept. Files are named by a hash of their source, so a server
 * chooses nothing of the path. A refused icon is remembered for the session and not tried again; at
 * most FETCHES_PER_SESSION downloads are started, so a server listing many URLs cannot make the
 * kernel fetch without end. The folder is kept within its bounds (iconShelf.ts) when a session
 * first writes to it, and again every PRUNE_EVERY icons written.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fetchIcon, type IconFetchOptions } from './iconFetch';
import { judgeIcon, judgeImageBytes, type IconMime, type ServerIcon } from './iconPolicy';
import { ICON_SHELF, markUsed, pruneShelf, type ShelfBounds } from './iconShelf';

export const FETCHES_PER_SESSION = 256;
const PRUNE_EVERY = 64;

const EXTENSIONS: Record<IconMime, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

export interface CachedIcon {
  /** The file the icon is kept in. */
  path: string;
  mimeType: IconMime;
  bytes: Buffer;
}

export type IconResult = { ok: true; icon: CachedIcon } | { ok: false; reason: string };

export class IconCache {
  private readonly results = new Map<string, Promise<IconResult>>();
  private fetches = 0;
  private stored = 0;

  constructor(
    private readonly dir: string,
    private readonly fetchOptions: IconFetchOptions = {},
    private readonly bounds: ShelfBounds = ICON_SHELF,
  ) {}

  /** The icon as a file, or why it is not shown. Never throws. */
  resolve(icon: ServerIcon): Promise<IconResult> {
    const key = createHash('sha256').update(icon.src.trim()).digest('hex');
    let result = this.results.get(key);
    if (!result) {
      result = this.load(icon, key).catch((error: Error) => ({ ok: false, reason: error.message }));
      this.results.set(key, result);
    }
    return result;
  }

  private async load(icon: ServerIcon, key: string): Promise<IconResult> {
    const verdict = judgeIcon(icon);
    if (!verdict.ok) return verdict;
    const { source } = verdict;
    if (source.kind === 'data') return this.store(key, source.bytes, source.mimeType);
    const kept = await this.kept(key);
    if (kept) return { ok: true, icon: kept };
    if (this.fetches >= FETCHES_PER_SESSION)
      return { ok: false, reason: `more than ${FETCHES_PER_SESSION} icons to fetch` };
    this.fetches++;
    const fetched = await fetchIcon(source.url, this.fetchOptions);
    return fetched.ok ? this.store(key, fetched.bytes, fetched.mimeType) : fetched;
  }

  /** An icon fetched in an earlier session, checked again as if new. */
  private async kept(key: string): Promise<CachedIcon | undefined> {
    for (const [mimeType, extension] of Object.entries(EXTENSIONS)) {
      const path = join(this.dir, `${key}.${extension}`);
      const bytes = await readFile(path).catch(() => undefined);
      if (!bytes) continue;
      const judged = judgeImageBytes(bytes, mimeType);
      if (!judged.ok) continue;
      await markUsed(path);
      return { path, mimeType: judged.mimeType, bytes };
    }
    return undefined;
  }

  private async store(key: string, bytes: Buffer, mimeType: IconMime): Promise<IconResult> {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, `${key}.${EXTENSIONS[mimeType]}`);
    await writeFile(path, bytes);
    if (this.stored++ % PRUNE_EVERY === 0) await pruneShelf(this.dir, this.bounds);
    return { ok: true, icon: { path, mimeType, bytes } };
  }
}

/** The icon as a `data:` URI of its checked bytes, for a webview whose CSP allows only that. */
export function iconDataUri(icon: CachedIcon): string {
  return `data:${icon.mimeType};base64,${icon.bytes.toString('base64')}`;
}
