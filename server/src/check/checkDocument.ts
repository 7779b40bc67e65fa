import { looksLikeOpenFangConfig } from '../../../shared/src/configFiles';
import { CheckDiagnostic, checkTomlSyntax } from './syntax';

/**
 * Every diagnostic for one config file. A `config.toml` that is not OpenFang's gets none: it belongs
 * to Cargo, Hugo or another tool.
 */
export function checkConfigDocument(baseName: string, text: string): CheckDiagnostic[] {
  if (baseName === 'config.toml' && !looksLikeOpenFangConfig(text)) return [];
  return checkTomlSyntax(text);
}
