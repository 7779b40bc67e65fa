/**
 * A tool's inputSchema rendered as a real form (schemaModel.ts decides what each part becomes):
 * text, long text, select, checkbox, number, lists with add/remove, nested fieldsets, a selector for
 * oneOf/anyOf, help text from descriptions, required marks and defaults; "Edit as JSON" for anything
 * the form cannot express. Problems (from assembling the value, or from the host's schema check) are
 * shown next to their fields. Every control is a native element: keyboard reachable, labelled.
 */
import { button, el, focusedHere, uniqueId, type Child } from './dom';
import { assemble, initialState, roundTrips } from './formValue';
import {
  childPointer,
  fieldModel,
  type FieldModel,
  type FieldState,
  type FormProblem,
  type Schema,
} from './schemaModel';

export interface SchemaFormOptions {
  /** Called after every edit (the owner debounces and asks the host to check). */
  onChange(): void;
  /** Values to start from instead of the schema's defaults. */
  initial?: Record<string, unknown>;
  /** No "Edit as JSON" (a few fields set apart from the main form). */
  noJson?: boolean;
}

export interface FormValue {
  value?: Record<string, unknown>;
  problems: FormProblem[];
}

interface Slot {
  message: HTMLElement;
  control?: HTMLElement;
}

const INPUT_TYPES: Record<string, string> = {
  email: 'email',
  url: 'url',
  date: 'date',
  time: 'text',
  datetime: 'text',
  text: 'text',
};
const PLACEHOLDERS: Record<string, string> = {
  datetime: '2025-01-31T09:30:00Z',
  time: '09:30:00Z',
  url: 'https://…',
  email: 'name@example.com',
};

function decodeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** "/a/0/b" → "a[0].b", for messages about a part of a JSON field. */
export function pointerLabel(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map(decodeSegment)
    .reduce(
      (label, part) =>
        /^\d+$/.test(part) ? `${label}[${part}]` : label ? `${label}.${part}` : part,
      '',
    );
}

/** Hints under a field: kind, range, length, format, default. */
function hints(field: FieldModel): string[] {
  const out: string[] = [];
  if (field.kind === 'number') {
    out.push(field.integer ? 'whole number' : 'number');
    const low = field.minimum ?? field.exclusiveMinimum;
    const high = field.maximum ?? field.exclusiveMaximum;
    const lowWord = field.exclusiveMinimum !== undefined ? 'above' : 'from';
    const highWord = field.exclusiveMaximum !== undefined ? 'below' : 'to';
    if (low !== undefined && high !== undefined) out.push(`${lowWord} ${low} ${highWord} ${high}`);
    else if (low !== undefined)
      out.push(field.exclusiveMinimum !== undefined ? `above ${low}` : `at least ${low}`);
    else if (high !== undefined)
      out.push(field.exclusiveMaximum !== undefined ? `below ${high}` : `at most ${high}`);
    if (field.multipleOf !== undefined) out.push(`multiple of ${field.multipleOf}`);
  }
  if (field.kind === 'string') {
    if (field.format) out.push(`format: ${field.format}`);
    if (field.minLength !== undefined && field.minLength > 1)
      out.push(`at least ${field.minLength} characters`);
    if (field.maxLength !== undefined) out.push(`at most ${field.maxLength} characters`);
    if (field.pattern) out.push(`pattern ${field.pattern}`);
  }
  if (
    (field.kind === 'array' || field.kind === 'multi') &&
    (field.minItems !== undefined || field.maxItems !== undefined)
  ) {
    const noun = field.kind === 'multi' ? 'choices' : 'items';
    out.push(
      field.minItems !== undefined && field.maxItems !== undefined
        ? `pick ${field.minItems} to ${field.maxItems} ${noun}`
        : field.minItems !== undefined
          ? `at least ${field.minItems} ${noun}`
          : `at most ${field.maxItems} ${noun}`,
    );
  }
  if (field.kind === 'json') out.push(`JSON (${field.reason})`);
  if (field.nullable) out.push('may be null');
  if (field.hasDefault) out.push(`default ${JSON.stringify(field.default)}`);
  return out;
}

export class SchemaForm {
  readonly element = el('div', { class: 'schema-form' });
  private readonly model: FieldModel;
  private state: FieldState;
  private mode: 'form' | 'json' = 'form';
  private jsonText = '';
  private slots = new Map<string, Slot>();
  private errors: FormProblem[] = [];
  /** Fields the person has changed: their problems show as they type; the rest once Run is pressed. */
  private readonly touched = new Set<string>();
  private revealed = false;
  private readonly body = el('div', { class: 'form-body' });
  private readonly toggle: HTMLButtonElement;
  private readonly notice = el('div', { class: 'notice warning', role: 'status' });

  constructor(
    schema: Schema,
    private readonly options: SchemaFormOptions,
  ) {
    this.model = fieldModel(schema);
    this.state = initialState(this.model, options.initial);
    this.toggle = button('Edit as JSON', () => this.switchMode(), {
      class: 'secondary small json-toggle',
      'aria-pressed': 'false',
    });
    const noArguments = this.model.kind === 'object' && this.model.fields.length === 0;
    this.element.append(
      ...(noArguments || options.noJson ? [] : [el('div', { class: 'form-tools' }, this.toggle)]),
      this.notice,
      this.body,
    );
    this.render();
  }

  /** The arguments to send, and what stops them from being sent. */
  value(): FormValue {
    if (this.mode === 'json') {
      try {
        const value: unknown = this.jsonText.trim() ? JSON.parse(this.jsonText) : {};
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          return {
            problems: [{ pointer: '', message: 'the arguments must be a JSON object ({…})' }],
          };
        return { value: value as Record<string, unknown>, problems: [] };
      } catch (error) {
        return {
          problems: [
            {
              pointer: '',
              message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
            },
          ],
        };
      }
    }
    const assembled = assemble(this.model, this.state);
    const value =
      assembled.present &&
      typeof assembled.value === 'object' &&
      assembled.value !== null &&
      !Array.isArray(assembled.value)
        ? (assembled.value as Record<string, unknown>)
        : {};
    return { value, problems: assembled.problems };
  }

  /**
   * Shows `value` (arguments from a past run): in the form when it can show them exactly, otherwise
   * as JSON.
   */
  setValue(value: Record<string, unknown>): void {
    this.notice.replaceChildren();
    if (roundTrips(this.model, value)) {
      this.state = initialState(this.model, value);
      this.mode = 'form';
    } else {
      this.jsonText = JSON.stringify(value, null, 2);
      this.mode = 'json';
    }
    this.toggle.setAttribute('aria-pressed', String(this.mode === 'json'));
    this.render();
    this.changed();
  }

  /** From now on every problem shows, touched or not (Run was pressed). */
  revealAll(): void {
    this.revealed = true;
    this.showErrors(this.errors);
  }

  private visible(error: FormProblem): boolean {
    if (this.revealed || this.mode === 'json') return true;
    for (const pointer of this.touched)
      if (error.pointer === pointer || error.pointer.startsWith(`${pointer}/`)) return true;
    return false;
  }

  /** Shows each problem next to its field (or the nearest field above it). */
  showErrors(errors: FormProblem[]): void {
    this.errors = errors;
    for (const slot of this.slots.values()) {
      slot.message.replaceChildren();
      slot.control?.removeAttribute('aria-invalid');
    }
    const grouped = new Map<Slot, string[]>();
    for (const error of errors.filter((e) => this.visible(e))) {
      let pointer = this.mode === 'json' ? '' : error.pointer;
      while (!this.slots.has(pointer) && pointer !== '')
        pointer = pointer.slice(0, pointer.lastIndexOf('/'));
      const slot = this.slots.get(pointer) ?? this.slots.get('');
      if (!slot) continue;
      const rest = error.pointer.slice(pointer.length);
      const text = rest ? `${pointerLabel(rest)}: ${error.message}` : error.message;
      grouped.set(slot, [...(grouped.get(slot) ?? []), text]);
    }
    for (const [slot, messages] of grouped) {
      slot.message.append(...messages.map((m) => el('div', {}, m)));
      slot.control?.setAttribute('aria-invalid', 'true');
    }
  }

  /** The first field with a problem: focus goes there when Run is refused. */
  focusFirstError(): void {
    const invalid = this.element.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
  }

  private changed(pointer?: string): void {
    if (pointer !== undefined) this.touched.add(pointer);
    this.options.onChange();
  }

  private switchMode(): void {
    this.notice.replaceChildren();
    if (this.mode === 'form') {
      this.jsonText = JSON.stringify(this.value().value ?? {}, null, 2);
      this.mode = 'json';
    } else {
      let parsed: unknown;
      try {
        parsed = this.jsonText.trim() ? JSON.parse(this.jsonText) : {};
      } catch (error) {
        this.notice.append(
          `Fix the JSON before going back to the form: ${error instanceof Error ? error.message : String(error)}`,
        );
        return;
      }
      if (!roundTrips(this.model, parsed)) {
        this.notice.append(
          'The form cannot show these arguments exactly (a field it does not know, or a value of another type). Keep editing them as JSON, or clear what the form cannot show.',
        );
        return;
      }
      this.state = initialState(this.model, parsed);
      this.mode = 'form';
    }
    this.toggle.setAttribute('aria-pressed', String(this.mode === 'json'));
    this.render(this.mode === 'json' ? 'json-editor' : undefined);
    this.changed();
  }

  /** Renders everything again (after a structural change), keeping focus where it was. */
  private render(focusKey?: string): void {
    const active = focusKey ?? focusedHere()?.dataset?.focus;
    this.slots = new Map();
    const formErrors = el('div', { class: 'field-error form-error', 'aria-live': 'polite' });
    this.slots.set('', { message: formErrors });
    if (this.mode === 'json') {
      const id = uniqueId('json');
      const editor = el(
        'textarea',
        {
          id,
          class: 'json-editor',
          rows: '12',
          spellcheck: 'false',
          'data-focus': 'json-editor',
          'aria-describedby': `${id}-help`,
        },
        this.jsonText,
      );
      editor.addEventListener('input', () => {
        this.jsonText = editor.value;
        this.changed();
      });
      this.slots.set('', { message: formErrors, control: editor });
      this.body.replaceChildren(
        el('label', { for: id }, 'Arguments (JSON)'),
        editor,
        el(
          'div',
          { class: 'help', id: `${id}-help` },
          "The whole arguments object, checked against the tool's input schema.",
        ),
        formErrors,
      );
    } else if (this.model.kind === 'object') {
      const fields = this.model.fields.map((f) =>
        this.field(
          f,
          (this.state as FieldState & { kind: 'object' }).fields[f.key],
          childPointer('', f.key),
        ),
      );
      this.body.replaceChildren(
        ...(fields.length
          ? fields
          : [el('p', { class: 'muted' }, 'This tool takes no arguments.')]),
        formErrors,
      );
    } else {
      this.body.replaceChildren(this.field(this.model, this.state, ''), formErrors);
    }
    this.showErrors(this.errors);
    if (active)
      this.element.querySelector<HTMLElement>(`[data-focus="${CSS.escape(active)}"]`)?.focus();
  }

  /** One field with its label, control, help and error slot. */
  private field(
    field: FieldModel,
    state: FieldState,
    pointer: string,
    labelText?: string,
  ): HTMLElement {
    if (
      field.kind === 'object' ||
      field.kind === 'array' ||
      field.kind === 'choice' ||
      field.kind === 'multi'
    )
      return this.group(field, state, pointer, labelText);
    const id = uniqueId('f');
    const helpId = `${id}-help`;
    const errorId = `${id}-error`;
    const help = hints(field);
    const describedBy = [field.description || help.length ? helpId : '', errorId]
      .filter(Boolean)
      .join(' ');
    const control = this.control(field, state, id, pointer, describedBy);
    const message = el('div', { class: 'field-error', id: errorId });
    this.slots.set(pointer, { message, control });
    const label = this.label(field, labelText, id);
    const helpNode =
      field.description || help.length
        ? el(
            'div',
            { class: 'help', id: helpId },
            ...(field.description ? [el('span', { class: 'description' }, field.description)] : []),
            ...(help.length ? [el('span', { class: 'hints' }, help.join(' · '))] : []),
          )
        : '';
    const inline = field.kind === 'boolean' && !field.tristate;
    return el(
      'div',
      { class: `field field-${field.kind}${inline ? ' inline' : ''}`, 'data-pointer': pointer },
      ...(inline ? [control, label] : [label, control]),
      helpNode,
      message,
    );
  }

  private label(field: FieldModel, labelText: string | undefined, forId: string): HTMLElement {
    const text = labelText ?? field.label;
    return el(
      'label',
      { for: forId },
      text,
      ...(field.required && field.key
        ? [el('span', { class: 'required', 'aria-hidden': 'true' }, ' *')]
        : []),
    );
  }

  private control(
    field: FieldModel,
    state: FieldState,
    id: string,
    pointer: string,
    describedBy: string,
  ): HTMLElement {
    const common = {
      id,
      'aria-describedby': describedBy || undefined,
      'aria-required': field.required && field.key ? 'true' : undefined,
      'data-focus': `${pointer}#control`,
    };
    switch (field.kind) {
      case 'string': {
        const s = state as FieldState & { kind: 'string' };
        const node =
          field.widget === 'textarea'
            ? el('textarea', { ...common, rows: '4' }, s.text)
            : el('input', {
                ...common,
                type: INPUT_TYPES[field.widget] ?? 'text',
                value: s.text,
                placeholder: PLACEHOLDERS[field.widget],
                maxlength: field.maxLength !== undefined ? String(field.maxLength) : undefined,
              });
        if (node instanceof HTMLInputElement) node.value = s.text;
        node.addEventListener(
          'input',
          () => ((s.text = (node as HTMLInputElement).value), this.changed(pointer)),
        );
        return node;
      }
      case 'number': {
        const s = state as FieldState & { kind: 'number' };
        const node = el('input', {
          ...common,
          type: 'text',
          inputmode: field.integer ? 'numeric' : 'decimal',
          autocomplete: 'off',
        });
        node.value = s.text;
        node.addEventListener('input', () => ((s.text = node.value), this.changed(pointer)));
        return node;
      }
      case 'boolean':
        return this.booleanControl(
          field,
          state as FieldState & { kind: 'boolean' },
          common,
          pointer,
        );
      case 'enum':
        return this.enumControl(field, state as FieldState & { kind: 'enum' }, common, pointer);
      case 'const':
        return el('code', { ...common, tabindex: '0' }, JSON.stringify(field.value));
      case 'null':
        return el('code', { ...common, tabindex: '0' }, 'null');
      default: {
        const s = state as FieldState & { kind: 'json' };
        const node = el(
          'textarea',
          { ...common, class: 'json-editor', rows: '3', spellcheck: 'false' },
          s.text,
        );
        node.addEventListener('input', () => ((s.text = node.value), this.changed(pointer)));
        return node;
      }
    }
  }

  private booleanControl(
    field: FieldModel & { kind: 'boolean' },
    s: FieldState & { kind: 'boolean' },
    common: Record<string, string | undefined>,
    pointer: string,
  ): HTMLElement {
    if (field.tristate) {
      const node = el(
        'select',
        common,
        el('option', { value: '' }, '— not set —'),
        el('option', { value: 'true' }, 'true'),
        el('option', { value: 'false' }, 'false'),
      );
      node.value = s.value === undefined ? '' : String(s.value);
      node.addEventListener(
        'change',
        () => (
          (s.value = node.value === '' ? undefined : node.value === 'true'),
          this.changed(pointer)
        ),
      );
      return node;
    }
    const node = el('input', { ...common, type: 'checkbox' });
    node.checked = s.value === true;
    node.addEventListener('change', () => ((s.value = node.checked), this.changed(pointer)));
    return node;
  }

  private enumControl(
    field: FieldModel & { kind: 'enum' },
    s: FieldState & { kind: 'enum' },
    common: Record<string, string | undefined>,
    pointer: string,
  ): HTMLElement {
    const options: Child[] = field.values.map((v, i) =>
      el(
        'option',
        { value: String(i) },
        field.labels?.[i] ?? (typeof v === 'string' ? v : JSON.stringify(v)),
      ),
    );
    const notSet = !field.required || s.index < 0;
    const node = el(
      'select',
      common,
      ...(notSet ? [el('option', { value: '-1' }, '— not set —')] : []),
      ...options,
    );
    node.value = String(s.index);
    node.addEventListener('change', () => ((s.index = Number(node.value)), this.changed(pointer)));
    return node;
  }

  /** A multi-select (SEP-1330): one checkbox per value, its title as the label. */
  private checkboxes(
    field: FieldModel & { kind: 'multi' },
    s: FieldState & { kind: 'multi' },
    pointer: string,
  ): HTMLElement {
    const boxes = field.values.map((value, i) => {
      const id = uniqueId('pick');
      const box = el('input', { type: 'checkbox', id, value, 'data-focus': `${pointer}/${i}` });
      box.checked = s.picked[i] === true;
      box.addEventListener('change', () => ((s.picked[i] = box.checked), this.changed(pointer)));
      return el('div', { class: 'multi-choice' }, box, el('label', { for: id }, field.labels[i]));
    });
    return el('div', { class: 'multi-choices', role: 'group' }, ...boxes);
  }

  /** Nested objects, lists, choices and multi-selects: a fieldset with a legend. */
  private group(
    field: FieldModel,
    state: FieldState,
    pointer: string,
    labelText?: string,
  ): HTMLElement {
    const message = el('div', { class: 'field-error', id: uniqueId('group-error') });
    const legend = el(
      'legend',
      {},
      labelText ?? field.label,
      ...(field.required && field.key
        ? [el('span', { class: 'required', 'aria-hidden': 'true' }, ' *')]
        : []),
    );
    const help = hints(field);
    const helpNode =
      field.description || help.length
        ? el(
            'div',
            { class: 'help' },
            ...(field.description ? [el('span', { class: 'description' }, field.description)] : []),
            ...(help.length ? [el('span', { class: 'hints' }, help.join(' · '))] : []),
          )
        : '';
    const set = el(
      'fieldset',
      {
        class: `field group field-${field.kind}`,
        'data-pointer': pointer,
        'aria-describedby': message.id,
      },
      legend,
      helpNode,
    );
    this.slots.set(pointer, { message, control: set });
    if (field.kind === 'object') {
      const s = state as FieldState & { kind: 'object' };
      set.append(
        ...field.fields.map((f) => this.field(f, s.fields[f.key], childPointer(pointer, f.key))),
      );
    } else if (field.kind === 'array') {
      set.append(...this.rows(field, state as FieldState & { kind: 'array' }, pointer));
    } else if (field.kind === 'choice') {
      set.append(...this.choice(field, state as FieldState & { kind: 'choice' }, pointer));
    } else if (field.kind === 'multi') {
      set.append(this.checkboxes(field, state as FieldState & { kind: 'multi' }, pointer));
    }
    set.append(message);
    return set;
  }

  private rows(
    field: FieldModel & { kind: 'array' },
    s: FieldState & { kind: 'array' },
    pointer: string,
  ): HTMLElement[] {
    const rows = s.items.map((item, index) => {
      const at = childPointer(pointer, index);
      const remove = button(
        'Remove',
        () => {
          s.items.splice(index, 1);
          this.render(
            s.items.length
              ? `${childPointer(pointer, Math.min(index, s.items.length - 1))}#remove`
              : `${pointer}#add`,
          );
          this.changed(pointer);
        },
        {
          class: 'secondary small',
          'aria-label': `Remove ${field.label} item ${index + 1}`,
          'data-focus': `${at}#remove`,
        },
      );
      return el(
        'div',
        { class: 'array-row' },
        this.field(field.items, item, at, `${field.label} ${index + 1}`),
        remove,
      );
    });
    const full = field.maxItems !== undefined && s.items.length >= field.maxItems;
    const add = button(
      `Add ${field.label === 'item' ? 'an item' : `to ${field.label}`}`,
      () => {
        s.items.push(initialState(field.items));
        this.render(`${childPointer(pointer, s.items.length - 1)}#control`);
        this.changed(pointer);
      },
      {
        class: 'secondary small',
        'data-focus': `${pointer}#add`,
        disabled: full ? 'true' : undefined,
      },
    );
    return [...(rows.length ? rows : [el('div', { class: 'muted empty-list' }, 'No items.')]), add];
  }

  private choice(
    field: FieldModel & { kind: 'choice' },
    s: FieldState & { kind: 'choice' },
    pointer: string,
  ): HTMLElement[] {
    const id = uniqueId('choice');
    const select = el(
      'select',
      { id, 'data-focus': `${pointer}#choice` },
      ...field.options.map((o, i) => el('option', { value: String(i) }, o.label)),
    );
    select.value = String(s.index);
    select.addEventListener('change', () => {
      s.index = Number(select.value);
      this.render(`${pointer}#choice`);
      this.changed(pointer);
    });
    const option = field.options[s.index];
    return [
      el(
        'div',
        { class: 'choice-select' },
        el('label', { for: id }, `Kind (${field.keyword === 'oneOf' ? 'one of' : 'any of'})`),
        select,
      ),
      this.field(option.field, s.options[s.index], pointer, 'Value'),
    ];
  }
}
