/**
 * Where a server's OAuth state is kept between runs: the client registration, the tokens and the
 * discovery results (MCP 2025-11-25, Authorization). The editor keeps it in SecretStorage; the CLI
 * in the OS keyring where there is one, else in a file only the user can read (fileSecrets.ts).
 */
import { createHash } from 'node:crypto';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** A small secret key-value store: VS Code's SecretStorage, the OS keyring, or a user-only file. */
export interface SecretKeyValue {
  /** Where the values are kept, as a person reads it ("the OS keyring", a file path…). */
  readonly description: string;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface StoredAuthorization {
  /** The client as registered (dynamically, or a Client ID Metadata Document URL). */
  client?: OAuthClientInformationMixed;
  /** Whether `client` came from dynamic registration, so it may be registered again. */
  dynamicClient?: boolean;
  tokens?: OAuthTokens;
  /** When the access token expires, in ms since the epoch. */
  expiresAt?: number;
  discovery?: OAuthDiscoveryState;
  /** The redirect URI the client was registered with (as the browser reaches it). */
  redirectUrl?: string;
  /** The loopback address behind it (the same, unless the editor forwards the port). */
  loopbackUrl?: string;
}

/** The identity of a server's sign-in: its id and its URL (a server moved elsewhere signs in anew). */
export function authorizationKey(serverId: string, url: string): string {
  const digest = createHash('sha256').update(url).digest('hex').slice(0, 16);
  return `mgp.oauth/${serverId}/${digest}`;
}

export class AuthorizationStore {
  constructor(readonly secrets: SecretKeyValue) {}

  async read(key: string): Promise<StoredAuthorization> {
    const text = await this.secrets.get(key);
    if (!text) return {};
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === 'object' && value !== null ? (value as StoredAuthorization) : {};
    } catch {
      return {};
    }
  }

  async write(key: string, value: StoredAuthorization): Promise<void> {
    await this.secrets.set(key, JSON.stringify(value));
  }

  async clear(key: string): Promise<boolean> {
    const had = (await this.secrets.get(key)) !== undefined;
    await this.secrets.delete(key);
    return had;
  }
}
