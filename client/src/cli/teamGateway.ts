/**
 * `mgp serve --http PORT` as a team's gateway: `--bind ADDRESS` beyond loopback only with
 * `--oauth-issuer` (the team's authorization server; the gateway is its resource server), each
 * caller known by the person its token names (`agent.gateway.<client>@<user>`), limits per person,
 * and `--metrics` for Prometheus.
 */
import { isLoopbackAddress, ResourceServer } from '../kernel';
import { UsageError, wholeNumber } from './flags';

export const TEAM_FLAGS = {
  bind: { type: 'string', value: 'ADDRESS' },
  'oauth-issuer': { type: 'string', value: 'URL' },
  resource: { type: 'string', value: 'URL' },
  'user-claim': { type: 'string', value: 'CLAIM' },
  'oauth-scope': { type: 'string', value: 'SCOPE' },
  'user-sessions': { type: 'string', value: 'N' },
  'user-rate': { type: 'string', value: 'N' },
  metrics: { type: 'boolean' },
} as const;

export const TEAM_USAGE = `  --bind ADDRESS listens there instead of 127.0.0.1; beyond loopback only with --oauth-issuer.
  --oauth-issuer URL makes it a team's gateway: an OAuth 2.1 resource server (RFC 9728 metadata at
  /.well-known/oauth-protected-resource/mcp) taking the JWT access tokens that authorization server
  signs for --resource URL (default: the address it listens on; behind a reverse proxy, the public
  URL). Each caller is agent.gateway.<client>@<user>, the user from the token's --user-claim
  (default preferred_username, then email, then sub); --oauth-scope SCOPE is required of every
  token. --user-sessions N (default 8) sessions and --user-rate N (default 600) requests a minute
  per person. --metrics serves /metrics (Prometheus text format) beside /mcp: OAuth tokens, or the
  metrics token it prints, for a scraper.`;

export interface TeamOptions {
  bind?: string;
  oauth?: { issuer: string; resource?: string; userClaim?: string; scopes: string[] };
  perUser?: { sessions: number; requestsPerMinute: number };
  metrics: boolean;
}

type TeamValues = {
  [K in keyof typeof TEAM_FLAGS]?: (typeof TEAM_FLAGS)[K] extends { type: 'boolean' }
    ? boolean
    : string;
};

function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--${name} takes a URL, not "${value}"`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackAddress(url.hostname)))
    throw new UsageError(`--${name} must be https (http only on loopback): ${value}`);
  return value;
}

export function teamOptions(values: TeamValues, http: boolean): TeamOptions {
  const given = Object.keys(TEAM_FLAGS).filter(
    (name) => values[name as keyof TeamValues] !== undefined,
  );
  if (!http && given.length)
    throw new UsageError(`--${given[0]} is for --http: the gateway on stdio has one user`);
  const issuer = values['oauth-issuer'];
  if (!issuer)
    for (const name of [
      'resource',
      'user-claim',
      'oauth-scope',
      'user-sessions',
      'user-rate',
    ] as const)
      if (values[name] !== undefined) throw new UsageError(`--${name} is for --oauth-issuer`);
  if (values.bind !== undefined && !isLoopbackAddress(values.bind) && !issuer)
    throw new UsageError(
      `--bind ${values.bind} needs --oauth-issuer: beyond loopback every caller must sign in with the team's authorization server`,
    );
  return {
    bind: values.bind,
    metrics: values.metrics === true,
    ...(issuer && {
      oauth: {
        issuer: httpUrl('oauth-issuer', issuer),
        resource: values.resource && httpUrl('resource', values.resource),
        userClaim: values['user-claim'],
        scopes: values['oauth-scope'] ? [values['oauth-scope']] : [],
      },
      perUser: {
        sessions: wholeNumber('user-sessions', values['user-sessions'], 8, 1),
        requestsPerMinute: wholeNumber('user-rate', values['user-rate'], 600, 1),
      },
    }),
  };
}

/** The team's authorization server, read before the gateway listens: it must answer. */
export async function teamResourceServer(
  options: TeamOptions,
): Promise<ResourceServer | undefined> {
  if (!options.oauth) return undefined;
  const { issuer, resource, userClaim, scopes } = options.oauth;
  return ResourceServer.discover({ issuer, resource, userClaim, requiredScopes: scopes });
}
