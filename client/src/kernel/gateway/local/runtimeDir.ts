/**
 * A directory only this user can enter, for local sockets: `$XDG_RUNTIME_DIR/mgp` when the session
 * has one, else `mgp-<uid>` in the temporary directory. A directory that is not ours, or that others
 * can enter, is refused rather than used (another user could have made it first).
 */
import { lstat, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export async function privateRuntimeDir(env: Record<string, string | undefined>): Promise<string> {
  const runtime = env.XDG_RUNTIME_DIR;
  const dir =
    runtime && isAbsolute(runtime)
      ? join(runtime, 'mgp')
      : join(tmpdir(), `mgp-${process.getuid?.() ?? 'user'}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stat = await lstat(dir);
  if (!stat.isDirectory() || stat.isSymbolicLink())
    throw new Error(`${dir} is not a directory: refusing to put a socket there`);
  if (process.getuid && stat.uid !== process.getuid())
    throw new Error(`${dir} belongs to another user: refusing to put a socket there`);
  if ((stat.mode & 0o077) !== 0)
    throw new Error(`${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`);
  return dir;
}
