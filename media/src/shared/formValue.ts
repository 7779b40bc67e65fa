/**
 * The form's state and the value assembled from it. A state starts from a value (the JSON view, a
 * previous run) or from the schema's defaults; the value is what the Run button sends. Text that is not
 * a number stays text, so the schema check says "must be a number" next to the field. Pure (no DOM).
 */
import { childPointer, type FieldModel, type FieldState, type FormProblem } from './schemaModel';

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return (
      a.length === (b as unknown[]).length && a.every((v, i) => deepEqual(v, (b as unknown[])[i]))
    );
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.prototype.hasOwnProperty.call(b, k) &&
        deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Whether a value looks like it belongs to this field (to pick a choice's option). */
export function fits(field: FieldModel, value: unknown): boolean {
  const type = typeOfValue(value);
  switch (field.kind) {
    case 'string':
      return type === 'string';
    case 'number':
      return field.integer ? type === 'integer' : type === 'number' || type === 'integer';
    case 'boolean':
      return type === 'boolean';
    case 'enum':
      return field.values.some((v) => deepEqual(v, value));
    case 'multi':
      return Array.isArray(value) && value.every((v) => field.values.includes(v as string));
    case 'const':
      return deepEqual(field.value, value);
    case 'null':
      return value === null;
    case 'array':
      return type === 'array';
    case 'object':
      return (
        type === 'object' &&
        Object.keys(value as object).every((k) => field.fields.some((f) => f.key === k))
      );
    case 'choice':
      return field.options.some((o) => fits(o.field, value));
    case 'json':
      return true;
  }
}

/** The state showing `value`, or the field's default (or nothing) when `value` is undefined. */
export function initialState(field: FieldModel, value?: unknown): FieldState {
  const v = value !== undefined ? value : field.default;
  switch (field.kind) {
    case 'string':
      return {
        kind: 'string',
        text: v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v),
      };
    case 'number':
      return {
        kind: 'number',
        text: v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v),
      };
    case 'boolean':
      return {
        kind: 'boolean',
        value: typeof v === 'boolean' ? v : field.tristate ? undefined : false,
      };
    case 'enum': {
      const index = field.values.findIndex((candidate) => deepEqual(candidate, v));
      return {
        kind: 'enum',
        index: index >= 0 ? index : field.required && v === undefined ? 0 : -1,
      };
    }
    case 'multi':
      return {
        kind: 'multi',
        picked: field.values.map((value) => Array.isArray(v) && v.includes(value)),
      };
    case 'const':
    case 'null':
      return { kind: field.kind };
    case 'array':
      return {
        kind: 'array',
        items: (Array.isArray(v) ? v : []).map((item) => initialState(field.items, item)),
      };
    case 'object': {
      const object =
        typeof v === 'object' && v !== null && !Array.isArray(v)
          ? (v as Record<string, unknown>)
          : {};
      return {
        kind: 'object',
        fields: Object.fromEntries(
          field.fields.map((f) => [f.key, initialState(f, object[f.key])]),
        ),
      };
    }
    case 'choice': {
      const chosen =
        v === undefined
          ? 0
          : Math.max(
              0,
              field.options.findIndex((o) => fits(o.field, v)),
            );
      return {
        kind: 'choice',
        index: chosen,
        options: field.options.map((o, i) => initialState(o.field, i === chosen ? v : undefined)),
      };
    }
    case 'json':
      return { kind: 'json', text: v === undefined ? '' : JSON.stringify(v, null, 2) };
  }
}

export interface Assembled {
  present: boolean;
  value?: unknown;
  problems: FormProblem[];
}

const absent = (problems: FormProblem[] = []): Assembled => ({ present: false, problems });
const present = (value: unknown, problems: FormProblem[] = []): Assembled => ({
  present: true,
  value,
  problems,
});

function assembleText(field: FieldModel & { kind: 'string' | 'number' }, text: string): Assembled {
  if (field.kind === 'string') {
    if (text === '') return field.required ? present('') : absent();
    return present(text);
  }
  const trimmed = text.trim();
  if (trimmed === '') return absent();
  // Not a number: sent to the check as text, which answers "must be a number" at this field.
  return present(NUMBER.test(trimmed) && Number.isFinite(Number(trimmed)) ? Number(trimmed) : text);
}

/** The value at `pointer` built from the state; `present: false` leaves the property out. */
export function assemble(field: FieldModel, state: FieldState, pointer = ''): Assembled {
  switch (state.kind) {
    case 'string':
    case 'number':
      return assembleText(field as FieldModel & { kind: 'string' | 'number' }, state.text);
    case 'boolean':
      return state.value === undefined ? absent() : present(state.value);
    case 'enum':
      return state.index < 0 || field.kind !== 'enum'
        ? absent()
        : present(field.values[state.index]);
    case 'multi': {
      if (field.kind !== 'multi') return absent();
      const picked = field.values.filter((_, i) => state.picked[i]);
      // None picked: left out, unless the field is required (then its minItems speaks).
      return picked.length || field.required ? present(picked) : absent();
    }
    case 'const':
      return field.kind === 'const' ? present(field.value) : absent();
    case 'null':
      return present(null);
    case 'array':
      return assembleArray(field, state, pointer);
    case 'object':
      return assembleObject(field, state, pointer);
    case 'choice': {
      if (field.kind !== 'choice') return absent();
      return assemble(field.options[state.index].field, state.options[state.index], pointer);
    }
    case 'json':
      return assembleJson(state.text, pointer);
  }
}

function assembleArray(
  field: FieldModel,
  state: FieldState & { kind: 'array' },
  pointer: string,
): Assembled {
  if (field.kind !== 'array') return absent();
  const problems: FormProblem[] = [];
  const value: unknown[] = [];
  state.items.forEach((item, index) => {
    const at = childPointer(pointer, index);
    const part = assemble(field.items, item, at);
    problems.push(...part.problems);
    if (part.present) value.push(part.value);
    else if (part.problems.length === 0)
      problems.push({ pointer: at, message: 'empty: fill it in or remove it' });
  });
  if (value.length === 0 && problems.length === 0 && !field.required) return absent();
  return present(value, problems);
}

function assembleObject(
  field: FieldModel,
  state: FieldState & { kind: 'object' },
  pointer: string,
): Assembled {
  if (field.kind !== 'object') return absent();
  const problems: FormProblem[] = [];
  const value: Record<string, unknown> = {};
  for (const child of field.fields) {
    const part = assemble(child, state.fields[child.key], childPointer(pointer, child.key));
    problems.push(...part.problems);
    if (part.present) value[child.key] = part.value;
  }
  // An optional nested object nobody filled in stays out, rather than sending {} with missing fields.
  if (Object.keys(value).length === 0 && problems.length === 0 && !field.required && pointer !== '')
    return absent();
  return present(value, problems);
}

function assembleJson(text: string, pointer: string): Assembled {
  if (text.trim() === '') return absent();
  try {
    return present(JSON.parse(text));
  } catch (error) {
    return absent([
      {
        pointer,
        message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      },
    ]);
  }
}

/** The value with the defaults the form fills in for properties it leaves out (the same call either way). */
function withDefaults(field: FieldModel, value: unknown): unknown {
  if (
    field.kind !== 'object' ||
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value)
  )
    return value;
  const object = { ...(value as Record<string, unknown>) };
  for (const child of field.fields) {
    if (child.key in object) object[child.key] = withDefaults(child, object[child.key]);
    else if (child.hasDefault) object[child.key] = child.default;
  }
  return object;
}

/** Whether the form can show `value` exactly, defaults aside (else the JSON view keeps it: nothing is lost). */
export function roundTrips(field: FieldModel, value: unknown): boolean {
  const again = assemble(field, initialState(field, value));
  return (
    again.problems.length === 0 &&
    again.present &&
    deepEqual(again.value, withDefaults(field, value))
  );
}
