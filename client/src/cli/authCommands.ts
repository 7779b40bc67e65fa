/**
 * `mgp auth login|logout|status [SERVER]`: OAuth sign-in to http and sse servers (MCP 2025-11-25,
 * Authorization). Sign-ins are kept in the OS keyring, or without one in
 * $XDG_STATE_HOME/mgp/oauth-tokens.json, readable by the user only (cliSecrets.ts).
 */
import { homedir } from 'node:os';
import { type ConfiguredServer, stateDirectory } from '../kernel';
import { cliAuthorizations } from './cliAuthorization';
import { startCliKernel } from './cliKernel';
import { Flags, parseCommandLine, UsageError } from './flags';
import type { Io } from './io';
import {
  CONFIG_FLAGS,
  configOptions,
  ConfigOptions,
  JSON_FLAG,
  KERNEL_FLAGS,
  KernelOptions,
  kernelOptions,
  loadCliConfig,
  workspaceFolderOf,
} from './options';

export const AUTH_USAGE = `mgp auth login SERVER     sign in to an http or sse server (browser; MGP_OAUTH_FLOW=headless
                          for authorization servers that approve without a person)
mgp auth logout SERVER    forget the server's sign-in
mgp auth status [--json]  which http and sse servers are signed in
Sign-ins are kept in the OS keyring (the Secret Service on Linux, the Keychain on macOS, the
Credential Manager on Windows). Where none answers, or with MGP_OAUTH_TOKEN_STORE=file, they are
kept in $XDG_STATE_HOME/mgp/oauth-tokens.json (~/.local/state by default), readable by you only.`;

const remote = (server: ConfiguredServer) => server.transport !== 'stdio' && Boolean(server.url);

/** Each action's flags. */
const ACTIONS = {
  login: KERNEL_FLAGS,
  logout: CONFIG_FLAGS,
  status: { ...JSON_FLAG, ...CONFIG_FLAGS },
} satisfies Record<string, Flags>;

async function login(options: KernelOptions, io: Io, id: string): Promise<number> {
  const env = { ...process.env, MGP_OAUTH_FLOW: process.env.MGP_OAUTH_FLOW || 'browser' };
  const cli = await startCliKernel(options, io, id, { env });
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

/** `mgp auth login|logout SERVER`, `mgp auth status`: each action's flags parsed once. */
export async function runAuth(args: string[], io: Io): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'login' && action !== 'logout' && action !== 'status') {
    io.err(`mgp auth: ${args.join(' ') || 'no action'}?\n\n${AUTH_USAGE}`);
    return 2;
  }
  const line = parseCommandLine(`mgp auth ${action}`, rest, ACTIONS[action]);
  if (line.help) {
    io.out(AUTH_USAGE);
    return 0;
  }
  const [id, ...extra] = line.positionals;
  if (extra.length || (action === 'status' ? id !== undefined : id === undefined))
    throw new UsageError(action === 'status' ? 'takes no server' : 'name one server');
  if (action === 'login') return login(kernelOptions(line.values), io, id);
  const options = configOptions(line.values);
  const json = action === 'status' && (line.values as { json?: boolean }).json === true;
  return action === 'logout' ? logout(options, io, id) : status(options, io, json);
}

async function authorizationsOf(options: ConfigOptions, io: Io) {
  const config = await loadCliConfig(options);
  const stateDir = stateDirectory({
    workspaceFolder: workspaceFolderOf(options),
    env: process.env,
    home: homedir(),
  });
  return {
    authorizations: cliAuthorizations(stateDir, 'none', io),
    servers: config.servers.filter(remote),
  };
}

async function logout(options: ConfigOptions, io: Io, id: string): Promise<number> {
  const { authorizations, servers } = await authorizationsOf(options, io);
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

async function status(options: ConfigOptions, io: Io, json: boolean): Promise<number> {
  const { authorizations, servers } = await authorizationsOf(options, io);
  const rows = await Promise.all(
    servers.map(async (server) => ({
      id: server.id,
      url: server.url,
      signed_in: await authorizations.isSignedIn(server),
    })),
  );
  if (json) io.out(JSON.stringify(rows, null, 2));
  else if (rows.length === 0) io.out('no http or sse servers are configured');
  else {
    for (const row of rows)
      io.out(`${row.id}\t${row.signed_in ? 'signed in' : 'not signed in'}\t${row.url}`);
    io.out(`sign-ins are kept in ${authorizations.storeDescription}`);
  }
  return 0;
}
