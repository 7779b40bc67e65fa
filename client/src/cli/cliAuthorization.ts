/**
 * Sign-in for the `mgp` command (MCP 2025-11-25, Authorization). Sign-ins are kept per user in the
 * OS keyring, or where none answers in a file only the user can read, under the state folder
 * ($XDG_STATE_HOME/mgp/oauth-tokens.json); cliSecrets.ts chooses.
 * How a sign-in runs is MGP_OAUTH_FLOW: `browser` (the default on a terminal: the system browser
 * with a loopback redirect), `headless` (no person: for CI and authorization servers that approve
 * at once, such as the conformance suite's), or `none` (a server that asks fails with what it asked).
 */
import { dirname, join } from 'node:path';
import {
  Authorizations,
  AuthorizationStore,
  headlessUserAgent,
  systemBrowserUserAgent,
  UserAgent,
} from '../kernel';
import { CliSecrets } from './cliSecrets';
import type { Io } from './io';

export type SignInFlow = 'browser' | 'headless' | 'none';

export function signInFlow(
  env: Record<string, string | undefined>,
  interactive: boolean,
): SignInFlow {
  const value = env.MGP_OAUTH_FLOW;
  if (value === undefined || value === '') return interactive ? 'browser' : 'none';
  if (value === 'browser' || value === 'headless' || value === 'none') return value;
  throw new Error(`MGP_OAUTH_FLOW must be browser, headless or none, not "${value}"`);
}

export function tokenFile(stateDir: string): string {
  return join(dirname(stateDir), 'oauth-tokens.json');
}

export function cliAuthorizations(
  stateDir: string,
  flow: SignInFlow,
  io: Io,
  env: Record<string, string | undefined> = process.env,
): Authorizations {
  const userAgent: UserAgent | undefined =
    flow === 'headless'
      ? headlessUserAgent()
      : flow === 'browser'
        ? systemBrowserUserAgent((line) => io.err(line))
        : undefined;
  return new Authorizations({
    store: new AuthorizationStore(new CliSecrets(tokenFile(stateDir), (line) => io.err(line), env)),
    userAgent,
    signInWithoutAsking: flow !== 'none',
  });
}
