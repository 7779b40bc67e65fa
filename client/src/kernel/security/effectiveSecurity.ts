/**
 * The security metadata the kernel acts on for one tool (MGP §4), merged from four sources, weakest to
 * strongest: the tool's own `security` object, its MCP annotations, name heuristics, and the per-tool
 * table in mgp.toml. Among the server's sources and the heuristics the highest risk wins (a lying or
 * careless server cannot talk a risk down); the config, when it sets a field, decides it outright,
 * so a server can never lower a risk below what config says.
 */
import { RISK_LEVEL_NAMES, SIDE_EFFECT_NAMES, VALIDATOR_NAMES } from '@shared/schemas/vocabulary';
import type { ListedTool } from '../connection/toolResults';
import {
  CodeSafetyLevel,
  CodeSafetySpec,
  EffectiveSecurity,
  RISK_ORDER,
  RiskLevel,
  SecurityOverride,
  SecuritySource,
  SideEffect,
  ToolSecurity,
  ValidatorName,
} from '../domain/security';
import { riskFromName } from './nameHeuristics';

const STRENGTH: Record<SecuritySource, number> = {
  default: 0,
  server: 1,
  annotations: 2,
  heuristic: 3,
  config: 4,
};

function stringsIn<T extends string>(value: unknown, allowed: readonly string[]): T[] {
  return Array.isArray(value)
    ? (value.filter((v) => typeof v === 'string' && allowed.includes(v)) as T[])
    : [];
}

function plainStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The server's `security` object, read defensively: a malformed field is ignored, not trusted. */
export function declaredSecurity(tool: ListedTool): SecurityOverride | undefined {
  const raw = (tool as { security?: unknown }).security;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const s = raw as Record<string, unknown>;
  const declared: SecurityOverride = {};
  if (typeof s.risk_level === 'string' && RISK_LEVEL_NAMES.includes(s.risk_level))
    declared.risk_level = s.risk_level as RiskLevel;
  if (Array.isArray(s.permissions_required))
    declared.permissions_required = plainStrings(s.permissions_required);
  if (Array.isArray(s.side_effects))
    declared.side_effects = stringsIn<SideEffect>(s.side_effects, SIDE_EFFECT_NAMES);
  if (typeof s.validator === 'string' && VALIDATOR_NAMES.includes(s.validator))
    declared.validator = s.validator as ValidatorName;
  if (typeof s.reversible === 'boolean') declared.reversible = s.reversible;
  if (typeof s.confirmation_required === 'boolean')
    declared.confirmation_required = s.confirmation_required;
  const codeSafety = declaredCodeSafety(s.code_safety);
  if (codeSafety) declared.code_safety = codeSafety;
  return declared;
}

const CODE_SAFETY_ORDER: Record<CodeSafetyLevel, number> = {
  unrestricted: 0,
  standard: 1,
  strict: 2,
  readonly: 3,
};

/**
 * A server's `code_safety` (MGP §7.3), as restrictions only: the level is at least `standard` (an
 * unknown one counts as `strict`), and its lists extend the kernel's defaults (see CodeSafetySpec).
 * Loosening is the operator's alone, through `[servers.tools.X] code_safety`.
 */
function declaredCodeSafety(raw: unknown): CodeSafetySpec | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const c = raw as Record<string, unknown>;
  const named = typeof c.level === 'string' ? c.level : 'standard';
  const level: CodeSafetyLevel = Object.hasOwn(CODE_SAFETY_ORDER, named)
    ? CODE_SAFETY_ORDER[named as CodeSafetyLevel] < CODE_SAFETY_ORDER.standard
      ? 'standard'
      : (named as CodeSafetyLevel)
    : 'strict';
  const spec: CodeSafetySpec = { level };
  if (typeof c.language === 'string') spec.language = c.language;
  if (typeof c.max_code_size_bytes === 'number' && c.max_code_size_bytes > 0)
    spec.max_code_size_bytes = c.max_code_size_bytes;
  for (const list of ['blocked_imports', 'blocked_patterns', 'allowed_imports'] as const)
    if (Array.isArray(c[list])) spec[list] = plainStrings(c[list]);
  spec.extends_defaults = true;
  return spec;
}

/** MCP annotations as security hints (MCP §5.1 tool annotations); nothing when the tool has none. */
export function annotationSecurity(tool: ListedTool): SecurityOverride | undefined {
  const a = tool.annotations as
    { readOnlyHint?: unknown; destructiveHint?: unknown; openWorldHint?: unknown } | undefined;
  if (!a || Object.keys(a).length === 0) return undefined;
  const hints: SecurityOverride = {};
  if (a.readOnlyHint === true) hints.risk_level = 'safe';
  else if (a.readOnlyHint === false)
    hints.risk_level = a.destructiveHint === false ? 'moderate' : 'dangerous';
  if (a.destructiveHint === true) hints.reversible = false;
  if (a.openWorldHint === true) hints.side_effects = ['network'];
  return hints;
}

interface RiskOpinion {
  risk: RiskLevel;
  source: SecuritySource;
}

function highestRisk(opinions: RiskOpinion[]): RiskOpinion {
  return opinions.reduce((best, next) => {
    const order = RISK_ORDER[next.risk] - RISK_ORDER[best.risk];
    return order > 0 || (order === 0 && STRENGTH[next.source] > STRENGTH[best.source])
      ? next
      : best;
  });
}

export function effectiveSecurity(
  tool: ListedTool,
  override: SecurityOverride | undefined,
): EffectiveSecurity {
  const server = declaredSecurity(tool);
  const hints = annotationSecurity(tool);
  const named = riskFromName(tool.name);
  const opinions: RiskOpinion[] = [];
  if (server?.risk_level) opinions.push({ risk: server.risk_level, source: 'server' });
  if (hints?.risk_level) opinions.push({ risk: hints.risk_level, source: 'annotations' });
  if (named) opinions.push({ risk: named, source: 'heuristic' });
  const risk = opinions.length
    ? highestRisk(opinions)
    : { risk: 'moderate' as RiskLevel, source: 'default' as SecuritySource };
  const effective: EffectiveSecurity = {
    risk_level: risk.risk,
    permissions_required: server?.permissions_required ?? [],
    side_effects: [...new Set([...(server?.side_effects ?? []), ...(hints?.side_effects ?? [])])],
    sources: { risk_level: risk.source },
  };
  if (server?.permissions_required) effective.sources.permissions_required = 'server';
  if (effective.side_effects.length)
    effective.sources.side_effects = server?.side_effects?.length ? 'server' : 'annotations';
  for (const field of [
    'validator',
    'reversible',
    'confirmation_required',
    'code_safety',
  ] as const) {
    const value = server?.[field] ?? (field === 'reversible' ? hints?.reversible : undefined);
    if (value !== undefined) {
      (effective as unknown as Record<string, unknown>)[field] = value;
      effective.sources[field] = server?.[field] !== undefined ? 'server' : 'annotations';
    }
  }
  if (server?.risk_level && server.risk_level !== risk.risk)
    effective.serverClaim = server.risk_level;
  return applyOverride(effective, override, server?.risk_level);
}

/** Config always wins, field by field (MGP §4.3 overrides in `[servers.tools.<tool>]`). */
function applyOverride(
  effective: EffectiveSecurity,
  override: SecurityOverride | undefined,
  declared: RiskLevel | undefined,
): EffectiveSecurity {
  if (!override) return effective;
  const merged: EffectiveSecurity = { ...effective, sources: { ...effective.sources } };
  for (const [field, value] of Object.entries(override) as [keyof ToolSecurity, unknown][]) {
    if (value === undefined) continue;
    (merged as unknown as Record<string, unknown>)[field] = value;
    merged.sources[field] = 'config';
  }
  merged.serverClaim =
    declared !== undefined && declared !== merged.risk_level ? declared : undefined;
  return merged;
}
