/**
 * The flags commands share, and what they become: where the config is read from (`--config`,
 * `--cwd`), and how a kernel the command starts answers what it would ask a person (`--approve`,
 * `--elicit`).
 */
import { homedir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { formatOfConfigFile } from '@shared/configFiles';
import {
  type KernelConfig,
  loadKernelConfig,
  mergeConfigFiles,
  parseConfigText,
  readManagedPolicy,
} from '../kernel';
import { FlagValues, oneOf, UsageError } from './flags';
import type { ApproveFlag, ElicitFlag } from './terminalInteraction';

export const CONFIG_FLAGS = {
  config: { type: 'string', value: 'FILE' },
  cwd: { type: 'string', value: 'DIR' },
} as const;

/** `--trust`: the folder's servers start for this run without asking (workspaceTrust.ts). */
export const TRUST_FLAG = { trust: { type: 'boolean' } } as const;

/** Every command that starts servers: their requests are answered by these when no one can be asked. */
export const KERNEL_FLAGS = {
  ...CONFIG_FLAGS,
  ...TRUST_FLAG,
  approve: { type: 'string', value: 'once|session' },
  elicit: { type: 'string', value: 'accept-defaults|decline' },
} as const;

export const JSON_FLAG = { json: { type: 'boolean' } } as const;

/** `--config FILE` (that file only) or `--cwd DIR` (the lookup order from that folder). */
export interface ConfigOptions {
  config?: string;
  cwd?: string;
}

export interface KernelOptions extends ConfigOptions {
  /** Start the workspace's servers for this run without asking. */
  trust?: boolean;
  approve?: ApproveFlag;
  elicit?: ElicitFlag;
}

export function configOptions(values: FlagValues<typeof CONFIG_FLAGS>): ConfigOptions {
  return { config: values.config, cwd: values.cwd };
}

export function kernelOptions(values: FlagValues<typeof KERNEL_FLAGS>): KernelOptions {
  return {
    ...configOptions(values),
    trust: values.trust === true,
    approve: oneOf('approve', values.approve, ['once', 'session'] as const),
    elicit: oneOf('elicit', values.elicit, ['accept-defaults', 'decline'] as const),
  };
}

/**
 * `--config FILE` reads that file only; otherwise the lookup order from `--cwd` (or the current
 * folder). Either way the machine's managed policy applies over it.
 */
export async function loadCliConfig(options: ConfigOptions): Promise<KernelConfig> {
  if (options.config) {
    const path = resolve(options.config);
    const format = formatOfConfigFile(basename(path));
    if (format === 'policy')
      throw new UsageError(
        `${path} is a managed policy, not a server config: check it with mgp check`,
      );
    const location = { path, format, origin: 'env' as const };
    const managed = await readManagedPolicy({ env: process.env });
    return mergeConfigFiles([parseConfigText(await readFile(path, 'utf8'), location)], managed);
  }
  const folder = resolve(options.cwd ?? process.cwd());
  return loadKernelConfig({ workspaceFolders: [folder], home: homedir(), env: process.env });
}

/** The workspace folder the state belongs to: --cwd, the folder of --config, or the current one. */
export function workspaceFolderOf(options: ConfigOptions): string {
  return resolve(
    options.cwd ?? (options.config ? dirname(resolve(options.config)) : process.cwd()),
  );
}
