import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKernelConfig } from '../../../client/src/kernel/config/load';
import type { ModelProvider } from '../../../client/src/kernel/llm/modelProvider';
import { ModelRouter } from '../../../client/src/kernel/llm/modelRouter';
import { OpenAiCompatibleProvider } from '../../../client/src/kernel/llm/openAiCompatible';

// The managed policy's [models] allow: only a model whose name matches is routed to.

const endpoint = (model: string) =>
  new OpenAiCompatibleProvider({ baseUrl: 'http://127.0.0.1:9/v1', model });

/** A provider that picks its model only when asked (as VS Code's language models do). */
const unnamed: ModelProvider = {
  id: 'vscode-lm',
  label: 'VS Code language models',
  match: () => 1,
  complete: async () => ({ content: '', model: 'whatever' }),
};

describe('the managed policy: allowed models', () => {
  it('routes only to a model the policy allows, and says so when none is', () => {
    const router = new ModelRouter();
    router.setProviders([endpoint('llama-3.1-8b'), endpoint('gpt-4o-mini'), unnamed]);
    assert.equal(router.available.length, 3);
    router.allowModels(['gpt-4o*']);
    assert.deepEqual(
      router.available.map((p) => p.label),
      ['gpt-4o-mini at http://127.0.0.1:9/v1'],
    );
    assert.equal(router.choose(undefined).modelId, 'gpt-4o-mini');
    router.allowModels(['claude-*']);
    assert.throws(() => router.choose(undefined), /managed policy's \[models\] allow/);
    router.allowModels(undefined);
    assert.equal(router.available.length, 3);
  });

  it('is read from policy.toml into the kernel settings', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'mgp-models-'));
    try {
      mkdirSync(join(scratch, 'ws'));
      writeFileSync(join(scratch, 'policy.toml'), '[models]\nallow = ["gpt-4o*"]\n');
      const config = await loadKernelConfig({
        workspaceFolders: [join(scratch, 'ws')],
        home: scratch,
        env: { MGP_MANAGED_POLICY: join(scratch, 'policy.toml') },
      });
      assert.deepEqual(config.kernel.allowedModels, ['gpt-4o*']);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
