import { strict as assert } from 'node:assert';
import { checkConfigText } from '../../shared/src/configCheck/checkDocument';
import { parseConfigText } from '../../client/src/kernel/config/load';

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
