import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nothingToDo } from '../../client/src/vscode/activationGate';

describe('activation on a config.toml: only OpenFang’s, or with a config of ours', () => {
  let dir: string;
  let site: string;
  let home: string;
  const file = (path: string, text = '') => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-gate-'));
    site = join(dir, 'site');
    home = join(dir, 'home');
    mkdirSync(site);
    mkdirSync(home);
    file(
      join(site, 'config.toml'),
      'baseURL = "https://example.org/"\n[params]\nmcp_servers = 1\n',
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has nothing to do for a Hugo site’s config.toml alone', () => {
    assert.equal(nothingToDo([site], {}, home), true);
  });

  it('works for OpenFang’s config.toml, by its [[mcp_servers]] or [a2a] tables', () => {
    file(join(site, 'config.toml'), '[[mcp_servers]]\nname = "x"\n');
    assert.equal(nothingToDo([site], {}, home), false);
    file(join(site, 'config.toml'), '[a2a]\nenabled = true\n');
    assert.equal(nothingToDo([site], {}, home), false);
  });

  for (const ours of ['mgp.toml', 'mcp.toml', '.openfang/config.toml', '.vscode/mcp.json'])
    it(`works beside the site’s config.toml when the folder has ${ours}`, () => {
      file(join(site, ours));
      assert.equal(nothingToDo([site], {}, home), false);
    });

  it('works when another folder of the window or the user has a config', () => {
    const other = join(dir, 'other');
    file(join(other, 'mgp.toml'));
    assert.equal(nothingToDo([site, other], {}, home), false);
    assert.equal(nothingToDo([site], { MGP_CONFIG_PATH: '/x/servers.toml' }, home), false);
    file(join(home, '.config/mgp/servers.toml'));
    assert.equal(nothingToDo([site], {}, home), false);
  });

  it('works when it was activated for another reason (no foreign config.toml at all)', () => {
    assert.equal(nothingToDo([], {}, home), false);
    assert.equal(nothingToDo([home], {}, home), false);
  });
});
