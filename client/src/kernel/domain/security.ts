/**
 * Tool security metadata as the kernel uses it (MGP §4.3), and the code safety declaration (MGP §7.3).
 * The vocabularies come from shared/ so the config schema, the checker and the kernel agree.
 */
import type { RiskLevel } from '@shared/schemas/vocabulary';

export type { RiskLevel };
export type SideEffect = 'filesystem' | 'network' | 'process' | 'database' | 'notification';
export type ValidatorName = 'sandbox' | 'readonly' | 'network_restricted' | 'code_safety' | 'none';
export type CodeSafetyLevel = 'unrestricted' | 'standard' | 'strict' | 'readonly';

/** MGP §7.3 `security.code_safety`. */
export interface CodeSafetySpec {
  level: CodeSafetyLevel;
  /** `python`, `javascript` (also `typescript`, `node`); guessed from the code when absent. */
  language?: string;
  max_code_size_bytes?: number;
  blocked_imports?: string[];
  blocked_patterns?: string[];
  allowed_imports?: string[];
  /**
   * Set by the kernel on a declaration that came from the server (never read from the wire): its lists
   * then add to the kernel's defaults instead of replacing them (blocklists and patterns joined, the
   * allowlist intersected, the smaller size limit), so a server can only tighten the check.
   */
  extends_defaults?: boolean;
}

/** MGP §4.3, with the defaults filled in. */
export interface ToolSecurity {
  risk_level: RiskLevel;
  permissions_required: string[];
  side_effects: SideEffect[];
  validator?: ValidatorName;
  reversible?: boolean;
  confirmation_required?: boolean;
  code_safety?: CodeSafetySpec;
}

export type SecuritySource = 'config' | 'heuristic' | 'annotations' | 'server' | 'default';

/** The per-tool table of mgp.toml (`[servers.tools.<tool>]`, MGP §4.3): every field optional. */
export type SecurityOverride = Partial<ToolSecurity>;

/** A tool's security as the kernel acts on it (security/effectiveSecurity.ts merges the sources). */
export interface EffectiveSecurity extends ToolSecurity {
  /** Where each decided field came from, for the UI ("dangerous — from config"). */
  sources: Partial<Record<keyof ToolSecurity, SecuritySource>>;
  /** What the server itself declared, when that differs from the effective risk (shown as a warning). */
  serverClaim?: RiskLevel;
}

export const RISK_ORDER: Record<RiskLevel, number> = { safe: 0, moderate: 1, dangerous: 2 };

export function higherRisk(a: RiskLevel, b: RiskLevel): RiskLevel {
  return RISK_ORDER[a] >= RISK_ORDER[b] ? a : b;
}
