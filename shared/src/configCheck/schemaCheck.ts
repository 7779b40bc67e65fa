import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ConfigFormat } from '../configFiles';
import { createConfigValidator } from '../schemas/ajv';
import { schemaForFormat } from '../schemas';
import { CheckDiagnostic, ORIGIN } from './diagnostic';
import { locate, PointerLocation, PointerMap } from './pointers';
import { humanMessage } from './schemaMessages';

const validators = new Map<ConfigFormat, ValidateFunction>();

function validatorFor(format: ConfigFormat): ValidateFunction {
  let validator = validators.get(format);
  if (!validator)
    validators.set(format, (validator = createConfigValidator(schemaForFormat(format))));
  return validator;
}

function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    current =
      current !== null && typeof current === 'object'
        ? (current as Record<string, unknown>)[key]
        : undefined;
  }
  return current;
}

/** Where each kind of schema error belongs: an unknown key on the key, a missing one on the table header. */
function placement(error: ErrorObject): { pointer: string; prefer: (keyof PointerLocation)[] } {
  if (error.keyword === 'additionalProperties') {
    return {
      pointer: `${error.instancePath}/${String(error.params.additionalProperty).replace(/~/g, '~0').replace(/\//g, '~1')}`,
      prefer: ['key'],
    };
  }
  if (error.keyword === 'required')
    return { pointer: error.instancePath, prefer: ['header', 'key'] };
  return { pointer: error.instancePath, prefer: ['value'] };
}

/** The format's JSON Schema (one source of truth, shared/src/schemas) applied with exact ranges. */
export function checkAgainstSchema(
  format: ConfigFormat,
  value: unknown,
  map: PointerMap,
): CheckDiagnostic[] {
  const validate = validatorFor(format);
  if (validate(value)) return [];
  const seen = new Set<string>();
  const diagnostics: CheckDiagnostic[] = [];
  for (const error of validate.errors ?? []) {
    // Combinator summaries repeat what their branches already said.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    const { pointer, prefer } = placement(error);
    const { message, suggestion } = humanMessage(error, valueAt(value, error.instancePath));
    const identity = `${pointer}|${message}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    diagnostics.push({
      range: locate(map, pointer, prefer) ?? ORIGIN,
      severity: 'error',
      code: `schema/${error.keyword}`,
      message,
      path: pointer,
      ...(suggestion
        ? { data: { suggestion } }
        : error.keyword === 'required'
          ? { data: { missingKey: error.params.missingProperty } }
          : {}),
    });
  }
  return diagnostics;
}
