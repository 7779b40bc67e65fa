/**
 * The team gateway as an OAuth 2.1 resource server (MCP 2025-11-25, Authorization): it publishes its
 * protected-resource metadata (RFC 9728) naming the team's authorization server, and accepts a
 * request only with an access token that server signed for this resource: a JWT access token
 * (RFC 9068) checked against the issuer's published keys, its issuer, its audience (this
 * resource, RFC 8707), its lifetime and, when asked, its scopes. The person it names is the
 * caller's user.
 */
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';

export interface ResourceServerOptions {
  /** The authorization server's issuer identifier (RFC 8414), e.g. https://sso.example.com. */
  issuer: string;
  /**
   * This gateway's MCP endpoint as clients reach it (the audience tokens must carry); when left out,
   * the address it listens on, given with `listening` once known.
   */
  resource?: string;
  /** The claim that names the person: `preferred_username`, `email`, then `sub` unless given. */
  userClaim?: string;
  /** Scopes every token must carry. */
  requiredScopes?: string[];
}

export interface TokenHolder {
  user: string;
  clientId?: string;
  scopes: string[];
}

export type TokenVerdict = { ok: true; holder: TokenHolder } | { ok: false; reason: string };

const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'EdDSA',
];

/** The authorization server's metadata: RFC 8414 first, OpenID Connect Discovery second. */
async function issuerMetadata(issuer: string): Promise<{ issuer: string; jwks_uri: string }> {
  const base = issuer.replace(/\/$/, '');
  const origin = new URL(issuer);
  const path = origin.pathname === '/' ? '' : origin.pathname;
  const candidates = [
    `${origin.origin}/.well-known/oauth-authorization-server${path}`,
    `${base}/.well-known/openid-configuration`,
  ];
  for (const url of candidates) {
    const response = await fetch(url, { headers: { accept: 'application/json' } }).catch(
      () => undefined,
    );
    if (!response?.ok) continue;
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    // RFC 8414 §3.3: the metadata must name the issuer it was asked for.
    if (metadata.issuer !== issuer)
      throw new Error(`${url} names issuer ${String(metadata.issuer)}, not ${issuer}`);
    if (typeof metadata.jwks_uri !== 'string') throw new Error(`${url} names no jwks_uri`);
    return { issuer, jwks_uri: metadata.jwks_uri };
  }
  throw new Error(`the authorization server ${issuer} publishes no metadata`);
}

export class ResourceServer {
  private constructor(
    private readonly options: ResourceServerOptions & { resource?: string },
    private readonly keys: ReturnType<typeof createRemoteJWKSet>,
  ) {}

  /** Reads the authorization server's metadata; throws when it cannot be had. */
  static async discover(options: ResourceServerOptions): Promise<ResourceServer> {
    const metadata = await issuerMetadata(options.issuer);
    return new ResourceServer(options, createRemoteJWKSet(new URL(metadata.jwks_uri)));
  }

  get resource(): string {
    if (!this.options.resource) throw new Error('the resource URL is not known yet');
    return this.options.resource;
  }

  /** The gateway listens at `url`: the resource, unless one was given. */
  listening(url: string): void {
    this.options.resource ??= url;
  }

  /** RFC 9728 §2: what a client reads to find where to get a token for this resource. */
  metadata(): Record<string, unknown> {
    return {
      resource: this.resource,
      authorization_servers: [this.options.issuer],
      bearer_methods_supported: ['header'],
      resource_name: 'MGP Kernel team gateway',
      ...(this.options.requiredScopes?.length
        ? { scopes_supported: this.options.requiredScopes }
        : {}),
    };
  }

  /** RFC 9728 §3.1: the metadata's address for this resource (its path after the well-known part). */
  get metadataUrl(): string {
    const url = new URL(this.resource);
    return `${url.origin}/.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`;
  }

  async verify(token: string): Promise<TokenVerdict> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, {
        issuer: this.options.issuer,
        audience: this.resource,
        algorithms: ALGORITHMS,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
    const scopes =
      typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    const missing = (this.options.requiredScopes ?? []).filter((s) => !scopes.includes(s));
    if (missing.length) return { ok: false, reason: `the token lacks scope ${missing.join(' ')}` };
    const claims = this.options.userClaim
      ? [this.options.userClaim]
      : ['preferred_username', 'email', 'sub'];
    const user = claims.map((claim) => payload[claim]).find((v) => typeof v === 'string' && v);
    if (typeof user !== 'string') return { ok: false, reason: 'the token names no user' };
    const clientId = typeof payload.client_id === 'string' ? payload.client_id : undefined;
    return { ok: true, holder: { user, clientId, scopes } };
  }
}
