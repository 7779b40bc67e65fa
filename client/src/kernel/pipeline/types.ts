/**
 * A tool call as the pipeline carries it from stage to stage: what was asked, and what each stage has
 * established so far. One object per call; the stages read it and add to it.
 */
import type { ElicitRequest, ElicitResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { KernelSettings } from '../config/types';
import type { CappedResult, ListedTool } from '../connection/serverConnection';
import type { TaskHooks } from '../connection/toolTasks';
import type { ServerManager } from '../lifecycle/serverManager';
import type { SupervisedServer } from '../lifecycle/supervisedServer';
import type { Caller } from '../domain/caller';
import type { KernelError } from '../domain/errors';
import type { EffectiveSecurity } from '../domain/security';
import type { AuditSink } from '../audit/auditSink';
import type { KernelToolRegistry } from '../kernelTools/registry';
import type { ApprovalOutcome, ToolApprovals } from '../security/toolApprovals';
import type { TurnedOff } from '../security/switches';
import type { CallValidation } from './validation';

export interface StreamHooks {
  /** The JSON-RPC id the tools/call went out with (MGP §12.4 chunks carry it as request_id). */
  requestId(id: RequestId): void;
}

export interface ToolCallRequest {
  serverId: string;
  toolName: string;
  args: Record<string, unknown>;
  caller: Caller;
  /** One per user action (MGP §6.5); a new one when left out. */
  traceId?: string;
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Ask the server to stream (MGP §12.3), when it negotiated `streaming`. */
  stream?: StreamHooks;
  /** Learns the tools/call params as they go out (each attempt): the Run Tool panel shows them. */
  onSent?: (params: Record<string, unknown>) => void;
  /** Run as an MCP task when the tool allows it (`execution.taskSupport`); hears its statuses. */
  task?: TaskHooks & { ttl?: number };
}

export interface ToolCallOutcome {
  result: CappedResult;
  traceId: string;
  serverId: string;
  toolName: string;
  security?: EffectiveSecurity;
  attempts: number;
  durationMs: number;
  approval?: ApprovalOutcome;
}

/** A call to a server's tool, once resolved: the stages check it in turn, then it is forwarded. */
export interface ResolvedCall {
  readonly request: ToolCallRequest;
  readonly traceId: string;
  /** performance.now() when the call came in. */
  readonly started: number;
  /** How many fallback tools (MGP §14.6) led to this call. */
  readonly fallbackDepth: number;
  readonly server: SupervisedServer;
  readonly tool: ListedTool;
  readonly security: EffectiveSecurity;
  /** Set by the approval stage. */
  approval: ApprovalOutcome | undefined;
  /** Milliseconds spent waiting for the operator's answers: not part of the call's duration. */
  operatorMs: number;
  /** Set by a stage that answers the call itself instead of forwarding it (MGP §7.4). */
  answer: CappedResult | undefined;
  /** Fields the extension checks add to the tools/call's params (MCPL `scope`, §7.7). */
  params?: Record<string, unknown>;
  /** MCP draft fields the caller gave that the tool's schema does not declare: left out. */
  readonly draftFieldsDropped?: string[];
}

/** An extension check's refusal: the error the caller gets, and what its audited block names. */
export interface ExtensionRefusal {
  /** The check, as the block's audit record names it (`mcpl.feature_set`, `mcpl.scope`). */
  check: string;
  /** The block's result (`DISABLED`, `DENIED`). */
  result: string;
  error: KernelError;
  details: Record<string, unknown>;
}

export type ExtensionVerdict = { params?: Record<string, unknown> } | { refusal: ExtensionRefusal };

/**
 * A protocol extension's check on a call, run as a stage of the pipeline (MCPL §6.6, §7.7): nothing
 * to say (undefined), a verdict at once, or one after a wait (a question to the user).
 */
export type ExtensionCheck = (call: {
  serverId: string;
  tool: ListedTool;
  args: Record<string, unknown>;
  traceId: string;
}) => ExtensionVerdict | Promise<ExtensionVerdict> | undefined;

/** A check of the call: done at once (undefined), or a promise when it must wait; a refusal throws. */
export type Stage = (call: ResolvedCall) => Promise<void> | undefined;

export interface PipelineDeps {
  manager: ServerManager;
  kernelTools: KernelToolRegistry;
  settings(): KernelSettings;
  securityOf(server: SupervisedServer, tool: ListedTool): EffectiveSecurity;
  access: {
    query(
      agentId: string,
      serverId: string,
      toolName?: string,
    ): { permission: 'allow' | 'deny'; source: string };
  };
  approvals: ToolApprovals;
  /** Whether the user turned the tool or its server off (none is when left out). */
  turnedOff?(serverId: string, toolName: string): TurnedOff | undefined;
  /** A server permission (MGP §3) as the operator decided it. */
  permissionState(serverId: string, permission: string): 'approved' | 'denied' | undefined;
  validation: CallValidation;
  /** Whether the server negotiated MGP at all (§2), and an MGP extension. */
  speaksMgp(serverId: string): boolean;
  negotiated(serverId: string, extension: string): boolean;
  /** MGP §12.6: hands a plain call's `mgp.stream.progress` to a listener until released. */
  watchProgress?(
    serverId: string,
    requestId: RequestId,
    listener: NonNullable<ToolCallRequest['onProgress']>,
  ): () => void;
  /** Whether the tool's feature set is switched on (MCPL §6.6): decided at once, nobody asked. */
  featureSetCheck?: ExtensionCheck;
  /** Whether a scoped call may act on its scope (MCPL §7.7): by the lists, or the user is asked. */
  scopeCheck?: ExtensionCheck;
  /** Asks the person about a URL elicitation (MCP: consent, then the browser). */
  elicit?(
    serverId: string,
    params: ElicitRequest['params'],
    signal: AbortSignal,
  ): Promise<ElicitResult>;
  audit: AuditSink;
}
