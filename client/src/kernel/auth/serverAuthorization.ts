/**
 * The kernel's OAuth client for one http or sse server (MCP 2025-11-25, Authorization), as the MCP
 * SDK's `OAuthClientProvider`: the SDK's `auth()` does discovery (RFC 9728 protected-resource
 * metadata from WWW-Authenticate or the well-known paths, path-based first; RFC 8414 then OpenID
 * discovery, with the 2025-03-26 fallbacks), Client ID Metadata Documents or dynamic registration,
 * PKCE S256, resource indicators (RFC 8707), the token endpoint's auth method, scope selection and
 * refresh. This class keeps what it learns in the store and takes the person through the sign-in:
 * a loopback redirect (RFC 8252 §7.3) and a user agent (browser or headless). It checks who answers
 * (issuer.ts: RFC 8414 §3.3, RFC 9207) and where the sign-in goes (net/destinationGuard.ts): the
 * authorization endpoint a server's metadata names is judged like any other request on its word.
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { MGP_KERNEL_VERSION } from '@shared/version';
import type { OAuthSettings } from '../config/types';
import { AUTH_REQUIRED, KernelError } from '../domain/errors';
import { checkDestination, type NamedDestinations } from '../net/destinationGuard';
import { guardedFetch } from '../net/guardedFetch';
import { AuthorizationStore, StoredAuthorization } from './authStore';
import {
  checkResponseIssuer,
  issuerExpectation,
  metadataIssuerProblem,
  sameIssuer,
} from './issuer';
import { LoopbackRedirect } from './loopbackRedirect';
import type { UserAgent } from './userAgent';

/** How long a person has to finish signing in. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export interface ServerAuthorizationOptions {
  serverId: string;
  serverUrl: string;
  key: string;
  settings: OAuthSettings;
  /** `client_secret`, resolved. */
  clientSecret?: string;
  store: AuthorizationStore;
  userAgent?: UserAgent;
  /** What the config names for this server's requests made on its word (config/namedHosts.ts). */
  destinations?: NamedDestinations;
  /** Whether a sign-in may be started now (the person asked for it, or a terminal is there to ask). */
  mayStartSignIn(): boolean;
  log(level: string, message: string): void;
}

/** What the server asked for, in words: the authorization server and the scopes. */
export function describeRequest(serverId: string, authorizationUrl: URL): string {
  const scope = authorizationUrl.searchParams.get('scope');
  return `${serverId} requires you to sign in at ${authorizationUrl.origin}${scope ? ` with scope "${scope}"` : ''}`;
}

export function authRequired(message: string): KernelError {
  return new KernelError('AuthRequired', message, AUTH_REQUIRED, {
    _mgp: { category: 'auth', retryable: true },
  });
}

export class ServerAuthorization implements OAuthClientProvider {
  private record: StoredAuthorization = {};
  private verifier: string | undefined;
  private pending: Promise<string> | undefined;
  private listener: LoopbackRedirect | undefined;
  private currentState: string | undefined;
  /** The server asked for more scope: the next sign-in is a new authorization, not a refresh. */
  private stepUp = false;
  /** …and a dynamically registered client registers again, for the wider scope. */
  private registerAgain = false;

  private constructor(
    private readonly options: ServerAuthorizationOptions,
    private readonly redirect: { local: string; external: string },
  ) {}

  /** Loads what the store holds and fixes the redirect URI (the one registered before, where known). */
  static async create(options: ServerAuthorizationOptions): Promise<ServerAuthorization> {
    const record = await options.store.read(options.key);
    const previous = record.loopbackUrl ?? record.redirectUrl;
    const port = previous ? Number(new URL(previous).port) : await freePort();
    const local = `http://127.0.0.1:${port}/callback`;
    const external = (await options.userAgent?.externalRedirect?.(local)) ?? local;
    const authorization = new ServerAuthorization(options, { local, external });
    // A client kept before clients were bound to their issuer belongs to the one discovery found then.
    const issuer = record.discovery?.authorizationServerUrl;
    if (record.client && !record.client.issuer && issuer)
      record.client = { ...record.client, issuer: String(issuer) };
    authorization.record = record;
    return authorization;
  }

  get redirectUrl(): string {
    return this.redirect.external;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata & { application_type: 'native' | 'web' } {
    const scope = this.options.settings.scopes.join(' ');
    return {
      // OpenID Connect Dynamic Client Registration §2: a loopback redirect is a native app's (RFC 8252).
      application_type: isLoopback(this.redirect.external) ? 'native' : 'web',
      client_name: 'MGP Kernel',
      client_uri: 'https://github.com/mgp-kernel/mgp-kernel',
      software_id: 'mgp-kernel',
      software_version: MGP_KERNEL_VERSION,
      redirect_uris: [this.redirect.external],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.options.clientSecret ? 'client_secret_basic' : 'none',
      ...(scope ? { scope } : {}),
    };
  }

  state(): string {
    this.currentState ??= randomBytes(24).toString('base64url');
    return this.currentState;
  }

  /** The configured client first (pre-registration), then the one registered before. */
  clientInformation(): OAuthClientInformationMixed | undefined {
    const { clientId } = this.options.settings;
    if (clientId)
      return {
        client_id: clientId,
        ...(this.options.clientSecret ? { client_secret: this.options.clientSecret } : {}),
      };
    // A dynamic registration may be limited to the scope it asked for: a step-up registers anew.
    const client = this.record.client;
    if (client && this.registeredHere(client) && !(this.registerAgain && this.record.dynamicClient))
      return client;
    // Registering only to stop at the sign-in would leave a stray client behind: stop here.
    if (!this.options.mayStartSignIn())
      throw authRequired(`${this.options.serverId} requires you to sign in (OAuth)`);
    return undefined;
  }

  /**
   * Whether `client` was registered with the authorization server discovery found now: a client of
   * another is not this one's (SEP-2352), and counts as none.
   */
  private registeredHere(client: OAuthClientInformationMixed): boolean {
    const current = this.record.discovery?.authorizationServerUrl;
    return !client.issuer || !current || sameIssuer(client.issuer, String(current));
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.registerAgain = false;
    if (this.options.settings.clientId) return;
    const dynamic = client.client_id !== this.options.settings.clientMetadataUrl;
    await this.update({
      client,
      dynamicClient: dynamic,
      redirectUrl: this.redirect.external,
      loopbackUrl: this.redirect.local,
    });
  }

  tokens(): OAuthTokens | undefined {
    const tokens = this.record.tokens;
    if (!tokens || !this.stepUp) return tokens;
    // A refresh keeps the grant's scope (RFC 6749 §6): hidden, so the SDK asks for a new grant.
    return { ...tokens, refresh_token: undefined };
  }

  /** A 403 `insufficient_scope` (step-up, MCP 2025-11-25 Authorization). */
  onInsufficientScope(): void {
    this.stepUp = true;
    this.registerAgain = true;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.stepUp = false;
    const expiresAt = tokens.expires_in ? Date.now() + tokens.expires_in * 1000 : undefined;
    // A refresh that returns no new refresh token keeps the old one (RFC 6749 §6).
    const refresh = tokens.refresh_token ?? this.record.tokens?.refresh_token;
    await this.update({
      tokens: { ...tokens, ...(refresh ? { refresh_token: refresh } : {}) },
      expiresAt,
    });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    const discovery = this.record.discovery;
    // Kept by an earlier version that did not check the issuer: discovered again, and judged.
    return discovery && !metadataIssuerProblem(discovery) ? discovery : undefined;
  }

  /** Called by the SDK's auth() after discovery, before any endpoint of the metadata is used. */
  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    const problem = metadataIssuerProblem(discovery);
    if (problem) throw new KernelError('AuthRequired', `${this.options.serverId}: ${problem}`);
    await this.update({ discovery });
  }

  /**
   * The server refused the access token it was sent. Its authorization server may have changed
   * (MCP 2025-11-25, Authorization; SEP-2352): what discovery found is looked up again, so a new
   * issuer means a new registration there, never the old server's client (the SDK binds each
   * client and token to the issuer it came from).
   */
  async onTokenRefused(): Promise<void> {
    if (!this.record.discovery) return;
    this.record = { ...this.record, discovery: undefined };
    await this.options.store.write(this.options.key, this.record);
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    const next = { ...this.record };
    if (scope === 'all' || scope === 'client') {
      delete next.client;
      delete next.dynamicClient;
    }
    if (scope === 'all' || scope === 'tokens') {
      delete next.tokens;
      delete next.expiresAt;
    }
    if (scope === 'all' || scope === 'discovery') delete next.discovery;
    this.record = next;
    await this.options.store.write(this.options.key, next);
  }

  saveCodeVerifier(verifier: string): void {
    // A sign-in under way keeps its verifier: a second 401 in the meantime joins it.
    if (!this.pending) this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE code verifier: no sign-in was started');
    return this.verifier;
  }

  /** The SDK's "send the person to the authorization server": starts the sign-in, once. */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.pending) return;
    const userAgent = this.options.userAgent;
    if (!userAgent || !this.options.mayStartSignIn())
      throw authRequired(describeRequest(this.options.serverId, authorizationUrl));
    const named = this.options.destinations;
    await checkDestination(authorizationUrl, { named });
    const state = authorizationUrl.searchParams.get('state') ?? this.state();
    const listener = await LoopbackRedirect.open(Number(new URL(this.redirect.local).port));
    if (listener.url !== this.redirect.local) {
      await listener.close();
      throw new Error(
        `the sign-in redirect port ${new URL(this.redirect.local).port} is taken by another program: try again`,
      );
    }
    this.listener = listener;
    const signal = AbortSignal.timeout(SIGN_IN_TIMEOUT_MS);
    const expected = issuerExpectation(this.record.discovery);
    this.pending = listener.waitForCode(state, signal, (params) =>
      checkResponseIssuer(params.get('iss'), expected),
    );
    this.pending.catch(() => undefined);
    this.options.log('info', describeRequest(this.options.serverId, authorizationUrl));
    try {
      await userAgent.open(authorizationUrl, {
        fetch: guardedFetch({ named }),
        redirectUrl: this.redirect.external,
      });
    } catch (error) {
      await this.endSignIn();
      throw error;
    }
  }

  /** Whether a sign-in was started and waits for its code. */
  get signInPending(): boolean {
    return this.pending !== undefined;
  }

  /** The authorization code of the sign-in under way, when the person (or headless agent) is done. */
  async authorizationCode(): Promise<string> {
    if (!this.pending) throw new Error('no sign-in under way');
    try {
      return await this.pending;
    } finally {
      await this.endSignIn();
    }
  }

  private async endSignIn(): Promise<void> {
    this.pending = undefined;
    this.currentState = undefined;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
  }

  /** Signs out: forgets the tokens (and a dynamically registered client). */
  async signOut(): Promise<void> {
    await this.endSignIn();
    this.record = {};
    await this.options.store.clear(this.options.key);
  }

  get hasTokens(): boolean {
    return this.record.tokens !== undefined;
  }

  private async update(change: Partial<StoredAuthorization>): Promise<void> {
    this.record = { ...this.record, ...change };
    await this.options.store.write(this.options.key, this.record);
  }

  async dispose(): Promise<void> {
    await this.endSignIn();
  }
}

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === '[::1]' || host === 'localhost';
}

async function freePort(): Promise<number> {
  const probe = await LoopbackRedirect.open(0);
  const port = Number(new URL(probe.url).port);
  await probe.close();
  return port;
}
