import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { formatOfConfigFile } from '@shared/configFiles';
import { loadKernelConfig, mergeConfigFiles, parseConfigText } from '../kernel/config/load';
import type { KernelConfig } from '../kernel/config/model';

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

/** `--name value` and `--flag` options; `--json`, `--help` and the like take no value. */
export function parseArgs(
  args: string[],
  booleans: readonly string[] = ['--json', '--help'],
): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) positional.push(arg);
    else if (booleans.includes(arg)) flags.set(arg, true);
    else if (i + 1 < args.length) flags.set(arg, args[++i]);
    else throw new Error(`${arg} needs a value`);
  }
  return { positional, flags };
}

export function stringFlag(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.flags.get(name);
  return typeof value === 'string' ? value : undefined;
}

/** `--config FILE` reads that file only; otherwise the lookup order from `--cwd` (or the current folder). */
export async function loadCliConfig(parsed: ParsedArgs): Promise<KernelConfig> {
  const file = stringFlag(parsed, '--config');
  if (file) {
    const path = resolve(file);
    const location = { path, format: formatOfConfigFile(basename(path)), origin: 'env' as const };
    return mergeConfigFiles([parseConfigText(await readFile(path, 'utf8'), location)]);
  }
  const folder = resolve(stringFlag(parsed, '--cwd') ?? process.cwd());
  return loadKernelConfig({ workspaceFolders: [folder], home: homedir(), env: process.env });
}
