/**
 * `[[a2a.external_agents]]` (OpenFang, A2A Configuration) as servers: each external agent is a server
 * `a2a.<name>` the kernel connects to in process (a2a/agentServer.ts), so a delegation is a tool call
 * through the one pipeline like any other (access, approval, validators, audit). Its `url` is the
 * agent's base URL, its bearer key an `Authorization` header (resolved like any server's headers),
 * its timeout the call's, and its risk level the `delegate` tool's, from config (MGP §4.3).
 */
import { DEFAULT_A2A_RISK_LEVEL, DEFAULT_A2A_TIMEOUT_SECS } from '@shared/schemas/a2a';
import type { RiskLevel } from '@shared/schemas/vocabulary';
import type { ConfigLocation } from './discover';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_RESTART,
  DEFAULT_TOOL_RESULT_MAX_CHARS,
} from './settings';
import { DEFAULT_SANDBOX } from './sandboxPolicy';
import type { ConfiguredServer } from './types';

type Table = Record<string, unknown>;

/** The server id prefix of external agents: `a2a.research-agent`. */
export const A2A_SERVER_PREFIX = 'a2a.';
/** The tools every external agent's server offers (a2a/agentServer.ts). */
export const A2A_TOOLS = { delegate: 'delegate', getTask: 'get_task', cancelTask: 'cancel_task' };

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The external agent's server id. */
export function a2aServerId(name: string): string {
  return `${A2A_SERVER_PREFIX}${name}`;
}

/** One agent table as a server; undefined when it lacks a name or a url. */
export function agentServer(
  table: Table,
  location: ConfigLocation,
  line: number,
): ConfiguredServer | undefined {
  const name = text(table.name);
  const url = text(table.url);
  if (!name || !url) return undefined;
  const timeoutSecs =
    typeof table.timeout_secs === 'number' && table.timeout_secs > 0
      ? table.timeout_secs
      : DEFAULT_A2A_TIMEOUT_SECS;
  const risk = (text(table.risk_level) ?? DEFAULT_A2A_RISK_LEVEL) as RiskLevel;
  const apiKey = text(table.api_key);
  return {
    id: a2aServerId(name),
    transport: 'http',
    args: [],
    url,
    a2a: { name, timeoutMs: timeoutSecs * 1000 },
    settings: {
      env: {},
      passEnv: [],
      headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
      cwd: '.',
      // The delegation keeps its own deadline and cancels the remote task (a2a/delegation.ts) first.
      requestTimeoutMs: timeoutSecs * 1000 + 15_000,
      connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
      toolResultMaxChars: DEFAULT_TOOL_RESULT_MAX_CHARS,
      framing: 'auto',
      restart: DEFAULT_RESTART,
      sandbox: DEFAULT_SANDBOX,
    },
    policy: {
      toolOverrides: {
        // Config wins over what the agent's server says (MGP §4.3): these are the kernel's own words.
        // Sending your data to another agent is an external side effect: asked unless `safe`.
        [A2A_TOOLS.delegate]: {
          risk_level: risk,
          side_effects: ['network'],
          confirmation_required: risk !== 'safe',
        },
        [A2A_TOOLS.getTask]: { risk_level: 'safe', side_effects: ['network'] },
        [A2A_TOOLS.cancelTask]: { risk_level: 'moderate', side_effects: ['network'] },
      },
      approvedTools: [],
      accessGrants: [],
      negotiate: false,
      permissions: [],
      pinnedTools: [],
    },
    source: { file: location.path, line, format: location.format, origin: location.origin },
    origin: 'config',
  };
}
