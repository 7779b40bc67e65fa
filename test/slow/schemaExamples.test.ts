import { strict as assert } from 'node:assert';
import { createConfigValidator } from '@shared/schemas/ajv';
import { mgpConfigSchema, openfangConfigSchema } from '@shared/schemas';
import { walk } from '../unit/support/schemaNodes';

// A validator compiled for each schema node that has a default or an example: about 2 s.
describe('config schemas documentation, value by value', () => {
  for (const [format, schema] of [
    ['mgp', mgpConfigSchema],
    ['openfang', openfangConfigSchema],
  ] as const) {
    it(`has ${format} defaults and examples that its own schema accepts`, () => {
      for (const { path, node } of walk(schema)) {
        const values = [
          ...(node.default !== undefined ? [node.default] : []),
          ...(node.examples ?? []),
        ];
        if (!values.length) continue;
        const validate = createConfigValidator({
          ...node,
          default: undefined,
          examples: undefined,
        });
        for (const value of values)
          assert.ok(
            validate(value),
            `${path}: ${JSON.stringify(value)} ${JSON.stringify(validate.errors)}`,
          );
      }
    });
  }
});
