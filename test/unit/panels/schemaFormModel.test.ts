import { strict as assert } from 'node:assert';
import type * as FormValue from '../../../media/src/shared/formValue';
import type * as SchemaModel from '../../../media/src/shared/schemaModel';
import type { FieldModel } from '../../../media/src/shared/schemaModel';
import { browserModule } from '../toolPanels/browserModule';

const { fieldModel, labelOf } = browserModule<typeof SchemaModel>(
  'media/src/shared/schemaModel.ts',
);
const { assemble, initialState, roundTrips, fits } = browserModule<typeof FormValue>(
  'media/src/shared/formValue.ts',
);

function fieldsOf(model: FieldModel): Record<string, FieldModel> {
  assert.equal(model.kind, 'object');
  return Object.fromEntries(
    (model as FieldModel & { kind: 'object' }).fields.map((f) => [f.key, f]),
  );
}

/** The arguments a person gets by leaving every field as the form starts it. */
function startingValue(schema: Record<string, unknown>, initial?: unknown) {
  const model = fieldModel(schema);
  return assemble(model, initialState(model, initial));
}

describe('schema form: the field model', () => {
  it('makes a field of the right kind for each simple type, with required marks and help', () => {
    const model = fieldModel({
      type: 'object',
      required: ['title', 'count'],
      properties: {
        title: { type: 'string', description: 'The title', minLength: 1 },
        body: { type: 'string' },
        count: { type: 'integer', minimum: 1, maximum: 10 },
        ratio: { type: 'number', exclusiveMaximum: 1 },
        dryRun: { type: 'boolean', default: false },
        verbose: { type: 'boolean' },
        mode: { type: 'string', enum: ['fast', 'safe'] },
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        essay: { type: 'string', maxLength: 5000 },
      },
    });
    const f = fieldsOf(model);
    assert.deepEqual(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.kind])), {
      title: 'string',
      body: 'string',
      count: 'number',
      ratio: 'number',
      dryRun: 'boolean',
      verbose: 'boolean',
      mode: 'enum',
      email: 'string',
      site: 'string',
      day: 'string',
      at: 'string',
      essay: 'string',
    });
    assert.equal(f.title.required, true);
    assert.equal(f.body.required, false);
    assert.equal(f.title.description, 'The title');
    assert.equal(f.dryRun.label, 'dry run');
    const widget = (k: string) => (f[k] as FieldModel & { kind: 'string' }).widget;
    assert.deepEqual(
      [
        widget('title'),
        widget('body'),
        widget('email'),
        widget('site'),
        widget('day'),
        widget('at'),
        widget('essay'),
      ],
      ['text', 'textarea', 'email', 'url', 'date', 'datetime', 'textarea'],
    );
    const count = f.count as FieldModel & { kind: 'number' };
    assert.deepEqual([count.integer, count.minimum, count.maximum], [true, 1, 10]);
    assert.equal((f.ratio as FieldModel & { kind: 'number' }).exclusiveMaximum, 1);
    assert.equal(
      (f.dryRun as FieldModel & { kind: 'boolean' }).tristate,
      false,
      'a default makes a checkbox',
    );
    assert.equal(
      (f.verbose as FieldModel & { kind: 'boolean' }).tristate,
      true,
      'optional with no default: not set / true / false',
    );
    assert.deepEqual((f.mode as FieldModel & { kind: 'enum' }).values, ['fast', 'safe']);
  });

  it('labels from titles, else from the property name', () => {
    assert.equal(labelOf('max_results'), 'max results');
    assert.equal(labelOf('maxResults'), 'max results');
    assert.equal(
      fieldsOf(
        fieldModel({ type: 'object', properties: { q: { type: 'string', title: 'Query' } } }),
      ).q.label,
      'Query',
    );
  });

  it('nests objects as fieldsets and lists of primitives or objects as rows', () => {
    const f = fieldsOf(
      fieldModel({
        type: 'object',
        properties: {
          tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
          points: {
            type: 'array',
            items: {
              type: 'object',
              properties: { x: { type: 'number' }, y: { type: 'number' } },
              required: ['x', 'y'],
            },
          },
          options: { type: 'object', properties: { depth: { type: 'integer' } } },
        },
      }),
    );
    assert.equal(f.tags.kind, 'array');
    assert.equal((f.tags as FieldModel & { kind: 'array' }).items.kind, 'string');
    assert.equal((f.tags as FieldModel & { kind: 'array' }).maxItems, 3);
    assert.equal((f.points as FieldModel & { kind: 'array' }).items.kind, 'object');
    assert.equal(f.options.kind, 'object');
  });

  it('offers a selector for oneOf/anyOf of simple types, and collapses "T or null" to a nullable T', () => {
    const f = fieldsOf(
      fieldModel({
        type: 'object',
        properties: {
          target: {
            oneOf: [
              { type: 'string', title: 'Path' },
              { type: 'integer', title: 'File id' },
            ],
          },
          limit: {
            anyOf: [{ type: 'integer' }, { type: 'null' }],
            description: 'No limit when null',
          },
          either: { type: ['string', 'number'] },
        },
      }),
    );
    assert.equal(f.target.kind, 'choice');
    assert.deepEqual(
      (f.target as FieldModel & { kind: 'choice' }).options.map((o) => o.label),
      ['Path', 'File id'],
    );
    assert.equal(f.limit.kind, 'number');
    assert.equal(f.limit.nullable, true);
    assert.equal(f.limit.description, 'No limit when null');
    assert.equal(f.either.kind, 'choice');
  });

  it('follows local $refs and merges allOf of objects', () => {
    const f = fieldsOf(
      fieldModel({
        type: 'object',
        $defs: { color: { type: 'string', enum: ['red', 'green'] } },
        properties: {
          color: { $ref: '#/$defs/color' },
          both: {
            allOf: [
              { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
              { properties: { b: { type: 'number' } } },
            ],
          },
        },
      }),
    );
    assert.equal(f.color.kind, 'enum');
    const both = fieldsOf(f.both);
    assert.deepEqual(Object.keys(both), ['a', 'b']);
    assert.equal(both.a.required, true);
  });

  it('falls back to a JSON field for what the form cannot express', () => {
    const f = fieldsOf(
      fieldModel({
        type: 'object',
        properties: {
          free: { type: 'object', additionalProperties: { type: 'string' } },
          anything: {},
          tuple: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
          loop: { $ref: '#/properties/loop' },
          mixed: {
            oneOf: [
              { type: 'object', properties: { a: { type: 'string' } } },
              { oneOf: [{ type: 'string' }, { type: 'number' }] },
            ],
          },
          remote: { $ref: 'https://example.com/schema.json' },
        },
      }),
    );
    for (const key of ['free', 'anything', 'tuple', 'loop', 'mixed', 'remote'])
      assert.equal(f[key].kind, 'json', key);
    assert.equal(
      fieldModel({ type: 'object', additionalProperties: true }).kind,
      'json',
      'a free-form root is edited as JSON',
    );
    assert.deepEqual(
      fieldsOf(fieldModel({ type: 'object' })),
      {},
      'a tool with no arguments has an empty form',
    );
  });
});

describe('schema form: value assembly', () => {
  const schema = {
    type: 'object',
    required: ['a', 'b'],
    properties: {
      a: { type: 'number' },
      b: { type: 'number' },
      note: { type: 'string' },
      words: { type: 'integer', default: 20 },
      shuffle: { type: 'boolean', default: false },
      verbose: { type: 'boolean' },
      mode: { type: 'string', enum: ['fast', 'safe'] },
    },
  };

  it('starts from the defaults, leaving out what is optional and unset', () => {
    assert.deepEqual(startingValue(schema), {
      present: true,
      value: { words: 20, shuffle: false },
      problems: [],
    });
  });

  it('turns typed text into numbers, and keeps text that is not one for the schema check to name', () => {
    const model = fieldModel(schema);
    const state = initialState(model) as {
      kind: 'object';
      fields: Record<string, { kind: string; text?: string }>;
    };
    state.fields.a.text = ' 2.5 ';
    state.fields.b.text = 'two';
    state.fields.note.text = 'hi';
    assert.deepEqual(assemble(model, state as never).value, {
      a: 2.5,
      b: 'two',
      note: 'hi',
      words: 20,
      shuffle: false,
    });
    state.fields.b.text = '1e3';
    assert.equal((assemble(model, state as never).value as { b: number }).b, 1000);
  });

  it('builds lists and nested objects, and reports empty rows and broken JSON at their pointers', () => {
    const nested = {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' } },
        counts: { type: 'array', items: { type: 'integer' } },
        options: { type: 'object', properties: { depth: { type: 'integer' } } },
        extra: {},
      },
    };
    const model = fieldModel(nested);
    assert.deepEqual(
      assemble(model, initialState(model)).value,
      {},
      'an optional nested object nobody filled in stays out',
    );
    const value = { tags: ['a', 'b'], counts: [1, 2], options: { depth: 3 }, extra: { any: [1] } };
    const state = initialState(model, value);
    assert.deepEqual(assemble(model, state), { present: true, value, problems: [] });
    const s = state as { kind: 'object'; fields: Record<string, never> };
    (s.fields.counts as { items: { text: string }[] }).items[1].text = '';
    (s.fields.extra as { text: string }).text = '{ nope';
    const broken = assemble(model, state);
    assert.deepEqual(
      broken.problems.map((p) => p.pointer),
      ['/counts/1', '/extra'],
    );
    assert.match(broken.problems[1].message, /^not valid JSON/);
  });

  it('sends the chosen option of a oneOf, and picks the option that fits a given value', () => {
    const model = fieldModel({
      type: 'object',
      properties: { target: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
    });
    assert.deepEqual(assemble(model, initialState(model, { target: 42 })).value, { target: 42 });
    assert.deepEqual(assemble(model, initialState(model, { target: 'x' })).value, { target: 'x' });
    const target = (model as FieldModel & { kind: 'object' }).fields[0];
    assert.equal(fits(target, 1.5), false);
  });

  it('round-trips values the form can show, and says so when it cannot (JSON view keeps them)', () => {
    const model = fieldModel(schema);
    assert.equal(roundTrips(model, { a: 1, b: 2, words: 5, shuffle: true, mode: 'safe' }), true);
    assert.equal(
      roundTrips(model, { a: 1, b: 2, unknown: true }),
      false,
      'a field the schema does not have',
    );
    assert.equal(
      roundTrips(model, { a: 1, b: 2, mode: 'other' }),
      false,
      'a value outside the enum',
    );
    assert.equal(
      roundTrips(model, { a: 1, b: 2, verbose: false }),
      true,
      'a tri-state boolean keeps false',
    );
  });
});
