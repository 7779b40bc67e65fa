/**
 * The one way the loader, the language server and `mgp check` compile a config schema: ajv 8 in strict
 * mode, with every error, with the keywords VS Code's JSON tooling reads known as a vocabulary, and
 * with the formats of ajv-formats.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './schemaTypes';

/** Keywords VS Code reads in JSON Schemas; ajv's strict mode accepts them as annotations. */
export const VSCODE_SCHEMA_KEYWORDS = [
  'markdownDescription',
  'deprecationMessage',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'defaultSnippets',
  'errorMessage',
];

/** `${VAR}` and `${secret:NAME}`, the references config values may hold (resolved when a server starts). */
const REFERENCE = /\$\{(?:secret:)?[A-Za-z_][A-Za-z0-9_.-]*\}/g;
const LEADING_REFERENCE = /^\$\{(?:secret:)?[A-Za-z_][A-Za-z0-9_.-]*\}/;

function testerOf(format: unknown): (value: string) => boolean {
  if (format instanceof RegExp) return (value) => format.test(value);
  if (typeof format === 'function')
    return (value) => Boolean((format as (value: string) => unknown)(value));
  if (format !== null && typeof format === 'object' && 'validate' in format)
    return testerOf(format.validate);
  throw new Error('ajv-formats did not define the "uri" format');
}

/**
 * `format: uri` for values that may hold references: `https://${HOST}/mcp` or `${MCP_URL}` are checked
 * with each reference standing for a well-formed part (a leading one for a scheme and host), so only
 * what the file itself gets wrong is reported.
 */
function referenceAwareUri(uri: (value: string) => boolean): (value: string) => boolean {
  return (value) => {
    if (!value.includes('${')) return uri(value);
    return uri(value.replace(LEADING_REFERENCE, 'http://0').replace(REFERENCE, '0'));
  };
}

const validators = new WeakMap<JsonSchema, ValidateFunction>();

/** A compiled validator for one of the config schemas (compiled once per schema object). */
export function createConfigValidator(schema: JsonSchema): ValidateFunction {
  const cached = validators.get(schema);
  if (cached) return cached;
  // verbose: errors carry parentSchema, from which messages take descriptions and known keys.
  const ajv = new Ajv({ allErrors: true, strict: true, verbose: true });
  ajv.addVocabulary(VSCODE_SCHEMA_KEYWORDS);
  addFormats(ajv);
  ajv.addFormat('uri', referenceAwareUri(testerOf(ajv.formats.uri)));
  const validate = ajv.compile(schema);
  validators.set(schema, validate);
  return validate;
}
