import { dirname, resolve } from 'node:path';
import {
  ConfigFormat,
  formatOfConfigFile,
  looksLikeManagedPolicy,
  looksLikeOpenFangConfig,
} from '../configFiles';
import { CheckDiagnostic } from './diagnostic';
import { ParsedToml, parseTomlDocument } from './parse';
import type { PointerMap } from './pointers';
import { checkAgainstSchema } from './schemaCheck';
import { defaultEnvironment } from './semantic/environment';
import { runSemanticRules } from './semantic/rules';
import type { RuleEnvironment } from './semantic/context';

export interface CheckOptions {
  /** The file's path, for its base name (format) and folder (relative commands). */
  path: string;
  environment?: RuleEnvironment;
  /** The machine's managed policy file (managedPolicyPath): checked as the policy whatever its name. */
  managedPolicy?: string;
}

/**
 * Which format a file is checked as, or undefined for a `config.toml` that is not OpenFang's or a
 * `policy.toml` that is not MGP's managed policy.
 */
export function formatToCheck(
  path: string,
  text: string,
  managedPolicy?: string,
): ConfigFormat | undefined {
  // MGP_MANAGED_POLICY may name any file: that one is the policy, whatever its name.
  if (managedPolicy !== undefined && resolve(path) === resolve(managedPolicy)) return 'policy';
  const format = formatOfConfigFile(path.split(/[\\/]/).pop() ?? path);
  if (format === 'openfang' && !looksLikeOpenFangConfig(text)) return undefined;
  if (format === 'policy' && !looksLikeManagedPolicy(text)) return undefined;
  return format;
}

/**
 * Every diagnostic for one config file: syntax, then schema, then semantic rules. A `config.toml`
 * that is not OpenFang's gets none: it belongs to Cargo, Hugo or another tool.
 */
export function checkConfigText(text: string, options: CheckOptions): CheckDiagnostic[] {
  const format = formatToCheck(options.path, text, options.managedPolicy);
  if (!format) return [];
  return checkParsed(format, parseTomlDocument(text), text, options).diagnostics;
}

/** Checks an already parsed document; returns the pointer map built on the way for reuse. */
export function checkParsed(
  format: ConfigFormat,
  parsed: ParsedToml,
  text: string,
  options: CheckOptions,
): { diagnostics: CheckDiagnostic[]; pointers?: PointerMap } {
  if (!parsed.ok) return { diagnostics: [parsed.diagnostic] };
  const pointers = parsed.pointers;
  const environment = options.environment ?? defaultEnvironment(dirname(options.path));
  const diagnostics = [
    ...checkAgainstSchema(format, parsed.value, pointers),
    ...runSemanticRules(format, parsed.value, pointers, environment, text, options.path),
  ].sort(
    (a, b) =>
      a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
  return { diagnostics, pointers };
}
