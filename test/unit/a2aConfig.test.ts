import { strict as assert } from 'node:assert';
import { checkConfigText } from '../../shared/src/configCheck/checkDocument';
import { mergeConfigFiles, parseConfigText } from '../../client/src/kernel/config/load';
import { mergedA2aServe } from '../../client/src/kernel/config/a2aServe';
import type { ConfigProblem } from '../../client/src/kernel/config/types';

const agents = (extra = '') =>
  `[[a2a.external_agents]]\nname = "research"\nurl = "https://research.example.com"\n${extra}\n[[a2a.external_agents]]\nname = "research"\nurl = "http://data.example.com"\napi_key = "\${secret:DATA_KEY}"\n`;

describe('[[a2a.external_agents]] in mgp.toml and OpenFang config.toml', () => {
  it('the checker names duplicate agents, keys in the clear, and unknown keys', () => {
    for (const name of ['mgp.toml', 'config.toml']) {
      const diagnostics = checkConfigText(agents('risk = "high"\n'), { path: `/x/${name}` });
      const codes = diagnostics.map((d) => `${d.severity}:${d.code ?? ''}:${d.message}`);
      assert.ok(
        codes.some((c) => /error:semantic\/duplicate-agent/.test(c)),
        codes.join('\n'),
      );
      assert.ok(
        codes.some((c) => /warning:semantic\/key-in-clear/.test(c)),
        codes.join('\n'),
      );
      assert.ok(
        codes.some((c) => /error:.*risk/.test(c)),
        codes.join('\n'),
      );
    }
  });

  it('each agent loads as the server a2a.<name>: risk from config, approval asked unless safe', () => {
    const file = parseConfigText(
      `[[a2a.external_agents]]\nname = "research"\nurl = "https://research.example.com"\napi_key = "\${secret:KEY}"\ntimeout_secs = 60\n\n[[a2a.external_agents]]\nname = "calc"\nurl = "https://calc.example.com"\nrisk_level = "safe"\n`,
      { path: '/x/mgp.toml', format: 'mgp', origin: 'user' },
    );
    const [research, calc] = file.servers;
    assert.equal(research.id, 'a2a.research');
    assert.deepEqual(research.a2a, { name: 'research', timeoutMs: 60_000 });
    assert.equal(research.settings.headers.Authorization, 'Bearer ${secret:KEY}');
    assert.equal(research.policy.toolOverrides.delegate.risk_level, 'moderate');
    assert.equal(research.policy.toolOverrides.delegate.confirmation_required, true);
    assert.equal(calc.policy.toolOverrides.delegate.confirmation_required, false);
    assert.equal(research.source.line, 1);
    assert.equal(calc.source.line, 7);
  });
});

describe('[a2a] serving keys: enabled, listen_port, listen_path, [[a2a.peers]]', () => {
  const serving = `[a2a]\nenabled = true\nlisten_port = 8765\n\n[[a2a.peers]]\nname = "alice"\ntoken = "\${secret:ALICE}"\n`;

  it("the user's own file decides: enabled, the port, the path and each peer with its line", () => {
    const file = parseConfigText(serving, {
      path: '/home/u/mgp.toml',
      format: 'mgp',
      origin: 'user',
    });
    const problems: ConfigProblem[] = [];
    const settings = mergedA2aServe([file], problems);
    assert.deepEqual(settings, {
      enabled: true,
      listenPath: '/a2a',
      listenPort: 8765,
      peers: [
        {
          name: 'alice',
          token: '${secret:ALICE}',
          approves: false,
          file: '/home/u/mgp.toml',
          line: 5,
        },
      ],
    });
    assert.deepEqual(problems, []);
  });

  it("a workspace file's serving keys are ignored, each named with its line, the user's kept", () => {
    const workspace = parseConfigText(serving, {
      path: '/repo/mgp.toml',
      format: 'mgp',
      origin: 'workspace',
    });
    const user = parseConfigText('[a2a]\nlisten_path = "/agents"\n', {
      path: '/home/u/mgp.toml',
      format: 'mgp',
      origin: 'user',
    });
    const config = mergeConfigFiles([workspace, user]);
    assert.deepEqual(config.a2aServe, {
      enabled: false,
      listenPath: '/agents',
      listenPort: 0,
      peers: [],
    });
    const ignored = config.problems
      .filter((p) => p.file === '/repo/mgp.toml' && p.severity === 'warning')
      .map((p) => `${p.line}:${p.key}`);
    assert.deepEqual(ignored, ['2:a2a.enabled', '3:a2a.listen_port', '5:a2a.peers']);
  });

  it('the checker refuses a bad port and a peer without a token', () => {
    const codes = checkConfigText('[a2a]\nlisten_port = 70000\n[[a2a.peers]]\nname = "x"\n', {
      path: '/x/mgp.toml',
    }).map((d) => `${d.severity}:${d.message}`);
    assert.ok(
      codes.some((c) => /error:.*(70000|65535|maximum)/.test(c)),
      codes.join('\n'),
    );
    assert.ok(
      codes.some((c) => /error:.*token/.test(c)),
      codes.join('\n'),
    );
  });
});
