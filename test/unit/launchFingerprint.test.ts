import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchFingerprint } from '../../client/src/kernel/config/launchFingerprint';
import { loadKernelConfig } from '../../client/src/kernel/config/load';

/** Issue 24, finding 10: the launch approval covers everything that leaves the machine. */
describe('launch fingerprint of a workspace server', () => {
  let workspace: string;
  let home: string;

  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'mgp-fingerprint-ws-'));
    home = mkdtempSync(join(tmpdir(), 'mgp-fingerprint-home-'));
  });
  afterEach(() => {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  /** The fingerprint of the one server a workspace mgp.toml with this text declares. */
  async function fingerprintOf(toml: string): Promise<string> {
    writeFileSync(join(workspace, 'mgp.toml'), toml);
    const config = await loadKernelConfig({ workspaceFolders: [workspace], home, env: {} });
    const problems = config.problems.filter((p) => p.severity === 'error');
    assert.deepEqual(problems, [], 'the config loads without errors');
    assert.equal(config.servers.length, 1);
    return launchFingerprint(config.servers[0]);
  }

  const remote = `[[servers]]
id = "issues"
transport = "http"
url = "https://issues.example.com/mcp"
`;

  it('changes when a header is added after approval, with a ${...} reference in it', async () => {
    const approved = await fingerprintOf(remote);
    const withToken = await fingerprintOf(
      `${remote}headers = { Authorization = "Bearer \${GITHUB_TOKEN}" }\n`,
    );
    assert.notEqual(withToken, approved);
    const otherReference = await fingerprintOf(
      `${remote}headers = { Authorization = "Bearer \${OTHER_TOKEN}" }\n`,
    );
    assert.notEqual(otherReference, withToken, 'another variable in the header asks again');
  });

  it('changes with the URL, env and each policy key', async () => {
    const approved = await fingerprintOf(remote);
    const variants = [
      remote.replace('issues.example.com', 'issues.example.net'),
      `${remote}env = { LOG = "1" }\n`,
      `${remote}approval_policy = "auto_approve"\n`,
      `${remote}approved_tools = ["delete_*"]\n`,
      `${remote}\n[servers.tools.delete_issue]\nrisk_level = "safe"\n`,
    ];
    const seen = new Set([approved]);
    for (const variant of variants) {
      const fingerprint = await fingerprintOf(variant);
      assert.ok(!seen.has(fingerprint), `a new question for:\n${variant}`);
      seen.add(fingerprint);
    }
  });

  it('stays the same when only comments, blank lines or the order of keys change', async () => {
    const approved = await fingerprintOf(
      `${remote}headers = { A = "1", B = "2" }\nenv = { X = "1", Y = "2" }\n`,
    );
    const moved = await fingerprintOf(
      `# the issue tracker\n\n[[servers]]\nurl = "https://issues.example.com/mcp"\ntransport = "http"\nid = "issues"\nenv = { Y = "2", X = "1" }\nheaders = { B = "2", A = "1" }\n`,
    );
    assert.equal(moved, approved);
  });
});
