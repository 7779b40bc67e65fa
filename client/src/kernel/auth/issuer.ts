/**
 * Who answers a sign-in. The authorization server's metadata must name the issuer it was asked for
 * (RFC 8414 §3.3; OpenID Connect Discovery §4.3): a document naming another is refused before any of
 * its endpoints is used. An authorization response that carries `iss` must carry that issuer, and
 * must carry it when the server says it does (RFC 9207 §2.4): otherwise the code is not taken to any
 * token endpoint (a mix-up attack).
 */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { AuthorizationDenied } from './loopbackRedirect';

/** What the authorization response of a sign-in must say of its issuer (RFC 9207). */
export interface IssuerExpectation {
  issuer: string;
  /** `authorization_response_iss_parameter_supported`: the response must carry `iss`. */
  required: boolean;
}

/** Text from a server, quoted in an error: bounded. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

/**
 * Whether two spellings name the same issuer. A trailing `/` is the one difference allowed: both
 * give the same well-known URL, and the SDK looks a server's root up as `https://as/`.
 */
export function sameIssuer(a: string, b: string): boolean {
  return a === b || a === `${b}/` || `${a}/` === b;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Why discovery's authorization server metadata may not be used, if it may not: its `issuer` is not
 * the issuer identifier the metadata was looked up for. Without protected-resource metadata naming
 * one, the authorization server is the server's origin, its path discarded (MCP 2025-03-26,
 * Authorization §2.3.2): there an issuer on that origin is taken, and no other.
 */
export function metadataIssuerProblem(state: OAuthDiscoveryState): string | undefined {
  const metadata = state.authorizationServerMetadata;
  if (!metadata) return undefined;
  const asked = String(state.authorizationServerUrl);
  const named = metadata.issuer;
  if (sameIssuer(named, asked)) return undefined;
  const legacy = !state.resourceMetadata?.authorization_servers?.length;
  if (legacy && originOf(named) !== undefined && originOf(named) === originOf(asked))
    return undefined;
  return `the authorization server metadata for ${quoted(asked)} names the issuer ${quoted(named)} (RFC 8414 §3.3): refused`;
}

export function issuerExpectation(
  state: OAuthDiscoveryState | undefined,
): IssuerExpectation | undefined {
  const metadata = state?.authorizationServerMetadata as
    (Record<string, unknown> & { issuer: string }) | undefined;
  if (!metadata) return undefined;
  return {
    issuer: metadata.issuer,
    required: metadata.authorization_response_iss_parameter_supported === true,
  };
}

/**
 * Refuses an authorization response whose `iss` is missing where required or is not the issuer.
 * Compared as strings, never normalised (RFC 9207 §2.4).
 */
export function checkResponseIssuer(
  iss: string | null,
  expected: IssuerExpectation | undefined,
): void {
  if (!expected) return;
  if (iss === null) {
    if (expected.required)
      throw new AuthorizationDenied(
        `the authorization response has no iss, though ${quoted(expected.issuer)} says it sends one (RFC 9207): refused`,
      );
    return;
  }
  if (iss !== expected.issuer)
    throw new AuthorizationDenied(
      `the authorization response comes from the issuer ${quoted(iss)}, not ${quoted(expected.issuer)} (RFC 9207): refused`,
    );
}
