/**
 * The kernel's OAuth side for all its http and sse servers: which client each server signs in with
 * (the kernel's own, a pre-registered one, or a machine client with the client_credentials grant),
 * where their sign-ins are kept, and who takes the person through a sign-in.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
} from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { ConfiguredServer } from '../config/types';
import { namedDestinationsOf } from '../config/namedHosts';
import { KernelError } from '../domain/errors';
import { authorizationKey, AuthorizationStore } from './authStore';
import { ServerAuthorization } from './serverAuthorization';
import type { UserAgent } from './userAgent';

/** `[servers.oauth]` secrets, resolved from their `${secret:…}` references. */
export interface ResolvedOAuthSecrets {
  clientSecret?: string;
  privateKey?: string;
}

export interface AuthorizationsOptions {
  store: AuthorizationStore;
  /** Who takes the person through a sign-in; none: signing in is not possible here. */
  userAgent?: UserAgent;
  /**
   * Whether a sign-in may start when a server asks, without the person asking first (a terminal
   * run, headless CI); otherwise only after *Sign in* on that server.
   */
  signInWithoutAsking: boolean;
}

export interface ProviderRequest {
  server: ConfiguredServer;
  secrets: ResolvedOAuthSecrets;
  /** Whether the person asked to sign in to this server. */
  signInRequested(): boolean;
  log(level: string, message: string): void;
}

export class Authorizations {
  constructor(private readonly options: AuthorizationsOptions) {}

  get storeDescription(): string {
    return this.options.store.secrets.description;
  }

  /** Whether sign-in is possible here at all (a browser, or headless). */
  get canSignIn(): boolean {
    return this.options.userAgent !== undefined;
  }

  keyOf(server: ConfiguredServer): string {
    return authorizationKey(server.id, server.url ?? '');
  }

  /** The OAuth client an http or sse server connects with; none for stdio or `enabled = false`. */
  async providerFor(request: ProviderRequest): Promise<OAuthClientProvider | undefined> {
    const { server, secrets } = request;
    const settings = server.settings.oauth;
    if (server.transport === 'stdio' || !server.url || settings?.enabled === false)
      return undefined;
    if (settings?.grantType === 'client_credentials') return machineClient(server, secrets);
    return ServerAuthorization.create({
      serverId: server.id,
      serverUrl: server.url,
      key: this.keyOf(server),
      settings: settings ?? {
        enabled: true,
        grantType: 'authorization_code',
        scopes: [],
        signingAlgorithm: 'ES256',
      },
      clientSecret: secrets.clientSecret,
      store: this.options.store,
      userAgent: this.options.userAgent,
      destinations: namedDestinationsOf(server),
      mayStartSignIn: () => this.options.signInWithoutAsking || request.signInRequested(),
      log: request.log,
    });
  }

  /** Forgets a server's sign-in; false when there was none. */
  signOut(server: ConfiguredServer): Promise<boolean> {
    return this.options.store.clear(this.keyOf(server));
  }

  async isSignedIn(server: ConfiguredServer): Promise<boolean> {
    return (await this.options.store.read(this.keyOf(server))).tokens !== undefined;
  }
}

/** The client_credentials grant (RFC 6749 §4.4), with a secret or a signed JWT (RFC 7523). */
function machineClient(
  server: ConfiguredServer,
  secrets: ResolvedOAuthSecrets,
): OAuthClientProvider {
  const settings = server.settings.oauth;
  const clientId = settings?.clientId;
  const scope = settings?.scopes.length ? settings.scopes.join(' ') : undefined;
  if (!clientId)
    throw new KernelError(
      'AuthRequired',
      `${server.id}: [servers.oauth] grant_type = "client_credentials" needs client_id`,
    );
  if (secrets.privateKey)
    return new PrivateKeyJwtProvider({
      clientId,
      privateKey: secrets.privateKey,
      algorithm: settings?.signingAlgorithm ?? 'ES256',
      clientName: 'MGP Kernel',
      scope,
    });
  if (secrets.clientSecret)
    return new ClientCredentialsProvider({
      clientId,
      clientSecret: secrets.clientSecret,
      clientName: 'MGP Kernel',
      scope,
    });
  throw new KernelError(
    'AuthRequired',
    `${server.id}: [servers.oauth] grant_type = "client_credentials" needs client_secret or private_key`,
  );
}
