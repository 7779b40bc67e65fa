/**
 * What a client scenario of `mgp validate client` is: the tools the probe lists and how they behave,
 * what the client under test is asked to do (its name and context, as the MCP conformance suite
 * passes them), and the checks that judge what the probe saw once the client has exited.
 */
import type { CallToolResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Verdict } from '../context';
import type { CheckTier, MgpExtensionRow } from '../types';
import type { ProbeSession } from './probeSession';

/** What a tool of the probe is given when called. */
export interface ToolCall {
  session: ProbeSession;
  requestId: RequestId;
  args: Record<string, unknown>;
  /** The call's `_mgp` params (MGP §12.3: `stream`). */
  mgp: Record<string, unknown>;
  notify(method: string, params: Record<string, unknown>): Promise<void>;
  signal: AbortSignal;
}

export interface ProbeTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** MGP §4.2; listed whatever the client offered (plain MCP clients ignore it, §4.2). */
  security: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** More fields of the listing: `categories` and `keywords` for the tool index (MGP §16.4). */
  listed?: Record<string, unknown>;
  /** The result, or a thrown McpError for a JSON-RPC error (MGP §14.4). */
  run(call: ToolCall): Promise<CallToolResult>;
}

/** How the client process ended. */
export interface ClientRun {
  exitCode: number | null;
  signal: string | null;
  /** It did not exit within the scenario's time and its process group was killed. */
  timedOut: boolean;
  /** It could not be started at all. */
  spawnError?: string;
  /** The end of what it wrote to stderr, for a FAIL. */
  stderrTail: string;
  timeoutMs: number;
}

/** What a check judges: every session the probe served in the scenario, and how the client ended. */
export interface Observation {
  sessions: ProbeSession[];
  run: ClientRun;
  /** Values the scenario made up for this run (a token the client must echo, say). */
  facts: Record<string, unknown>;
}

export interface ClientCheck {
  /** Stable id, e.g. `mgp.client.security-metadata`. */
  id: string;
  tier: CheckTier;
  title: string;
  section: string;
  extension?: MgpExtensionRow;
  judge(seen: Observation): Verdict;
}

export interface ClientScenario {
  /** Given to the client as MGP_VALIDATE_SCENARIO and MCP_CONFORMANCE_SCENARIO. */
  name: string;
  /** What the client is asked to do, in words (`ask`) and values; MGP_VALIDATE_CONTEXT as JSON. */
  context: Record<string, unknown>;
  /** `permissions_required` in the probe's `capabilities.mgp` (MGP §2.3). */
  permissionsRequired?: string[];
  /** `event_channels` in the probe's `capabilities.mgp` (MGP §13.5). */
  eventChannels?: string[];
  /** The tools, made fresh for each run (with `facts` the run's own values). */
  tools(facts: Record<string, unknown>): ProbeTool[];
  /** Values made for a run; in `facts` of the tools and the observation. */
  facts?(): Record<string, unknown>;
  /** Called once a session has sent `notifications/initialized` (to start pushing events, say). */
  initialized?(session: ProbeSession, push: Push, facts: Record<string, unknown>): void;
  checks: ClientCheck[];
}

/** Sends a notification to a session's client, outside any request. */
export type Push = (method: string, params: Record<string, unknown>) => Promise<void>;
