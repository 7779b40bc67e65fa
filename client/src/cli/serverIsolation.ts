/** How each configured stdio server would run, for `mgp servers`: sandboxed with what, or why not. */
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { type ConfiguredServer, foreseeIsolation, type Isolation } from '../kernel';

export async function isolationOf(
  server: ConfiguredServer,
  workspaceFolder: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Isolation | undefined> {
  if (server.transport !== 'stdio') return undefined;
  return foreseeIsolation({
    serverId: server.id,
    policy: server.settings.sandbox,
    configFolder: dirname(server.source.file),
    workspaceFolders: [workspaceFolder],
    home: env.HOME || homedir(),
    hostEnv: env,
  });
}
