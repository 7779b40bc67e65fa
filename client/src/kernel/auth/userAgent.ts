/**
 * Who takes the person through the authorization server's pages: the browser (the editor's
 * `openExternal`, or the CLI's opener), or, for CI and test authorization servers that approve
 * without a person, a headless agent that follows the redirects itself.
 */
import { spawn } from 'node:child_process';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** What a sign-in gives the user agent besides the authorization URL. */
export interface SignInContext {
  /** The fetch for the authorization server's pages: through the destination guard. */
  fetch: FetchLike;
  /** The sign-in's redirect URI: the only address the answer is delivered to. */
  redirectUrl: string;
}

export interface UserAgent {
  /** Shows `authorizationUrl` to the person, or follows it; the answer arrives at the loopback redirect. */
  open(authorizationUrl: URL, context: SignInContext): Promise<void>;
  /** The address the browser reaches the loopback redirect at (the editor's `asExternalUri`). */
  externalRedirect?(loopback: string): Promise<string>;
}

const MAX_REDIRECTS = 10;

/** Whether `url` is the sign-in's own redirect URI (its listener), whatever the query. */
function isRedirectUri(url: URL, redirectUrl: string): boolean {
  const redirect = new URL(redirectUrl);
  return url.origin === redirect.origin && url.pathname === redirect.pathname;
}

/**
 * Follows the authorization server's redirects with no person, up to the sign-in's redirect URI.
 * Each page is fetched through the destination guard the sign-in gives; only the redirect URI itself,
 * the kernel's own listener, is reached as it is. Works with servers that approve at once (test
 * servers, CI); a login page stops it with a clear error.
 */
export function headlessUserAgent(deliver: FetchLike = fetch): UserAgent {
  return {
    async open(authorizationUrl, context) {
      let url = authorizationUrl;
      for (let hop = 0; hop < MAX_REDIRECTS; hop++) {
        const response = await context.fetch(url, { redirect: 'manual' });
        await response.body?.cancel();
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          url = new URL(location, url);
          if (isRedirectUri(url, context.redirectUrl)) {
            await (await deliver(url)).body?.cancel();
            return;
          }
          continue;
        }
        throw new Error(
          `headless sign-in: ${url.origin} answered ${response.status} instead of redirecting: it needs a person to sign in (use the browser)`,
        );
      }
      throw new Error(`headless sign-in: more than ${MAX_REDIRECTS} redirects`);
    },
  };
}

/** The command that opens a URL in the default browser on this platform. */
function openerCommand(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

/** The CLI's browser: the platform's opener; the URL is printed too, for a browser elsewhere. */
export function systemBrowserUserAgent(print: (line: string) => void): UserAgent {
  return {
    open(authorizationUrl) {
      const url = authorizationUrl.toString();
      print(`Sign in to continue: ${url}`);
      const [command, args] = openerCommand(url);
      return new Promise((resolve) => {
        const child = spawn(command, args, { stdio: 'ignore', detached: true });
        child.on('error', () => {
          print(`(could not start ${command}: open the address above in a browser)`);
          resolve();
        });
        child.on('spawn', () => {
          child.unref();
          resolve();
        });
      });
    },
  };
}
