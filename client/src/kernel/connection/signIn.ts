/**
 * The SDK's transports start an OAuth sign-in on a 401 (or a 403 `insufficient_scope`, step-up) and
 * fail the request with `UnauthorizedError` while the person signs in. This waits for that sign-in,
 * hands its code to the transport (`finishAuth`), and has the request tried again: a bounded number
 * of times, so a server that never accepts stops the loop (MCP 2025-11-25, Authorization: scope
 * challenge handling).
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

/** Sign-ins one request may go through: the first, then one step-up. */
export const MAX_SIGN_INS_PER_REQUEST = 2;

interface FinishesSignIn {
  finishAuth(code: string): Promise<void>;
}

/** The kernel's provider (ServerAuthorization) as this needs it. */
interface SignInSource {
  readonly signInPending: boolean;
  authorizationCode(): Promise<string>;
}

function isSignInSource(provider: unknown): provider is SignInSource {
  return typeof (provider as SignInSource | undefined)?.authorizationCode === 'function';
}

export interface SignInRetry {
  transport: FinishesSignIn;
  /** After a failed attempt: true when a sign-in finished and the request should be tried again. */
  afterFailure(error: unknown, attempt: number): Promise<boolean>;
  /** Runs `request`, again after each sign-in the server asks for, within the limit. */
  run<T>(request: () => Promise<T>): Promise<T>;
}

export function signInRetry(
  provider: OAuthClientProvider | undefined,
  transport: () => FinishesSignIn,
): SignInRetry {
  const afterFailure = async (error: unknown, attempt: number): Promise<boolean> => {
    if (!(error instanceof UnauthorizedError) || attempt >= MAX_SIGN_INS_PER_REQUEST) return false;
    if (!isSignInSource(provider) || !provider.signInPending) return false;
    const code = await provider.authorizationCode();
    await transport().finishAuth(code);
    return true;
  };
  return {
    get transport() {
      return transport();
    },
    afterFailure,
    async run(request) {
      for (let attempt = 0; ; attempt++) {
        try {
          return await request();
        } catch (error) {
          if (!(await afterFailure(error, attempt))) throw error;
        }
      }
    },
  };
}
