/**
 * Messages of the validation report page (*MGP: Validate Server*, one page per server): the checks
 * as they end and the result (MGP §17.8), and what the page asks back. What came from the server
 * (its name, the answers in an exchange) is shown as text, never as HTML.
 */
import { isSectionLink, type SpecName } from './specSections';

export type ValidationStatus = 'pass' | 'missing' | 'fail' | 'skipped';

export interface ValidationCheckView {
  id: string;
  /** "MCP", "Tier 1"…"Tier 4", "MCPL". */
  group: string;
  title: string;
  section: string;
  status: ValidationStatus;
  detail: string;
  expected?: string;
  received?: string;
  exchange?: { sent: string; received: string };
  advice?: string;
  durationMs: number;
}

export interface ValidationResultView {
  /** "Tier 2 compliant (7/11 extensions)", or why there is no tier. */
  result: string;
  tier: number;
  extensions: { passed: number; total: number };
  mcpCompliant: boolean;
  mcpl?: string;
  server?: string;
  protocolVersion?: string;
  mgpVersion?: string;
  isolation?: string;
  startedAt: string;
  durationMs: number;
}

export interface ValidationView {
  serverId: string;
  running: boolean;
  /** Whether the checks may call tools marked dangerous (asked each time it is turned on). */
  allowDangerous: boolean;
  /** How many checks a run has, for "12 of 29". */
  total: number;
  checks: ValidationCheckView[];
  /** The last finished run's result; undefined while the first runs. */
  result?: ValidationResultView;
  /** Why the run could not start or ended early (the gate, the policy, the server gone). */
  error?: string;
}

/** Host → webview. */
export type ValidationToWebview = { type: 'report'; view: ValidationView };

/** Webview → host. */
export type ValidationFromWebview =
  | { type: 'ready' }
  | { type: 'rerun'; allowDangerous: boolean }
  | { type: 'openSection'; spec: SpecName; anchor: string }
  | { type: 'showServer' };

export function isValidationFromWebview(value: unknown): value is ValidationFromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'ready':
    case 'showServer':
      return true;
    case 'rerun':
      return typeof message.allowDangerous === 'boolean';
    case 'openSection':
      return isSectionLink(message);
    default:
      return false;
  }
}
