import { strict as assert } from 'node:assert';
import { mergeConfigFiles, parseConfigText } from '../../client/src/kernel/config/load';
import {
  displayPath,
  summarizeConfigFiles,
  summarizeServers,
} from '../../client/src/kernel/config/status';
import { isAboutFromWebview } from '@shared/aboutMessages';

describe('kernel status for the About panel', () => {
  const paths = { workspaceFolders: ['/w'], home: '/h' };

  it('shows paths relative to the workspace, under ~ for home, absolute otherwise', () => {
    assert.equal(displayPath('/w/mgp.toml', paths), 'mgp.toml');
    assert.equal(displayPath('/h/.config/mgp/servers.toml', paths), '~/.config/mgp/servers.toml');
    assert.equal(displayPath('/etc/mgp.toml', paths), '/etc/mgp.toml');
  });

  it('summarizes files and servers, including overridden ones', () => {
    const near = parseConfigText('[[servers]]\nid = "a"\ncommand = "node"\nargs = ["s.js"]\n', {
      path: '/w/mgp.toml',
      format: 'mgp',
      origin: 'workspace',
    });
    const far = parseConfigText('[[servers]]\nid = "a"\nurl = "https://x.test/mcp"\n', {
      path: '/h/.config/mgp/servers.toml',
      format: 'mgp',
      origin: 'user',
    });
    const config = mergeConfigFiles([near, far]);
    assert.deepEqual(summarizeConfigFiles(config, paths), [
      { displayPath: 'mgp.toml', format: 'mgp', serverCount: 1, error: undefined },
      {
        displayPath: '~/.config/mgp/servers.toml',
        format: 'mgp',
        serverCount: 1,
        error: undefined,
      },
    ]);
    assert.deepEqual(summarizeServers(config, paths), [
      { id: 'a', transport: 'stdio', target: 'node s.js', source: 'mgp.toml:1' },
      {
        id: 'a',
        transport: 'http',
        target: 'https://x.test/mcp',
        source: '~/.config/mgp/servers.toml:1',
        shadowedBy: 'mgp.toml:1',
      },
    ]);
  });

  it('accepts only well-formed messages from the webview', () => {
    assert.equal(isAboutFromWebview({ type: 'ready' }), true);
    assert.equal(isAboutFromWebview({ type: 'openConfig', displayPath: 'mgp.toml' }), true);
    assert.equal(isAboutFromWebview({ type: 'openConfig' }), false);
    assert.equal(isAboutFromWebview({ type: 'runTool' }), false);
    assert.equal(isAboutFromWebview(null), false);
  });
});
