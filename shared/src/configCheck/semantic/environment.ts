import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { RuleEnvironment } from './context';

/** The real environment: process.env, PATH look-ups (cached per PATH) and the file system. */
export function defaultEnvironment(
  baseDir?: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): RuleEnvironment {
  const cache = new Map<string, boolean>();
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  const extensions =
    process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  const executable = (path: string) => {
    try {
      accessSync(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  return {
    baseDir,
    env,
    commandOnPath(command) {
      let found = cache.get(command);
      if (found === undefined) {
        found = dirs.some((dir) => extensions.some((ext) => executable(join(dir, command + ext))));
        cache.set(command, found);
      }
      return found;
    },
    fileExists: (path) => existsSync(path),
  };
}
