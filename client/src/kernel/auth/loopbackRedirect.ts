/**
 * The loopback redirect of a native app's sign-in (RFC 8252 §7.3): an HTTP listener on 127.0.0.1
 * that takes the authorization server's redirect once, checks its `state` (RFC 6749 §10.12) and
 * whatever else the sign-in asks of it (its issuer, RFC 9207), and hands back the authorization code. It answers the browser with a short page and closes.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const CALLBACK_PATH = '/callback';

export class AuthorizationDenied extends Error {}

function page(title: string, text: string): string {
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head><body style="font-family:sans-serif;margin:3em"><h1>${escape(title)}</h1><p>${escape(text)}</p></body></html>`;
}

/** Refuses an authorization response (throws AuthorizationDenied) that is not the one expected. */
export type ResponseCheck = (params: URLSearchParams) => void;

export class LoopbackRedirect {
  private expectedState: string | undefined;
  private check: ResponseCheck | undefined;
  private settle: { resolve(code: string): void; reject(error: Error): void } | undefined;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {
    server.on('request', (request, response) => this.onRequest(request, response));
  }

  /** Listens on 127.0.0.1 at `port` (0: any free port; a taken port falls back to any). */
  static async open(port = 0): Promise<LoopbackRedirect> {
    const server = createServer();
    const listen = (p: number) =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(p, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    try {
      await listen(port);
    } catch (error) {
      if (port === 0) throw error;
      await listen(0);
    }
    const { port: bound } = server.address() as AddressInfo;
    return new LoopbackRedirect(server, `http://127.0.0.1:${bound}${CALLBACK_PATH}`);
  }

  /**
   * Waits for the redirect carrying `state`; rejects on an error redirect, on one `check` refuses,
   * or when `signal` aborts.
   */
  waitForCode(state: string, signal?: AbortSignal, check?: ResponseCheck): Promise<string> {
    this.expectedState = state;
    this.check = check;
    return new Promise<string>((resolve, reject) => {
      this.settle = { resolve, reject };
      signal?.addEventListener(
        'abort',
        () => reject(new AuthorizationDenied('sign-in cancelled')),
        {
          once: true,
        },
      );
    });
  }

  private onRequest(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', this.url);
    if (url.pathname !== CALLBACK_PATH || request.method !== 'GET') {
      response.writeHead(404).end();
      return;
    }
    const params = url.searchParams;
    const answer = (status: number, title: string, text: string) =>
      response
        .writeHead(status, {
          'Content-Type': 'text/html; charset=utf-8',
          'Cache-Control': 'no-store',
        })
        .end(page(title, text));
    // A redirect without our state is not the answer to our request (RFC 6749 §10.12): ignore it.
    if (!this.expectedState || params.get('state') !== this.expectedState) {
      answer(
        400,
        'Sign-in not recognised',
        'This sign-in does not match the one MGP Kernel started.',
      );
      return;
    }
    this.expectedState = undefined;
    try {
      this.check?.(params);
    } catch (refusal) {
      answer(400, 'Sign-in refused', (refusal as Error).message);
      this.settle?.reject(refusal as Error);
      return;
    }
    const error = params.get('error');
    const code = params.get('code');
    if (error || !code) {
      const description = params.get('error_description');
      answer(
        400,
        'Sign-in failed',
        `${error ?? 'no code'}${description ? `: ${description}` : ''}`,
      );
      this.settle?.reject(
        new AuthorizationDenied(
          `the authorization server refused: ${error ?? 'no authorization code'}${description ? ` (${description})` : ''}`,
        ),
      );
    } else {
      answer(200, 'Signed in', 'MGP Kernel has your sign-in. You can close this tab.');
      this.settle?.resolve(code);
    }
  }

  close(): Promise<void> {
    this.settle?.reject(new AuthorizationDenied('sign-in abandoned'));
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
