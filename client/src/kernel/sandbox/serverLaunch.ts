/** A configured stdio server's process inside its sandbox, as its policy says (launch.ts). */
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import type { ConfiguredServer } from '../config/types';
import type { ResolvedEnvironment } from '../connection/environment';
import type { AddressGuard } from './hostBridges';
import { planLaunch, type Launch } from './launch';

export interface ServerLaunchDeps {
  hostEnv: Readonly<Record<string, string | undefined>>;
  /** The folders the server may write besides its policy's own: the workspace's. */
  workspaceFolders: readonly string[];
  /** Where its proxy may connect (hostBridges.ts). */
  addressGuard: AddressGuard;
}

export function launchServer(
  config: ConfiguredServer,
  resolved: ResolvedEnvironment,
  deps: ServerLaunchDeps,
): Promise<Launch> {
  return planLaunch({
    serverId: config.id,
    command: config.command ?? '',
    args: config.args,
    env: resolved.env,
    cwd: config.settings.cwd,
    policy: config.settings.sandbox,
    configFolder: dirname(config.source.file),
    workspaceFolders: deps.workspaceFolders,
    home: deps.hostEnv.HOME || homedir(),
    hostEnv: deps.hostEnv,
    guard: deps.addressGuard,
  });
}
