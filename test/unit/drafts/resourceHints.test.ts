import { strict as assert } from 'node:assert';
import {
  CLIENT_HINTS_CAPABILITY,
  clientHintsFromEnv,
  clientHintsService,
} from '../../../client/src/kernel/drafts/resourceHints';
import type { ConfiguredServer } from '../../../client/src/kernel/config/types';
import { clientHintsSetting } from '../../../client/src/vscode/host/clientHints';

const server = {} as ConfiguredServer;

describe('MCP draft client resource hints (§5)', () => {
  it('adds nothing to the capabilities while the user has them off', () => {
    const service = clientHintsService(() => ({ enabled: false }));
    assert.deepEqual(service.capabilities?.(server), {});
  });

  it('when on, describes the machine under an experimental capability', () => {
    const service = clientHintsService(() => ({ enabled: true, gpu: true }));
    const caps = service.capabilities?.(server) as {
      experimental: Record<string, { mem_mb: number; cores: number; gpu: boolean }>;
    };
    const hints = caps.experimental[CLIENT_HINTS_CAPABILITY];
    assert.ok(Number.isInteger(hints.mem_mb) && hints.mem_mb > 0);
    assert.ok(Number.isInteger(hints.cores) && hints.cores > 0);
    assert.equal(hints.gpu, true);
    assert.deepEqual(Object.keys(hints).sort(), ['cores', 'gpu', 'mem_mb']);
  });

  it('reads MGP_CLIENT_RESOURCE_HINTS, and refuses a value it does not know', () => {
    assert.deepEqual(clientHintsFromEnv(undefined), { enabled: false });
    assert.deepEqual(clientHintsFromEnv('0'), { enabled: false });
    assert.deepEqual(clientHintsFromEnv('1'), { enabled: true, gpu: false });
    assert.deepEqual(clientHintsFromEnv('GPU'), { enabled: true, gpu: true });
    assert.throws(() => clientHintsFromEnv('yes please'), /use 1 .*gpu.* or 0/);
  });

  it('in the editor, only the user’s own setting counts: a workspace’s value never turns them on', () => {
    assert.deepEqual(clientHintsSetting(undefined), { enabled: false });
    assert.deepEqual(
      clientHintsSetting({ workspaceValue: 'onWithGpu', workspaceFolderValue: 'on' } as never),
      { enabled: false },
    );
    assert.deepEqual(clientHintsSetting({ globalValue: 'on' }), { enabled: true, gpu: false });
    assert.deepEqual(clientHintsSetting({ globalValue: 'onWithGpu' }), {
      enabled: true,
      gpu: true,
    });
    assert.deepEqual(clientHintsSetting({ globalValue: 'off' }), { enabled: false });
  });
});
