/**
 * `mgp auth login|logout|status [SERVER]`: OAuth sign-in to http and sse servers (MCP 2025-11-25,
 * Authorization). Sign-ins are kept in $XDG_STATE_HOME/mgp/oauth-tokens.json, readable by the user
 * only (cliAuthorization.ts).
 */
import { homedir } from 'node:os';
import { stateDirectory } from '../kernel/audit/location';
import type { ConfiguredServer } from '../kernel/config/model';
import { cliAuthorizations } from './cliAuthorization';
import { startCliKernel, workspaceFolderOf } from './cliKernel';
import type { Io } from './io';
import { loadCliConfig, ParsedArgs } from './options';

export const AUTH_USAGE = `mgp auth login SERVER     sign in to an http or sse server (browser; MGP_OAUTH_FLOW=headless
                          for authorization servers that approve without a person)
mgp auth logout SERVER    forget the server's sign-in
mgp auth status [--json]  which http and sse servers are signed in
Sign-ins are kept in $XDG_STATE_HOME/mgp/oauth-tokens.json (~/.local/state by default), readable by
you only.`;

const remote = (server: ConfiguredServer) => server.transport !== 'stdio' && Boolean(server.url);

async function login(parsed: ParsedArgs, io: Io, id: string): Promise<number> {
  const env = { ...process.env, MGP_OAUTH_FLOW: process.env.MGP_OAUTH_FLOW || 'browser' };
  const cli = await startCliKernel(parsed, io, id, { env });
  try {
    const server = cli.kernel.manager.get(id);
    if (!remote(server.config)) {
      io.err(
        `mgp auth: ${id} is a ${server.config.transport} server: there is nothing to sign in to`,
      );
      return 2;
    }
    if (server.state !== 'connected') return 1;
    io.out(`signed in to ${id} (${server.config.url})`);
    return 0;
  } finally {
    await cli.close();
  }
}

export async function runAuth(args: string[], parsed: ParsedArgs, io: Io): Promise<number> {
  const [action, id] = parsed.positional;
  if (action === 'login' && id) return login(parsed, io, id);
  const config = await loadCliConfig(parsed);
  const stateDir = stateDirectory({
    workspaceFolder: workspaceFolderOf(parsed),
    env: process.env,
    home: homedir(),
  });
  const authorizations = cliAuthorizations(stateDir, 'none', io);
  const servers = config.servers.filter(remote);
  if (action === 'logout' && id) {
    const server = servers.find((s) => s.id === id);
    if (!server) {
      io.err(`mgp auth: no http or sse server "${id}" is configured`);
      return 2;
    }
    const had = await authorizations.signOut(server);
    io.out(
      had
        ? `signed out of ${id}: its sign-in is removed from ${authorizations.storeDescription}`
        : `${id} had no sign-in`,
    );
    return 0;
  }
  if (action === 'status') {
    const rows = await Promise.all(
      servers.map(async (server) => ({
        id: server.id,
        url: server.url,
        signed_in: await authorizations.isSignedIn(server),
      })),
    );
    if (parsed.flags.has('--json')) io.out(JSON.stringify(rows, null, 2));
    else if (rows.length === 0) io.out('no http or sse servers are configured');
    else
      for (const row of rows)
        io.out(`${row.id}\t${row.signed_in ? 'signed in' : 'not signed in'}\t${row.url}`);
    return 0;
  }
  io.err(`mgp auth: ${args.join(' ') || 'no action'}?\n\n${AUTH_USAGE}`);
  return 2;
}
