/**
 * The kernel's own tools (MGP §1.6 Layer 4): standard MCP tools under `mgp.*` names, listed next to the
 * servers' tools and called through the same pipeline. Administrative ones (§16.8: access, lifecycle,
 * registration) are for operators; agents need an explicit access grant on the `mgp` server for them.
 */
import type { Caller } from './caller';
import type { RiskLevel } from './security';

/** The server id kernel tools are listed, granted and audited under. */
export const KERNEL_SERVER_ID = 'mgp';

export interface KernelToolContext {
  caller: Caller;
  traceId: string;
  signal?: AbortSignal;
}

export interface KernelTool {
  /** The full name, e.g. `mgp.health.ping`. */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Operator-level (MGP §5.4 "Requires operator-level permissions", §16.8 "Administrative"). */
  operatorOnly: boolean;
  risk: RiskLevel;
  /** §16.8: only the meta-tools go into the model's context. */
  inModelContext: boolean;
  run(args: Record<string, unknown>, context: KernelToolContext): Promise<unknown>;
}
