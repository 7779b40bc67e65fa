/**
 * Who may use the gateway's HTTP endpoint, and as whom. On loopback for one person: the request
 * guard's loopback Host and Origin and the token `mgp serve` printed. As a team gateway: OAuth 2.1
 * (resourceServer.ts), the Host and Origin of the public resource (or loopback, behind a reverse
 * proxy on the same machine), and each request in the name of the person its token names. `/metrics`
 * also takes the metrics token, for a scraper that has no OAuth client.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { hostnameOf, loopbackHost, loopbackOrigin, refusal, tokenMatches } from './requestGuard';
import type { ResourceServer } from './resourceServer';

export type Purpose = 'mcp' | 'metrics';

export type Admission =
  | { ok: true; user?: string }
  | { ok: false; status: 401 | 403; message: string; challenge?: string };

export interface RequestAuth {
  /** At once for the loopback token; a promise while a token's signature is checked. */
  admit(headers: IncomingHttpHeaders, purpose: Purpose): Admission | Promise<Admission>;
  /** Documents served to anyone, by path (RFC 9728 metadata); undefined for any other path. */
  wellKnown(path: string): Record<string, unknown> | undefined;
  /** Whether it may listen beyond loopback. */
  readonly team: boolean;
}

/** One person on loopback, with the printed token. */
export function tokenAuth(token: string): RequestAuth {
  return {
    team: false,
    admit: (headers) => {
      const refused = refusal(headers, token);
      return refused
        ? { ok: false, ...refused, ...(refused.status === 401 ? { challenge: 'Bearer' } : {}) }
        : { ok: true };
    },
    wellKnown: () => undefined,
  };
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** A team's gateway: OAuth tokens of the team's authorization server, checked for this resource. */
export function oauthAuth(server: ResourceServer, metricsToken: string): RequestAuth {
  // Read at each request: the resource may be known only once the gateway listens.
  const resourceUrl = () => new URL(server.resource);
  const metadataPath = () => new URL(server.metadataUrl).pathname;
  const challenge = (error?: string) =>
    `Bearer ${error ? `error="invalid_token", error_description="${error.replace(/["\\]/g, '')}", ` : ''}resource_metadata="${server.metadataUrl}"`;
  return {
    team: true,
    async admit(headers, purpose) {
      const resource = resourceUrl();
      const host = headers.host;
      if (!loopbackHost(host) && hostnameOf(host ?? '') !== resource.hostname.toLowerCase())
        return {
          ok: false,
          status: 403,
          message: `Forbidden: the Host header must name ${resource.host}`,
        };
      const origin = first(headers.origin);
      if (origin !== undefined && origin !== resource.origin && !loopbackOrigin(origin))
        return {
          ok: false,
          status: 403,
          message: `Forbidden: requests from origin ${origin} are not accepted`,
        };
      if (purpose === 'metrics' && tokenMatches(headers.authorization, metricsToken))
        return { ok: true };
      const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(first(headers.authorization) ?? '')?.[1];
      if (!bearer)
        return {
          ok: false,
          status: 401,
          message:
            "Unauthorized: sign in with the team's authorization server and send its access token",
          challenge: challenge(),
        };
      const verdict = await server.verify(bearer);
      if (!verdict.ok)
        return {
          ok: false,
          status: 401,
          message: `Unauthorized: the access token is not valid here (${verdict.reason})`,
          challenge: challenge(verdict.reason),
        };
      return { ok: true, user: verdict.holder.user };
    },
    wellKnown: (path) =>
      path === metadataPath() || path === '/.well-known/oauth-protected-resource'
        ? server.metadata()
        : undefined,
  };
}
