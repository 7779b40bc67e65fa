import { dirname, isAbsolute, resolve } from 'node:path';
import {
  DEFAULT_CONNECT_TIMEOUT_SECS,
  DEFAULT_REQUEST_TIMEOUT_SECS,
  DEFAULT_TOOL_RESULT_MAX_CHARS,
} from '@shared/serverDefaults';
import type { ConfigLocation } from './discover';
import { DEFAULT_SANDBOX } from './sandboxPolicy';
import type { OAuthSettings, RestartPolicyName, RestartSettings, ServerSettings } from './types';

type Table = Record<string, unknown>;

export const DEFAULT_REQUEST_TIMEOUT_MS = DEFAULT_REQUEST_TIMEOUT_SECS * 1000;
export const DEFAULT_CONNECT_TIMEOUT_MS = DEFAULT_CONNECT_TIMEOUT_SECS * 1000;
export { DEFAULT_TOOL_RESULT_MAX_CHARS };

export const DEFAULT_RESTART: RestartSettings = {
  policy: 'on_failure',
  maxRestarts: 5,
  windowMs: 300_000,
  backoffBaseMs: 1000,
  backoffMaxMs: 30_000,
};

function isTable(value: unknown): value is Table {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

function stringMap(value: unknown): Record<string, string> {
  if (!isTable(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

function number(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** The settings of one server table, defaults filled in (MGP §11.6, §15.2; OpenFang's config). */
export function serverSettings(table: Table, location: ConfigLocation): ServerSettings {
  const folder = dirname(location.path);
  if (location.format === 'openfang') {
    const transport = isTable(table.transport) ? table.transport : {};
    const timeoutMs = number(table.timeout_secs, 30) * 1000;
    return {
      env: {},
      passEnv: Array.isArray(table.env)
        ? table.env.filter((n): n is string => typeof n === 'string')
        : [],
      headers: stringMap(transport.headers),
      cwd: folder,
      requestTimeoutMs: timeoutMs,
      connectTimeoutMs: timeoutMs,
      toolResultMaxChars: DEFAULT_TOOL_RESULT_MAX_CHARS,
      framing: 'auto',
      restart: DEFAULT_RESTART,
      oauth: oauthSettings({}),
      sandbox: DEFAULT_SANDBOX,
    };
  }
  const mgp = isTable(table.mgp) ? table.mgp : {};
  const cwd = typeof table.cwd === 'string' ? table.cwd : undefined;
  return {
    env: stringMap(table.env),
    passEnv: [],
    headers: stringMap(table.headers),
    cwd: cwd ? (isAbsolute(cwd) ? cwd : resolve(folder, cwd)) : folder,
    requestTimeoutMs: number(table.request_timeout_secs, DEFAULT_REQUEST_TIMEOUT_MS / 1000) * 1000,
    connectTimeoutMs: number(table.connect_timeout_secs, DEFAULT_CONNECT_TIMEOUT_MS / 1000) * 1000,
    toolResultMaxChars: number(table.tool_result_max_chars, DEFAULT_TOOL_RESULT_MAX_CHARS),
    framing:
      table.framing === 'newline' || table.framing === 'content-length' ? table.framing : 'auto',
    restart: {
      policy: (typeof mgp.restart_policy === 'string'
        ? mgp.restart_policy
        : DEFAULT_RESTART.policy) as RestartPolicyName,
      maxRestarts: number(mgp.max_restarts, DEFAULT_RESTART.maxRestarts),
      windowMs: number(mgp.restart_window_secs, DEFAULT_RESTART.windowMs / 1000) * 1000,
      backoffBaseMs: number(mgp.backoff_base_ms, DEFAULT_RESTART.backoffBaseMs),
      backoffMaxMs: number(mgp.backoff_max_ms, DEFAULT_RESTART.backoffMaxMs),
    },
    oauth: oauthSettings(isTable(table.oauth) ? table.oauth : {}),
    // Decided when the files are merged, against [kernel.sandbox] (load.ts).
    sandbox: DEFAULT_SANDBOX,
  };
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `[servers.oauth]` with its defaults (MCP 2025-11-25, Authorization). */
export function oauthSettings(table: Table): OAuthSettings {
  return {
    enabled: table.enabled !== false,
    grantType:
      table.grant_type === 'client_credentials' ? 'client_credentials' : 'authorization_code',
    clientId: optionalString(table.client_id),
    clientSecret: optionalString(table.client_secret),
    clientMetadataUrl: optionalString(table.client_metadata_url),
    scopes: Array.isArray(table.scopes)
      ? table.scopes.filter((s): s is string => typeof s === 'string')
      : [],
    privateKey: optionalString(table.private_key),
    signingAlgorithm: optionalString(table.signing_algorithm) ?? 'ES256',
  };
}
