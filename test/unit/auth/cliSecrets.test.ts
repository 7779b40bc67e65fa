import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliSecrets } from '../../../client/src/cli/cliSecrets';
import { FileSecrets } from '../../../client/src/kernel/auth/fileSecrets';
import { MigratingSecrets } from '../../../client/src/kernel/auth/keyringSecrets';

// The keyring itself is exercised against a real Secret Service in test/interop/cliKeyring.test.ts;
// here a second user-only file stands in for it, to pin down the move out of the old file.
describe('CLI sign-ins: the move from the file into the keyring', () => {
  let folder: string;
  let keyring: FileSecrets;
  let file: FileSecrets;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'mgp-cli-secrets-'));
    keyring = new FileSecrets(join(folder, 'keyring.json'));
    file = new FileSecrets(join(folder, 'oauth-tokens.json'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('a sign-in only in the file is read, moved into the keyring and removed from the file', async () => {
    await file.set('a', 'old');
    await file.set('b', 'other');
    const secrets = new MigratingSecrets(keyring, file);
    assert.equal(await secrets.get('a'), 'old');
    assert.equal(await keyring.get('a'), 'old');
    assert.equal(await file.get('a'), undefined);
    assert.equal(await file.get('b'), 'other', 'only the key read moves');
    assert.equal(await secrets.get('missing'), undefined);
  });

  it('a new sign-in or a sign-out leaves no copy in the file, and creates no file', async () => {
    const secrets = new MigratingSecrets(keyring, file);
    await secrets.set('a', 'new');
    assert.equal(existsSync(file.path), false);
    await file.set('b', 'stale');
    await secrets.set('b', 'fresh');
    assert.equal(await file.get('b'), undefined);
    assert.equal(await secrets.get('b'), 'fresh');
    await file.set('c', 'stale');
    await secrets.delete('c');
    assert.equal(await secrets.get('c'), undefined);
  });

  it('MGP_OAUTH_TOKEN_STORE=file keeps sign-ins in the file without probing or a warning', async () => {
    const warned: string[] = [];
    const path = join(folder, 'state', 'oauth-tokens.json');
    const secrets = new CliSecrets(path, (line) => warned.push(line), {
      MGP_OAUTH_TOKEN_STORE: 'file',
    });
    await secrets.set('a', 'value');
    assert.equal(await new FileSecrets(path).get('a'), 'value');
    assert.equal(secrets.description, `${path} (readable by you only)`);
    assert.deepEqual(warned, []);
  });
});
