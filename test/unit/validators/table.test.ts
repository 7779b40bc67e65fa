import { strict as assert } from 'node:assert';
import {
  runValidators,
  type ValidationOutcome,
} from '../../../client/src/kernel/security/validators';
import type { ToolSecurity } from '../../../client/src/kernel/domain/security';
import { BLOCKED, PASSING, TABLE_DNS, type Case } from './cases';

const BASE: ToolSecurity = { risk_level: 'dangerous', permissions_required: [], side_effects: [] };

async function tableResolver(host: string): Promise<string[]> {
  const known = TABLE_DNS[host];
  if (!known)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return known;
}

function run(c: Case): Promise<ValidationOutcome> {
  const input = {
    toolName: c.tool,
    args: c.args,
    security: { ...BASE, ...c.security },
    inputSchema: c.inputSchema,
  };
  return runValidators(c.validators, input, { resolveHost: tableResolver });
}

function label(c: Case): string {
  return `${c.validators.join('+')} ${c.tool} ${JSON.stringify(c.args).slice(0, 80)} (${c.note})`;
}

describe('validators: the attack table (each case must be blocked)', () => {
  it('has at least 50 cases, covering all four validators', () => {
    assert.ok(BLOCKED.length >= 50, `${BLOCKED.length} cases`);
    for (const name of ['sandbox', 'readonly', 'network_restricted', 'code_safety'] as const) {
      assert.ok(BLOCKED.filter((c) => c.validators.includes(name)).length >= 8, name);
    }
  });

  for (const c of BLOCKED) {
    it(`blocks: ${label(c)}`, async () => {
      const outcome = await run(c);
      assert.equal(outcome.ok, false, 'passed, but must be blocked');
      if (c.rule)
        assert.ok(
          outcome.violations.some((v) => v.rule === c.rule),
          `expected rule ${c.rule}, got ${outcome.violations.map((v) => v.rule).join(', ')}`,
        );
      for (const v of outcome.violations) {
        assert.ok(c.validators.includes(v.validator), `violation from ${v.validator}`);
        assert.match(v.message, /^Blocked |^[A-Z]/);
      }
    });
  }
});

describe('validators: the look-alike table (each case must pass)', () => {
  it('has at least 50 cases, covering all four validators', () => {
    assert.ok(PASSING.length >= 50, `${PASSING.length} cases`);
    for (const name of ['sandbox', 'readonly', 'network_restricted', 'code_safety'] as const) {
      assert.ok(PASSING.filter((c) => c.validators.includes(name)).length >= 8, name);
    }
  });

  for (const c of PASSING) {
    it(`passes: ${label(c)}`, async () => {
      const outcome = await run(c);
      assert.deepEqual(
        outcome.violations.map((v) => v.message),
        [],
      );
      assert.equal(outcome.ok, true);
      assert.deepEqual(outcome.applied, c.validators);
    });
  }
});
