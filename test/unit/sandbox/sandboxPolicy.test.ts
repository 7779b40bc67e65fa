import { strict as assert } from 'node:assert';
import { mergeConfigFiles, parseConfigText } from '../../../client/src/kernel/config/load';
import { DEFAULT_SANDBOX, serverSandbox } from '../../../client/src/kernel/config/sandboxPolicy';

function load(user: string, workspace?: string) {
  const files = [];
  if (workspace !== undefined)
    files.push(
      parseConfigText(workspace, { path: '/ws/mgp.toml', format: 'mgp', origin: 'workspace' }),
    );
  files.push(
    parseConfigText(user, {
      path: '/home/u/.config/mgp/servers.toml',
      format: 'mgp',
      origin: 'user',
    }),
  );
  return mergeConfigFiles(files);
}

describe('sandbox policy from config', () => {
  it('sandboxes every stdio server by default: workspace and own tmp writable, secrets unreadable', () => {
    const config = load('[[servers]]\nid = "a"\ncommand = "node"\n');
    const policy = config.servers[0].settings.sandbox;
    assert.equal(policy.mode, 'auto');
    assert.deepEqual(policy.write, []);
    assert.equal(policy.network, 'all');
    for (const secret of ['~/.ssh', '~/.aws', '~/.gnupg', '~/.local/state/mgp'])
      assert.ok(policy.denyRead.includes(secret), secret);
  });

  it('gives MGP trust levels their meaning: sandboxed is required with no network, trusted is off', () => {
    const config = load(
      '[[servers]]\nid = "s"\ncommand = "node"\n[servers.mgp]\ntrust_level = "sandboxed"\n' +
        '[[servers]]\nid = "t"\ncommand = "node"\n[servers.mgp]\ntrust_level = "trusted"\n',
    );
    const [s, t] = config.servers;
    assert.equal(s.settings.sandbox.mode, 'required');
    assert.equal(s.settings.sandbox.network, 'none');
    assert.equal(t.settings.sandbox.mode, 'off');
  });

  it('takes your own server table key by key over [kernel.sandbox]', () => {
    const config = load(
      '[kernel.sandbox]\nnetwork = "none"\nwrite = ["~/shared"]\n' +
        '[[servers]]\nid = "db"\ncommand = "node"\n[servers.sandbox]\nnetwork = "loopback"\nports = [5432]\nallow_read = ["~/.kube"]\n',
    );
    const policy = config.servers[0].settings.sandbox;
    assert.equal(policy.network, 'loopback');
    assert.deepEqual(policy.ports, [5432]);
    assert.deepEqual(policy.write, ['~/shared']);
    assert.deepEqual(policy.allowRead, ['~/.kube']);
    assert.deepEqual(
      config.problems.filter((p) => p.severity !== 'information'),
      [],
    );
  });

  it('lets a workspace server tighten its sandbox, never loosen it, and names what it ignored', () => {
    const config = load(
      '[kernel.sandbox]\nnetwork = "loopback"\nports = [8080]\n',
      '[[servers]]\nid = "w"\ncommand = "node"\n[servers.mgp]\ntrust_level = "trusted"\n' +
        '[servers.sandbox]\nmode = "off"\nwrite = ["/"]\nallow_read = ["~/.ssh"]\ndeny_read = ["~/notes"]\nnetwork = "all"\n',
    );
    const policy = config.servers[0].settings.sandbox;
    assert.equal(policy.mode, 'auto');
    assert.deepEqual(policy.write, []);
    assert.deepEqual(policy.allowRead, []);
    assert.equal(policy.network, 'loopback');
    assert.deepEqual(policy.ports, [8080]);
    assert.ok(policy.denyRead.includes('~/notes') && policy.denyRead.includes('~/.ssh'));
    const ignored = config.problems
      .filter((p) => p.severity === 'warning')
      .map((p) => p.key)
      .sort();
    assert.deepEqual(ignored, [
      'servers.sandbox.allow_read',
      'servers.sandbox.mode',
      'servers.sandbox.network',
      'servers.sandbox.write',
    ]);
    assert.ok(config.problems.every((p) => p.severity !== 'warning' || p.file === '/ws/mgp.toml'));
  });

  it('takes a narrower network from a workspace: fewer ports, none, or required', () => {
    const base = { ...DEFAULT_SANDBOX, network: 'loopback' as const, ports: [1, 2] };
    const decided = serverSandbox({
      kernel: { network: 'loopback', ports: [1, 2] },
      server: { network: 'loopback', ports: [2], mode: 'required' },
      yours: false,
    });
    assert.equal(decided.policy.mode, 'required');
    assert.deepEqual(decided.policy.ports, [2]);
    assert.deepEqual(decided.ignored, []);
    const wider = serverSandbox({
      kernel: { network: 'loopback', ports: base.ports },
      server: { network: 'loopback', ports: [3] },
      yours: false,
    });
    assert.deepEqual(wider.policy.ports, [1, 2]);
    assert.deepEqual(wider.ignored, ['sandbox.network']);
    const none = serverSandbox({ kernel: {}, server: { network: 'none' }, yours: false });
    assert.equal(none.policy.network, 'none');
  });

  it('lets a workspace [kernel.sandbox] only tighten the user’s', () => {
    const config = load(
      '[kernel.sandbox]\nnetwork = "none"\n[[servers]]\nid = "a"\ncommand = "node"\n',
      '[kernel.sandbox]\nnetwork = "all"\nmode = "required"\n',
    );
    const policy = config.servers[0].settings.sandbox;
    assert.equal(policy.network, 'none');
    assert.equal(policy.mode, 'required');
    assert.deepEqual(
      config.problems.filter((p) => p.severity === 'warning').map((p) => p.key),
      ['kernel.sandbox.network'],
    );
  });

  it('refuses unknown keys and values with the file, line and key', () => {
    const file = parseConfigText(
      '[[servers]]\nid = "a"\ncommand = "node"\n[servers.sandbox]\nnetwork = "some"\nwirte = []\n',
      {
        path: '/home/u/mgp.toml',
        format: 'mgp',
        origin: 'user',
      },
    );
    const errors = file.problems.filter((p) => p.severity === 'error');
    assert.deepEqual(errors.map((p) => p.line).sort(), [5, 6]);
  });
});
