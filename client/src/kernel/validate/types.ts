/**
 * What `mgp validate` reports (MGP §17.8): one result per check, each naming its tier and the spec
 * section it checks, and the tier the server reaches.
 */

/**
 * PASS: implemented and behaves as the section says. MISSING: an optional part the server does not
 * implement. FAIL: implemented wrongly, or declared and not honoured. SKIPPED: could not be judged
 * (a tool it needs is marked dangerous, say), said why; it counts as not passed.
 */
export type CheckStatus = 'pass' | 'missing' | 'fail' | 'skipped';

/** 0 is base MCP (MCP 2025-11-25); 1–4 are MGP §17.5's tiers; `mcpl` is MCPL 0.4.1's checks. */
export type CheckTier = 0 | 1 | 2 | 3 | 4 | 'mcpl';

/** One exchange a check made, for a FAIL: what went out, what came back. */
export interface Exchange {
  sent: string;
  received: string;
}

export interface CheckResult {
  /** Stable id, e.g. `mgp.security-metadata` (the JSON output and JUnit name it). */
  id: string;
  tier: CheckTier;
  title: string;
  /** The section it checks, in words: "MGP §4", "MCP Lifecycle", "MCPL §8". */
  section: string;
  status: CheckStatus;
  /** What was seen, in one or a few sentences. */
  detail: string;
  /** For a FAIL: what the spec says should have happened. */
  expected?: string;
  /** For a FAIL: what came instead. */
  received?: string;
  /** For a FAIL: the request that showed it, and the answer. */
  exchange?: Exchange;
  /** For a FAIL or MISSING: what to do about it. */
  advice?: string;
  /** Which of the eleven extensions of MGP §17.6 this check stands for, when one. */
  extension?: MgpExtensionRow;
  durationMs: number;
}

/** The eleven rows of MGP §17.6, counted in "k/11 extensions". */
export const EXTENSION_ROWS = [
  '§2 Negotiation',
  '§4 Security Metadata',
  '§3 Permission Approval',
  '§14 Error Handling',
  '§6 Audit',
  '§5 Access Control',
  '§11 Lifecycle',
  '§12 Streaming',
  '§13 Bidirectional',
  '§15 Discovery',
  '§16 Tool Discovery',
] as const;
export type MgpExtensionRow = (typeof EXTENSION_ROWS)[number];

export interface ValidationReport {
  /** What was validated: a server (the default) or a client (`mgp validate client`). */
  kind?: 'server' | 'client';
  /** What was validated, in words (the command line or the URL). */
  target: string;
  /** The server's name and version as it gave them at initialize. */
  server?: { name: string; version: string };
  /** The client's name and version as it gave them at initialize (validating a client). */
  client?: { name: string; version: string };
  /** The MCP protocol version initialize agreed on (the client's, validating a client). */
  protocolVersion?: string;
  /** The MGP version the server answered, or the client offered, when it speaks MGP. */
  mgpVersion?: string;
  /** How a stdio server's process ran when the validator ran it in its sandbox (a config's server). */
  isolation?: string;
  checks: CheckResult[];
  /** Whether every base MCP check passed. */
  mcpCompliant: boolean;
  /** The highest MGP tier whose checks, and all below, pass; 0 when none. */
  tier: 0 | 1 | 2 | 3 | 4;
  /** Extensions of MGP §17.6 whose checks pass, of eleven. */
  extensions: { passed: MgpExtensionRow[]; total: number };
  /** Whether the server advertises MCPL, and whether its MCPL checks pass. */
  mcpl?: { version: string; compliant: boolean };
  startedAt: string;
  durationMs: number;
}
