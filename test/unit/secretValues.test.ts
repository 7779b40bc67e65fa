import { strict as assert } from 'node:assert';
import { parseConfigText } from '../../client/src/kernel/config/load';
import { resolveEnvironment } from '../../client/src/kernel/connection/environment';

function server(env: string, headers = '') {
  const text = `[[servers]]\nid = "s"\ntransport = "http"\nurl = "https://example.invalid/mcp"\n[servers.env]\n${env}\n[servers.headers]\n${headers}\n`;
  const [configured] = parseConfigText(text, {
    path: '/ws/mgp.toml',
    format: 'mgp',
    origin: 'workspace',
  }).servers;
  return configured;
}

describe('which resolved env and header values the audit trail hides', () => {
  const secrets = {
    get: async (name: string) => ({ TOKEN: 'tok-abc-123', K: 'query-key-987' })[name],
  };

  it('hides ${secret:…} values, credential-named entries and references, and token-like literals', async () => {
    const resolved = await resolveEnvironment(
      server(
        [
          'API_TOKEN = "${secret:TOKEN}"',
          'GITHUB_TOKEN = "${GH}"',
          'FROM_HOST = "${OPENAI_API_KEY}"',
          'SERVICE_URL = "https://api.invalid/?k=${secret:K}"',
          'OPAQUE = "q8Zr2Lx9Tv4Wm7Pk"',
        ].join('\n'),
        'Authorization = "Bearer literal-bearer-42"',
      ),
      { GH: 'gh-value-12345', OPENAI_API_KEY: 'sk-from-host-777', PATH: '/usr/bin' },
      secrets,
    );
    const hidden = new Set(resolved.secrets);
    for (const value of [
      'tok-abc-123',
      'gh-value-12345',
      'sk-from-host-777',
      'query-key-987',
      'q8Zr2Lx9Tv4Wm7Pk',
      'Bearer literal-bearer-42',
      'literal-bearer-42',
    ])
      assert.ok(hidden.has(value), `${value} is hidden`);
  });

  it('leaves plain words, paths and settings alone, so a config cannot erase them from the trail', async () => {
    const resolved = await resolveEnvironment(
      server(
        [
          'RISK = "dangerous"',
          'MODE = "safe"',
          'HOME_DIR = "${HOME}"',
          'LOG_LEVEL = "debug"',
          'DATA = "/var/lib/my-server/data"',
          'GREETING = "hello world, this is fine"',
        ].join('\n'),
        'Accept = "application/json"',
      ),
      { HOME: '/home/someone' },
      secrets,
    );
    assert.deepEqual(resolved.secrets, []);
  });
});
