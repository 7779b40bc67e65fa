import { strict as assert } from 'node:assert';
import { ArgumentChecker } from '../../../client/src/kernel/pipeline/argumentChecker';

const validator = new ArgumentChecker();
const messages = (schema: Record<string, unknown>, args: unknown) =>
  validator.check(schema, args).errors;

describe('schema form: validation messages (ajv in the host)', () => {
  const schema = {
    type: 'object',
    required: ['a', 'b'],
    additionalProperties: false,
    properties: {
      a: { type: 'number' },
      b: { type: 'number' },
      steps: { type: 'integer', minimum: 1, maximum: 1000 },
      title: { type: 'string', minLength: 1 },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      email: { type: 'string', format: 'email' },
      day: { type: 'string', format: 'date' },
      mode: { enum: ['fast', 'safe'] },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 2, uniqueItems: true },
    },
  };

  it('accepts arguments that fit', () => {
    assert.deepEqual(validator.check(schema, { a: 1, b: 2, steps: 3, tags: ['x'] }), {
      errors: [],
    });
  });

  it('puts a missing property at the property, and a wrong type at the value, in words', () => {
    assert.deepEqual(messages(schema, { a: 'two' }), [
      { pointer: '/b', message: 'required' },
      { pointer: '/a', message: 'must be a number' },
    ]);
  });

  it('says ranges, lengths, patterns, formats, enums and list limits plainly', () => {
    const errors = messages(schema, {
      a: 1,
      b: 2,
      steps: 0,
      title: '',
      code: 'ab',
      email: 'nobody',
      day: '31/01/2025',
      mode: 'slow',
      tags: ['x', 'x', 'y'],
    });
    const at = Object.fromEntries(errors.map((e) => [e.pointer, e.message]));
    assert.equal(at['/steps'], 'must be at least 1');
    assert.equal(at['/title'], 'must not be empty');
    assert.equal(at['/code'], 'must match the pattern ^[A-Z]{3}$');
    assert.equal(at['/email'], 'must be an email address (name@example.com)');
    assert.equal(at['/day'], 'must be a date (YYYY-MM-DD)');
    assert.equal(at['/mode'], 'must be one of: "fast", "safe"');
    assert.equal(
      at['/tags'],
      'takes at most 2 items; must not repeat items (items 1 and 2 are the same)',
    );
  });

  it('names an unknown field at its object, and whole numbers as such', () => {
    assert.deepEqual(messages(schema, { a: 1, b: 2, steps: 1.5, extra: true }), [
      { pointer: '', message: 'has an unknown field "extra"' },
      { pointer: '/steps', message: 'must be a whole number' },
    ]);
  });

  it('says "one of the choices" once for a oneOf, not why each choice failed', () => {
    const choice = {
      type: 'object',
      properties: { target: { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] } },
    };
    assert.deepEqual(messages(choice, { target: -1 }), [
      { pointer: '/target', message: 'must match one of the choices' },
    ]);
    assert.deepEqual(messages(choice, { target: 'x' }), []);
  });

  it('escapes property names in pointers', () => {
    assert.deepEqual(messages({ type: 'object', required: ['a/b'] }, {}), [
      { pointer: '/a~1b', message: 'required' },
    ]);
  });

  it('reports a schema it cannot compile instead of blocking the call', () => {
    const check = validator.check(
      { type: 'object', properties: { a: { type: 'no-such-type' } } },
      { a: 1 },
    );
    assert.deepEqual(check.errors, []);
    assert.ok(check.schemaProblem);
  });

  it('ignores $schema and $id the way the kernel does', () => {
    const check = validator.check(
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'urn:x',
        type: 'object',
        required: ['q'],
      },
      {},
    );
    assert.deepEqual(check, { errors: [{ pointer: '/q', message: 'required' }] });
  });
});
