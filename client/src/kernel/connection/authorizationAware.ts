/**
 * The kernel's OAuth provider is told what the server's answers say of its token before the SDK
 * reacts to them: a 403 `insufficient_scope` asks for a new authorization with more scope (MCP
 * 2025-11-25, Authorization: step-up; a refresh cannot widen a grant, RFC 6749 §6), and a 401 to a
 * request that carried a token says the token was refused, perhaps because the server now trusts
 * another authorization server (SEP-2352): the provider then looks the authorization server up again.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** What the kernel's provider (auth/serverAuthorization.ts) listens for. */
interface TokenListener {
  onInsufficientScope(): void;
  onTokenRefused(): Promise<void>;
}

function sentBearerToken(init: RequestInit | undefined): boolean {
  return /^bearer\s/i.test(new Headers(init?.headers).get('authorization') ?? '');
}

export function authorizationAware(base: FetchLike, provider: OAuthClientProvider): FetchLike {
  const listener = provider as Partial<TokenListener>;
  if (!listener.onInsufficientScope && !listener.onTokenRefused) return base;
  return async (url, init) => {
    const response = await base(url, init);
    const challenge = response.headers.get('www-authenticate') ?? '';
    if (response.status === 403 && /error\s*=\s*"?insufficient_scope/.test(challenge))
      listener.onInsufficientScope?.();
    if (response.status === 401 && sentBearerToken(init)) await listener.onTokenRefused?.();
    return response;
  };
}
