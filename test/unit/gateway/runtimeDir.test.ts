import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateRuntimeDir } from '../../../client/src/kernel/gateway/local/runtimeDir';

describe('the private directory for local sockets', () => {
  let base: string;
  beforeEach(() => (base = mkdtempSync(join(tmpdir(), 'mgp-runtime-'))));
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('is made for this user only, under XDG_RUNTIME_DIR', async () => {
    const dir = await privateRuntimeDir({ XDG_RUNTIME_DIR: base });
    assert.equal(dir, join(base, 'mgp'));
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });

  it('refuses a directory other users can enter', async () => {
    mkdirSync(join(base, 'mgp'));
    chmodSync(join(base, 'mgp'), 0o755);
    await assert.rejects(privateRuntimeDir({ XDG_RUNTIME_DIR: base }), /open to other users/);
  });

  it('refuses a symbolic link put in its place', async () => {
    mkdirSync(join(base, 'elsewhere'), { mode: 0o700 });
    symlinkSync(join(base, 'elsewhere'), join(base, 'mgp'));
    await assert.rejects(privateRuntimeDir({ XDG_RUNTIME_DIR: base }), /not a directory/);
  });
});
