import { strict as assert } from 'node:assert';
import type { ApprovalPolicy } from '../../client/src/kernel/config/types';
import {
  configApproves,
  decideApproval,
  HeldApprovals,
  needsApproval,
} from '../../client/src/kernel/security/approvalPolicy';
import type { RiskLevel, ToolSecurity } from '../../client/src/kernel/domain/security';

const security = (risk_level: RiskLevel, extra: Partial<ToolSecurity> = {}): ToolSecurity => ({
  risk_level,
  permissions_required: [],
  side_effects: [],
  ...extra,
});
const none: HeldApprovals = {
  configRule: false,
  persistent: false,
  session: false,
  serverSession: false,
};

describe('approval policy × risk level (MGP §3.3, §4.4)', () => {
  // What happens to a call that holds no earlier approval, for every policy and risk, with the
  // moderate switch off and on. 'allow' / 'ask' / 'deny'.
  const matrix: Record<ApprovalPolicy, Record<RiskLevel, [string, string]>> = {
    interactive: {
      safe: ['allow', 'allow'],
      moderate: ['allow', 'ask'],
      dangerous: ['ask', 'ask'],
    },
    auto_approve: {
      safe: ['allow', 'allow'],
      moderate: ['allow', 'allow'],
      dangerous: ['allow', 'allow'],
    },
    deny_all: {
      safe: ['allow', 'allow'],
      moderate: ['allow', 'deny'],
      dangerous: ['deny', 'deny'],
    },
    config_only: {
      safe: ['allow', 'allow'],
      moderate: ['allow', 'deny'],
      dangerous: ['deny', 'deny'],
    },
  };
  for (const [policy, byRisk] of Object.entries(matrix) as [
    ApprovalPolicy,
    Record<RiskLevel, [string, string]>,
  ][]) {
    for (const [risk, [moderateOff, moderateOn]] of Object.entries(byRisk) as [
      RiskLevel,
      [string, string],
    ][]) {
      it(`${policy} × ${risk}: ${moderateOff} (moderate approval off), ${moderateOn} (on)`, () => {
        assert.equal(
          decideApproval(policy, needsApproval(security(risk), false), none).kind,
          moderateOff,
        );
        assert.equal(
          decideApproval(policy, needsApproval(security(risk), true), none).kind,
          moderateOn,
        );
      });
    }
  }

  it('confirmation_required makes even a safe tool need approval', () => {
    assert.equal(needsApproval(security('safe', { confirmation_required: true }), false), true);
    assert.equal(decideApproval('interactive', true, none).kind, 'ask');
  });

  it('earlier answers count under interactive and deny_all, never under config_only', () => {
    for (const held of [{ persistent: true }, { session: true }, { serverSession: true }]) {
      const approvals = { ...none, ...held };
      assert.equal(decideApproval('interactive', true, approvals).kind, 'allow');
      assert.equal(decideApproval('deny_all', true, approvals).kind, 'allow');
      assert.equal(decideApproval('config_only', true, approvals).kind, 'deny');
    }
  });

  it('a config rule allows under every policy but auto_approve needs none', () => {
    for (const policy of ['interactive', 'deny_all', 'config_only'] as const) {
      assert.deepEqual(decideApproval(policy, true, { ...none, configRule: true }), {
        kind: 'allow',
        basis: 'config_rule',
      });
    }
    assert.deepEqual(decideApproval('auto_approve', true, none), {
      kind: 'allow',
      basis: 'auto_approve',
    });
  });

  it('patterns in approved_tools never cover dangerous tools; an explicit name does', () => {
    const rules = ['read_*', 'list_?otes', 'delete_notes'];
    assert.equal(configApproves(rules, 'read_file', security('moderate')), true);
    assert.equal(
      configApproves(rules, 'read_everything', security('dangerous')),
      false,
      'read_* must not cover a dangerous tool',
    );
    assert.equal(configApproves(rules, 'list_notes', security('safe')), true);
    assert.equal(
      configApproves(rules, 'delete_notes', security('dangerous')),
      true,
      'named explicitly',
    );
    assert.equal(configApproves(rules, 'write_note', security('moderate')), false);
    assert.equal(configApproves(['*'], 'rm_rf', security('dangerous')), false);
  });

  it('glob patterns match whole names, with regex characters taken literally', () => {
    assert.equal(configApproves(['files.read*'], 'filesXread', security('safe')), false);
    assert.equal(configApproves(['files.read*'], 'files.read_all', security('safe')), true);
  });
});
