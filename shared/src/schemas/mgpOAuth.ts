/**
 * `[servers.oauth]`: how the kernel signs in to an `http` or `sse` server that requires OAuth 2.1
 * (MCP 2025-11-25, Authorization). Everything is optional: by default the kernel discovers the
 * authorization server (RFC 9728, RFC 8414, OpenID discovery), registers itself dynamically
 * (RFC 7591) and asks for the scopes the server names.
 */
import { described, enumOf, JsonSchema } from './schemaTypes';
import { JWS_ALGORITHMS, OAUTH_GRANT_TYPES } from './vocabulary';

const SECRET_REFERENCE =
  'Write it as `${secret:NAME}` (secret storage) or `${VAR}`, never literally.';

export const serverOAuthSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      default: true,
      ...described(
        'Whether the kernel signs in with OAuth when the server answers 401 (MCP Authorization).',
        'Whether the kernel signs in with OAuth 2.1 when the server answers `401 Unauthorized` (MCP 2025-11-25, Authorization). Set `false` for a server reached with a static `Authorization` header only. Default: `true`.',
      ),
    },
    client_id: {
      type: 'string',
      minLength: 1,
      ...described(
        'A client id registered with the authorization server beforehand (MCP Authorization, client registration).',
        'The id of a client registered with the authorization server beforehand (MCP 2025-11-25, Authorization: pre-registration). Left out, the kernel uses `client_metadata_url` where the server accepts it, else dynamic client registration (RFC 7591).',
      ),
      examples: ['mgp-kernel'],
    },
    client_secret: {
      type: 'string',
      ...described(
        'The secret of the pre-registered client, by reference such as ${secret:NAME} (MCP Authorization; RFC 6749 §2.3.1).',
        `The secret of the pre-registered \`client_id\`, sent as the authorization server supports (\`client_secret_basic\` or \`client_secret_post\`) (MCP Authorization; RFC 6749 §2.3.1). ${SECRET_REFERENCE}`,
      ),
      examples: ['${secret:TOOLS_CLIENT_SECRET}'],
    },
    client_metadata_url: {
      type: 'string',
      format: 'uri',
      pattern: '^https://[^/]+/.+',
      ...described(
        'The https URL of a Client ID Metadata Document you publish, used as the client id where supported (MCP Authorization, SEP-991).',
        'The `https` URL of a Client ID Metadata Document you publish for the kernel (MCP 2025-11-25, Authorization: Client ID Metadata Documents). Used as the client id when the authorization server says `client_id_metadata_document_supported`.',
      ),
      examples: ['https://example.com/mgp-kernel/client.json'],
    },
    scopes: {
      type: 'array',
      uniqueItems: true,
      items: {
        type: 'string',
        minLength: 1,
        ...described(
          'One OAuth scope (MCP Authorization).',
          'One OAuth scope (MCP Authorization).',
        ),
      },
      ...described(
        'Scopes to ask for when neither the server (WWW-Authenticate) nor its metadata names any (MCP Authorization, scope selection).',
        "Scopes to ask for when neither the server's `WWW-Authenticate` challenge nor its protected-resource metadata (`scopes_supported`) names any (MCP 2025-11-25, Authorization: scope selection).",
      ),
      examples: [['read', 'write']],
    },
    grant_type: {
      type: 'string',
      ...enumOf(OAUTH_GRANT_TYPES),
      default: 'authorization_code',
      ...described(
        'authorization_code (a person signs in in the browser) or client_credentials (a machine client, no person) (MCP Authorization).',
        'How the kernel obtains tokens (MCP 2025-11-25, Authorization):\n\n- `authorization_code`: a person signs in in the browser (PKCE S256)\n- `client_credentials`: a machine client with `client_id` and `client_secret` or `private_key`, no person\n\nDefault: `authorization_code`.',
      ),
    },
    private_key: {
      type: 'string',
      ...described(
        'A PEM private key for private_key_jwt client authentication, by reference such as ${secret:NAME} (MCP Authorization extensions; RFC 7523).',
        `A PEM private key: the client authenticates with a signed JWT (\`private_key_jwt\`) (MCP Authorization extensions; RFC 7523) instead of \`client_secret\`. ${SECRET_REFERENCE}`,
      ),
      examples: ['${secret:TOOLS_CLIENT_KEY}'],
    },
    signing_algorithm: {
      type: 'string',
      ...enumOf(JWS_ALGORITHMS),
      default: 'ES256',
      ...described(
        'The JWS algorithm of private_key (MCP Authorization extensions; RFC 7518).',
        'The JWS algorithm the `private_key` signs with (MCP Authorization extensions; RFC 7518). Default: `ES256`.',
      ),
    },
  },
  ...described(
    'How the kernel signs in to this http or sse server with OAuth 2.1 (MCP Authorization).',
    'How the kernel signs in to this `http` or `sse` server with OAuth 2.1 (MCP 2025-11-25, Authorization). Not needed for most servers: the kernel discovers the authorization server and registers itself. Give `client_id` (and `client_secret`) for a client registered beforehand.',
  ),
};
