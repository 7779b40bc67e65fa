/**
 * Messages between the tool panels and their hosts: what a tool, its result and its progress look
 * like in a panel, the run sub-protocol (validate, run, cancel and their answers) shared by Run Tool
 * and Tool Discovery's "Try it" (discoveryMessages.ts), and Run Tool's own
 * (client/src/vscode/runTool/, media/src/runTool): the picker, the form, the history.
 */
import type { DeterminismView, SeedFieldName } from './draftViews';
import { isCount, isObject, isText, isToolKey } from './messageGuards';

// ── What the panels show ─────────────────────────────────────────────────────────────────────────

/** A tool's effective security (MGP §4) and where its risk came from. */
export interface SecurityView {
  risk: string;
  /** config, heuristic, annotations, server or default. */
  riskSource: string;
  /** The server's own claim, when it differs from the effective risk. */
  serverClaim?: string;
  sideEffects: string[];
  sideEffectsSource?: string;
  permissions: string[];
  reversible?: boolean;
  confirmationRequired?: boolean;
  validator?: string;
}

export interface ToolView {
  serverId: string;
  toolName: string;
  title?: string;
  /** Written by the server: untrusted, shown as plain text with a warning. */
  description?: string;
  inputSchema: Record<string, unknown>;
  security: SecurityView;
  /** A kernel tool (`mgp.*`). */
  kernel: boolean;
  /** The server negotiated MGP streaming (§12): chunks arrive while it runs. */
  streaming: boolean;
  /**
   * MCP 2025-11-25 `execution.taskSupport`, when the tool can run as a task: `optional` (the person
   * chooses) or `required` (always one). Absent for a tool that cannot.
   */
  taskSupport?: 'optional' | 'required';
  /** MCP draft §2: `seed` and `prng`, when the tool's schema declares them (advanced options). */
  seedFields?: SeedFieldName[];
}

/** A problem with an argument, at the JSON pointer of the value it concerns ('' for the whole). */
export interface FieldError {
  pointer: string;
  message: string;
}

export type ResultItemView =
  | { kind: 'text'; text: string }
  /** `data` is base64 checked by the host; shown only where the panel allows `img-src data:`. */
  | { kind: 'image'; mimeType: string; data?: string; bytes: number }
  | { kind: 'audio'; mimeType: string; bytes: number }
  | { kind: 'resource'; uri: string; mimeType?: string; text?: string; bytes?: number }
  | { kind: 'resource_link'; uri: string; name: string; description?: string; mimeType?: string }
  | { kind: 'other'; json: string };

export interface ResultView {
  items: ResultItemView[];
  /** `structuredContent` as pretty JSON. */
  structured?: string;
  isError: boolean;
  truncated?: { originalChars: number; keptChars: number };
  /** The structured content does not fit the tool's outputSchema: what does not fit. */
  outputSchemaMismatch?: string;
  /** A stream cancelled by the user: the items hold the partial output. */
  cancelled?: boolean;
  streamed?: boolean;
  durationMs: number;
  traceId: string;
  /** The kernel answered the call itself, refusing it (MGP §7.4 code safety): never sent to the server. */
  block?: BlockView;
  /** MCP draft §2: what the result says of its seed. */
  determinism?: DeterminismView;
}

/** A call the kernel refused before (or instead of) sending it: which check, and why (MGP §14.3). */
export interface BlockView {
  /** The check in plain words: "Access control", "Kernel validators", "Approval"… */
  check: string;
  /** The section of the specification behind the check, for a tooltip. */
  section?: string;
  why: string;
}

/** An error the call ended with: an MGP wire error (code and name) or a local one (name only). */
export interface ErrorView {
  code?: number;
  name?: string;
  message: string;
  /** Set when the kernel refused the call; absent for the server's own errors. */
  block?: BlockView;
}

/** The tools/call as the kernel sent it and what came back, as pretty JSON. */
export interface ExchangeView {
  /** The JSON-RPC params sent; absent when nothing reached the server. */
  request?: string;
  /** The JSON-RPC result, or the error (`{ code, message, data }`). */
  response: string;
}

export interface ProgressView {
  /** 0..1 when known. */
  fraction?: number;
  message?: string;
  estimatedRemainingMs?: number;
}

// ── The run sub-protocol (Run Tool and "Try it") ────────────────────────────────────────────────

export interface ToolKey {
  serverId: string;
  toolName: string;
}

/** Webview → host. */
export type RunFromWebview =
  /** Check arguments against the tool's inputSchema (ajv, in the host: the webview's CSP allows no eval). */
  | (ToolKey & { type: 'validate'; seq: number; args: unknown })
  | (ToolKey & {
      type: 'run';
      runId: number;
      args: Record<string, unknown>;
      stream: boolean;
      /** Run it as an MCP task (it then shows in the Tasks view too); never with `stream`. */
      task?: boolean;
    })
  | { type: 'cancelRun'; runId: number }
  | { type: 'showStreams'; streamId?: string }
  /** Opens the Audit Trail filtered to one trace. */
  | { type: 'showAudit'; traceId: string }
  | { type: 'copy'; text: string }
  /** A resource_link of a result: read from that server, shown as a read-only document. */
  | { type: 'openResource'; serverId: string; uri: string; name?: string; mimeType?: string };

/** Host → webview. */
export type RunToWebview =
  | (ToolKey & { type: 'validation'; seq: number; errors: FieldError[]; schemaProblem?: string })
  /** The arguments did not pass the check at Run: nothing was sent. */
  | (ToolKey & { type: 'runRejected'; runId: number; errors: FieldError[] })
  | (ToolKey & { type: 'runStarted'; runId: number; streamId?: string })
  | { type: 'runText'; runId: number; appended: string; chunks: number }
  | { type: 'runProgress'; runId: number; progress: ProgressView }
  | { type: 'runResult'; runId: number; result: ResultView; exchange?: ExchangeView }
  | { type: 'runError'; runId: number; error: ErrorView; traceId?: string; exchange?: ExchangeView }
  | { type: 'copied' };

// ── Run Tool ─────────────────────────────────────────────────────────────────────────────────────

/** A tool the picker offers. */
export interface ToolChoiceView extends ToolKey {
  title?: string;
  risk: string;
  kernel: boolean;
}

/** One past run of a tool, as the Run Tool panel keeps it (bounded: see runHistory.ts). */
export interface HistoryEntryView {
  id: string;
  /** When it started, ms since the epoch. */
  at: number;
  args: Record<string, unknown>;
  stream: boolean;
  result?: ResultView;
  error?: ErrorView;
  traceId?: string;
  exchange?: ExchangeView;
}

export type RunToolToWebview =
  | { type: 'tools'; tools: ToolChoiceView[]; selected: ToolKey }
  | { type: 'tool'; tool: ToolView }
  /**
   * The tool cannot run now: the server went away or no longer lists it, or the person turned the
   * tool (or its whole server) off, which `turnedOff` says.
   */
  | { type: 'toolGone'; key: ToolKey; reason: string; turnedOff?: 'tool' | 'server' }
  /** The tool's past runs, newest first. */
  | (ToolKey & { type: 'history'; entries: HistoryEntryView[] })
  | RunToWebview;

export type RunToolFromWebview =
  | { type: 'ready' }
  | (ToolKey & { type: 'select' })
  | (ToolKey & { type: 'clearHistory' })
  /** Turn On for a tool the person turned off (its server, when the whole server is off). */
  | (ToolKey & { type: 'turnOn' })
  | RunFromWebview;

// ── Type guards ──────────────────────────────────────────────────────────────────────────────────

export function isRunFromWebview(value: unknown): value is RunFromWebview {
  if (!isObject(value)) return false;
  switch (value.type) {
    case 'validate':
      return isToolKey(value) && isCount(value.seq) && 'args' in value;
    case 'run':
      return (
        isToolKey(value) &&
        isCount(value.runId) &&
        isObject(value.args) &&
        typeof value.stream === 'boolean' &&
        (value.task === undefined || typeof value.task === 'boolean')
      );
    case 'cancelRun':
      return isCount(value.runId);
    case 'showStreams':
      return value.streamId === undefined || isText(value.streamId);
    case 'showAudit':
      return isText(value.traceId);
    case 'copy':
      return typeof value.text === 'string' && value.text.length <= 10_000_000;
    case 'openResource':
      return (
        isText(value.serverId) &&
        isText(value.uri) &&
        (value.name === undefined || typeof value.name === 'string') &&
        (value.mimeType === undefined || typeof value.mimeType === 'string')
      );
    default:
      return false;
  }
}

export function isRunToolFromWebview(value: unknown): value is RunToolFromWebview {
  if (!isObject(value)) return false;
  if (value.type === 'ready') return true;
  if (value.type === 'select' || value.type === 'clearHistory' || value.type === 'turnOn')
    return isToolKey(value);
  return isRunFromWebview(value);
}
