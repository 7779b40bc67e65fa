import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root: the nearest folder above `from` with a package.json (out/ has none). */
export function repoRoot(from: string = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}
