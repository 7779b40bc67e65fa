/**
 * A workspace file may only tighten the user's security settings (issue 24, item 1): the checker
 * behind the language server and `mgp check` flags `[kernel]` keys that would loosen them in a
 * workspace file, and the kernel's merge keeps the stricter of each.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { checkConfigText } from '../../shared/src/configCheck/checkDocument';
import { isUserConfigPath } from '../../shared/src/configCheck/semantic/workspaceKernel';
import { DEFAULT_KERNEL_SETTINGS } from '../../client/src/kernel/config/policy';
import { tightenKernel } from '../../client/src/kernel/config/workspacePolicy';

const LOOSE = [
  '[kernel]',
  'approval_policy = "auto_approve"',
  'tool_creation = true',
  'keep_registered_servers = true',
  'private_hosts = ["127.0.0.1"]',
  '[kernel.audit]',
  'retention = "time_based"',
  'retention_days = 1',
  '[[kernel.access_grants]]',
  'agent_id = "*"',
  'server_id = "mgp"',
  'permission = "allow"',
  '[[kernel.access_grants]]',
  'agent_id = "*"',
  'server_id = "files"',
  'permission = "deny"',
  '',
].join('\n');

const loosens = (path: string) =>
  checkConfigText(LOOSE, { path })
    .filter((d) => d.code === 'semantic/workspace-loosens')
    .map((d) => `${d.range.start.line + 1} ${d.path}`);

describe('workspace [kernel] tables only tighten (issue 24 §1)', () => {
  it('flags each loosening key of a workspace file with its line, and none of the user config', () => {
    assert.deepEqual(loosens('/repo/mgp.toml'), [
      '2 /kernel/approval_policy',
      '3 /kernel/tool_creation',
      '4 /kernel/keep_registered_servers',
      '5 /kernel/private_hosts',
      '7 /kernel/audit/retention',
      '9 /kernel/access_grants/0',
    ]);
    const home = process.env.HOME ?? '/root';
    assert.deepEqual(loosens(join(home, '.config/mgp/servers.toml')), []);
    assert.equal(isUserConfigPath('/x/mine.toml', { MGP_CONFIG_PATH: '/x/mine.toml' }), true);
    assert.equal(isUserConfigPath('/repo/.config/mgp/servers.toml', {}, '/home/u'), false);
  });

  it('flags a workspace sandbox table that widens writes, reads, or turns the sandbox off', () => {
    const text = [
      '[kernel.sandbox]',
      'mode = "off"',
      'deny_read = ["~/notes"]',
      '[[servers]]',
      'id = "a"',
      'command = "node"',
      '[servers.sandbox]',
      'write = ["/"]',
      'allow_read = ["~/.ssh"]',
      'network = "none"',
      '',
    ].join('\n');
    const found = (path: string) =>
      checkConfigText(text, { path })
        .filter((d) => d.code === 'semantic/workspace-loosens')
        .map((d) => `${d.range.start.line + 1} ${d.path}`);
    assert.deepEqual(found('/repo/mgp.toml'), [
      '2 /kernel/sandbox/mode',
      '8 /servers/0/sandbox/write',
      '9 /servers/0/sandbox/allow_read',
    ]);
    assert.deepEqual(found(join(process.env.HOME ?? '/root', '.config/mgp/servers.toml')), []);
  });

  it('keeps the stricter of each guarding key, and names what it ignored', () => {
    const user = {
      ...DEFAULT_KERNEL_SETTINGS,
      approvalPolicy: 'config_only' as const,
      toolCreation: true,
      audit: { retention: { policy: 'time_based' as const, days: 30 }, rotateBytes: 1 },
    };
    const loose = tightenKernel(user, {
      approvalPolicy: 'interactive',
      toolCreation: false,
      defaultAccessPolicy: 'opt-out',
      audit: { retention: { policy: 'time_based', days: 1 }, rotateBytes: 2 },
      pinnedTools: ['files.read'],
      privateHosts: ['169.254.169.254'],
    });
    assert.equal(loose.settings.approvalPolicy, 'config_only');
    assert.equal(loose.settings.toolCreation, false, 'switching a feature off tightens');
    assert.deepEqual(loose.settings.audit.retention, { policy: 'time_based', days: 30 });
    assert.deepEqual(loose.settings.pinnedTools, ['files.read'], 'not a security key');
    assert.deepEqual(loose.settings.privateHosts, [], 'only the user names hosts to reach');
    assert.deepEqual(loose.ignored, ['approval_policy', 'audit.retention', 'private_hosts']);

    const strict = tightenKernel(user, {
      approvalPolicy: 'deny_all',
      defaultAccessPolicy: 'opt-in',
      moderateToolsRequireApproval: true,
      audit: { retention: { policy: 'keep_all' }, rotateBytes: 2 },
      accessGrants: [{ agent_id: '*', server_id: 'files', permission: 'deny' }],
    });
    assert.equal(strict.settings.approvalPolicy, 'deny_all');
    assert.equal(strict.settings.defaultAccessPolicy, 'opt-in');
    assert.equal(strict.settings.moderateToolsRequireApproval, true);
    assert.deepEqual(strict.settings.audit.retention, { policy: 'keep_all' });
    assert.equal(strict.settings.accessGrants.length, 1);
    assert.deepEqual(strict.ignored, []);
  });
});
