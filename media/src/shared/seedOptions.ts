/**
 * The Run Tool form's advanced options: the seed and PRNG of the MCP draft extensions (§2), for a
 * tool whose input schema declares them (and does not require them: a required field stays in the
 * form). They are fields of the tool's own schema, rendered by the same form, set apart under a
 * disclosure; left empty, nothing is sent and the server picks (and says) its seed.
 */
import type { FieldError } from '@shared/toolPanelMessages';
import { el } from './dom';
import { SchemaForm, type FormValue } from './schemaForm';
import type { Schema } from './schemaModel';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The tool's schema without the fields set apart, and those fields as a schema of their own. */
export function splitSchema(
  schema: Schema,
  declared: readonly string[] | undefined,
): { main: Schema; apart?: Schema; fields: string[] } {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const fields = (declared ?? []).filter((f) => f in properties && !required.includes(f));
  if (!fields.length) return { main: schema, fields };
  const kept = Object.fromEntries(Object.entries(properties).filter(([k]) => !fields.includes(k)));
  const apart: Schema = {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f, properties[f]])),
    // The fields' own $refs still resolve.
    ...('$defs' in schema ? { $defs: schema.$defs } : {}),
    ...('definitions' in schema ? { definitions: schema.definitions } : {}),
  };
  return { main: { ...schema, properties: kept }, apart, fields };
}

const topField = (pointer: string) => pointer.split('/')[1] ?? '';

export class SeedOptions {
  readonly element: HTMLDetailsElement;
  private readonly form: SchemaForm;

  constructor(
    schema: Schema,
    private readonly fields: string[],
    onChange: () => void,
  ) {
    this.form = new SchemaForm(schema, { onChange, noJson: true });
    this.element = el(
      'details',
      { class: 'advanced-options' },
      el('summary', {}, 'Advanced options'),
      el(
        'p',
        { class: 'help' },
        'MCP draft §2: the same seed should give the same result. Left empty, the server picks one and says which.',
      ),
      this.form.element,
    );
  }

  has(field: string): boolean {
    return this.fields.includes(field);
  }

  value(): FormValue {
    return this.form.value();
  }

  /** Takes its fields out of `args` into the form; the rest is returned. */
  setValue(args: Record<string, unknown>): Record<string, unknown> {
    const mine = Object.fromEntries(Object.entries(args).filter(([k]) => this.has(k)));
    this.form.setValue(mine);
    if (Object.keys(mine).length) this.element.open = true;
    return Object.fromEntries(Object.entries(args).filter(([k]) => !this.has(k)));
  }

  /** Shows the problems about its fields; returns the others. */
  showErrors(errors: FieldError[]): FieldError[] {
    const mine = errors.filter((e) => this.has(topField(e.pointer)));
    this.form.showErrors(mine);
    return errors.filter((e) => !mine.includes(e));
  }

  /** Run was pressed: every problem shows, and the options open when one is theirs. */
  revealAll(): void {
    this.form.revealAll();
    if (this.element.querySelector('[aria-invalid="true"]')) this.element.open = true;
  }

  focusFirstError(): boolean {
    const invalid = this.element.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!invalid) return false;
    this.element.open = true;
    invalid.focus();
    return true;
  }
}
