import { strict as assert } from 'node:assert';
import {
  environmentSecrets,
  interpolate,
  referencesIn,
} from '../../client/src/kernel/config/interpolate';

describe('value interpolation: ${VAR} and ${secret:NAME}', () => {
  const secrets = {
    get: async (name: string) => (({ API_KEY: 's3cret' }) as Record<string, string>)[name],
  };

  it('reads ${VAR} from the environment and ${secret:NAME} from the secret source', async () => {
    const result = await interpolate(
      'Bearer ${secret:API_KEY} for ${USER}@${HOST}',
      { USER: 'ada', HOST: 'example.com' },
      secrets,
    );
    assert.deepEqual(result, {
      value: 'Bearer s3cret for ada@example.com',
      missing: [],
      resolved: [
        { name: 'API_KEY', secret: true, value: 's3cret' },
        { name: 'USER', secret: false, value: 'ada' },
        { name: 'HOST', secret: false, value: 'example.com' },
      ],
    });
  });

  it('resolves what is missing to empty and names it', async () => {
    const result = await interpolate('${NOPE}-${secret:GONE}-${NOPE}', {}, secrets);
    assert.deepEqual(result, { value: '--', missing: ['${NOPE}', '${secret:GONE}'], resolved: [] });
  });

  it('leaves text without references alone, including a lone $', async () => {
    assert.deepEqual(await interpolate('price: $5 {x}', {}, secrets), {
      value: 'price: $5 {x}',
      missing: [],
      resolved: [],
    });
  });

  it('lists references, and the CLI reads secrets from the environment', async () => {
    assert.deepEqual(referencesIn('${A} ${secret:B}'), [
      { name: 'A', secret: false },
      { name: 'B', secret: true },
    ]);
    assert.equal(await environmentSecrets({ TOKEN: 't' }).get('TOKEN'), 't');
  });
});
