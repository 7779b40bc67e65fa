/**
 * The enum forms of an elicitation's requested schema (MCP 2025-11-25, SEP-1330) as one list of
 * choices: an untitled `enum`, a titled `oneOf`/`anyOf` of `const`s, the legacy `enumNames`, and a
 * multi-select `array` whose `items` is one of those, with its `minItems`/`maxItems`.
 */

export interface EnumChoices {
  values: string[];
  /** What the person reads for each value: its title, or the value itself. */
  labels: string[];
  multi: boolean;
  minItems?: number;
  maxItems?: number;
}

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Titled constants (`[{ const, title }]`), or undefined when any option is something else. */
function titledConsts(options: unknown): { values: string[]; labels: string[] } | undefined {
  if (!Array.isArray(options) || options.length === 0) return undefined;
  const values: string[] = [];
  const labels: string[] = [];
  for (const option of options) {
    if (!isSchema(option) || typeof option.const !== 'string') return undefined;
    values.push(option.const);
    labels.push(typeof option.title === 'string' && option.title ? option.title : option.const);
  }
  return { values, labels };
}

/** The single-select forms: untitled `enum` (with `enumNames`, legacy), titled `oneOf`/`anyOf`. */
function singleChoices(schema: Schema): { values: string[]; labels: string[] } | undefined {
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) {
    const values = schema.enum as string[];
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return {
      values,
      labels: values.map((value, i) => (typeof names[i] === 'string' ? names[i] : value)),
    };
  }
  return titledConsts(schema.oneOf) ?? titledConsts(schema.anyOf);
}

const count = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;

/** The choices a property offers, or undefined when it is not one of the enum forms. */
export function enumChoices(property: unknown): EnumChoices | undefined {
  if (!isSchema(property)) return undefined;
  if (property.type === 'array') {
    const items = isSchema(property.items) ? singleChoices(property.items) : undefined;
    return items
      ? {
          ...items,
          multi: true,
          minItems: count(property.minItems),
          maxItems: count(property.maxItems),
        }
      : undefined;
  }
  const single = singleChoices(property);
  return single && { ...single, multi: false };
}
