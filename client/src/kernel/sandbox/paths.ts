/** Paths as config writes them (`~/…`, relative to the config file's folder) made absolute and real. */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export interface PathBase {
  home: string;
  /** The folder of the config file that named the path. */
  folder: string;
}

export function absolutePath(path: string, base: PathBase): string {
  if (path === '~') return base.home;
  if (path.startsWith('~/')) return join(base.home, path.slice(2));
  return isAbsolute(path) ? path : resolve(base.folder, path);
}

export interface ExistingPath {
  path: string;
  directory: boolean;
}

/**
 * Where the path really is (a symlink resolved: a mount covers what the link leads to, which every
 * way in reaches), or undefined when it does not exist (there is nothing to read or write there).
 */
export function existingPath(path: string): ExistingPath | undefined {
  try {
    const real = realpathSync(path);
    return { path: real, directory: statSync(real).isDirectory() };
  } catch {
    return undefined;
  }
}
