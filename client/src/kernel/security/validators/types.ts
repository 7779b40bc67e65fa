/**
 * The contracts of the kernel-side validators (MGP §4.5, §7.4): what goes in, what comes out.
 * Kept apart from the checks so every check file can import them without importing each other.
 */
import type { ToolSecurity, ValidatorName } from '../../domain/security';

/** One tool call, as the kernel sees it before forwarding it to the server. */
export interface ValidationInput {
  toolName: string;
  args: Record<string, unknown>;
  /** The effective security metadata (declared, overridden by config, filled in by fallbacks). */
  security: ToolSecurity;
  inputSchema?: Record<string, unknown>;
  description?: string;
}

export interface Violation {
  validator: ValidatorName;
  /** A stable id of the rule that fired (`recursive_delete`, `private_address`, `blocked_import`…). */
  rule: string;
  /** For people: what was blocked, where, and why. */
  message: string;
  /** A JSON pointer into the arguments (`/command`, `/files/2/path`); '' for the call as a whole. */
  argument: string;
  /** A short quote of the offending text. */
  excerpt?: string;
}

/** MGP §7.4: the structured rejection that lets an agent correct its code. */
export interface CodeRejection {
  status: 'rejected';
  reason: string;
  violations: string[];
  hints: { blocked_imports?: string[]; allowed_imports?: string[]; max_code_size_bytes?: number };
}

export interface ValidationOutcome {
  ok: boolean;
  violations: Violation[];
  /** The validators that ran (`none` and unknown names are not listed). */
  applied: ValidatorName[];
  /** Set when code_safety rejected code. */
  codeRejection?: CodeRejection;
}

export interface ValidatorOptions {
  /** Resolves a host name to its addresses; defaults to `dns.promises.lookup(host, { all: true })`. */
  resolveHost?: (host: string) => Promise<string[]>;
  /** How long a lookup may take before the name counts as unresolved (default 2000 ms). */
  resolveTimeoutMs?: number;
}
