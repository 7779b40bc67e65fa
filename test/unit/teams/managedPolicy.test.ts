import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkConfigText } from '../../../shared/src/configCheck/checkDocument';
import { managedPolicyPath } from '../../../shared/src/configFiles';
import { loadKernelConfig } from '../../../client/src/kernel/config/load';
import { parseManagedPolicy, policyBlock } from '../../../client/src/kernel/config/managedPolicy';
import { matchesServer } from '../../../client/src/kernel/config/policyPatterns';

const server = (id: string, command?: string, args: string[] = [], url?: string) => ({
  id,
  command,
  args,
  url,
});

describe('the managed policy (policy.toml)', () => {
  let scratch: string;
  let workspace: string;
  let home: string;
  let policyFile: string;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'mgp-policy-'));
    workspace = join(scratch, 'ws');
    home = join(scratch, 'home');
    policyFile = join(scratch, 'etc', 'mgp', 'policy.toml');
    mkdirSync(workspace);
    mkdirSync(join(home, '.config/mgp'), { recursive: true });
    mkdirSync(join(scratch, 'etc', 'mgp'), { recursive: true });
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  const load = () =>
    loadKernelConfig({
      workspaceFolders: [workspace],
      home,
      env: { MGP_MANAGED_POLICY: policyFile },
    });

  it('lives where only an administrator writes, unless MGP_MANAGED_POLICY names another file', () => {
    assert.equal(managedPolicyPath('linux', {}), '/etc/mgp/policy.toml');
    assert.equal(managedPolicyPath('darwin', {}), '/Library/Application Support/MGP/policy.toml');
    assert.equal(
      managedPolicyPath('win32', { ProgramData: 'D:\\Data' }),
      'D:\\Data\\MGP\\policy.toml',
    );
    assert.equal(managedPolicyPath('linux', { MGP_MANAGED_POLICY: '/x/p.toml' }), '/x/p.toml');
  });

  it('matches servers by id, command line or URL, with * for any run of characters', () => {
    const fs = server('files', 'npx', ['-y', '@modelcontextprotocol/server-filesystem', '/']);
    assert.ok(matchesServer('files', fs));
    assert.ok(matchesServer('id:fil*', fs));
    assert.ok(matchesServer('command:*server-filesystem*', fs));
    assert.ok(matchesServer('command:npx', fs), 'the command alone');
    assert.ok(!matchesServer('command:node*', fs));
    const remote = server('docs', undefined, [], 'https://mcp.corp.example/docs');
    assert.ok(matchesServer('url:https://mcp.corp.example/*', remote));
    assert.ok(!matchesServer('url:https://mcp.corp.example/*', fs));
    assert.ok(!matchesServer('url:https://evil.example/*', remote));
    assert.ok(!matchesServer('f.les', server('files')), 'a dot is a dot, not any character');
  });

  it('blocks a denied server even when the allow list names it: a deny wins', () => {
    const policy = parseManagedPolicy(
      '[servers]\nallow = ["github", "files"]\ndeny = ["command:*server-filesystem*"]\n',
      policyFile,
      {},
    );
    assert.equal(policy.broken, undefined);
    const block = policyBlock(
      policy,
      server('files', 'npx', ['@modelcontextprotocol/server-filesystem']),
    );
    assert.match(
      block?.reason ?? '',
      /denied by the managed policy \(servers.deny "command:\*server-filesystem\*"\)/,
    );
    assert.deepEqual([block?.key, block?.line], ['servers.deny', 3]);
    assert.match(
      policyBlock(policy, server('other', 'node'))?.reason ?? '',
      /not in servers.allow/,
    );
    assert.equal(policyBlock(policy, server('github', 'node')), undefined);
  });

  it('fails closed: a policy with errors blocks every server, and says why', async () => {
    writeFileSync(policyFile, '[servers]\ndeny = "not-a-list"\n');
    writeFileSync(
      join(home, '.config/mgp/servers.toml'),
      '[[servers]]\nid = "a"\ncommand = "node"\n',
    );
    const config = await load();
    assert.match(config.servers[0].blockedByPolicy?.reason ?? '', /managed policy .* has errors/);
    assert.ok(config.problems.some((p) => p.file === policyFile && p.severity === 'error'));
  });

  it('raises looser settings below it to its floors, naming each file and key it ignored', async () => {
    writeFileSync(
      policyFile,
      '[servers]\ndeny = ["danger-*"]\n\n[kernel]\napproval_policy = "interactive"\nmoderate_tools_require_approval = true\n\n[kernel.sandbox]\nmode = "required"\n\n[models]\nallow = ["gpt-4o*"]\n',
    );
    const user = join(home, '.config/mgp/servers.toml');
    writeFileSync(
      user,
      '[kernel]\napproval_policy = "auto_approve"\nmoderate_tools_require_approval = false\n\n[[servers]]\nid = "danger-zone"\ncommand = "node"\n\n[[servers]]\nid = "ok"\ncommand = "node"\napproval_policy = "auto_approve"\n[servers.sandbox]\nmode = "off"\n',
    );
    const config = await load();
    assert.equal(config.kernel.approvalPolicy, 'interactive');
    assert.equal(config.kernel.moderateToolsRequireApproval, true);
    assert.equal(config.kernel.sandbox.mode, 'required');
    assert.deepEqual(config.kernel.allowedModels, ['gpt-4o*']);
    const [danger, ok] = config.servers;
    assert.match(danger.blockedByPolicy?.reason ?? '', /servers.deny "danger-\*"/);
    assert.equal(ok.blockedByPolicy, undefined);
    assert.equal(ok.policy.approvalPolicy, 'interactive');
    assert.equal(ok.settings.sandbox.mode, 'required');
    const warned = config.problems
      .filter((p) => p.severity === 'warning' && p.file === user && /ignored/.test(p.message))
      .map((p) => [p.key, p.line]);
    assert.deepEqual(warned, [
      ['kernel.approval_policy', 2],
      ['kernel.moderate_tools_require_approval', 3],
      ['servers.approval_policy', 9],
      ['servers.sandbox', 9],
    ]);
    for (const problem of config.problems.filter(
      (p) => p.file === user && /ignored/.test(p.message),
    ))
      assert.match(problem.message, new RegExp(`ignored: .*the managed policy ${policyFile}`));
  });

  it('requires audit shipping: no server starts until some config names the database', async () => {
    writeFileSync(policyFile, '[kernel.audit.postgres]\nrequired = true\n');
    const user = join(home, '.config/mgp/servers.toml');
    writeFileSync(user, '[[servers]]\nid = "a"\ncommand = "node"\n');
    assert.match(
      (await load()).servers[0].blockedByPolicy?.reason ?? '',
      /requires audit shipping/,
    );
    writeFileSync(
      user,
      '[kernel.audit.postgres]\nurl = "${secret:team-db}"\n\n[[servers]]\nid = "a"\ncommand = "node"\n',
    );
    const config = await load();
    assert.equal(config.servers[0].blockedByPolicy, undefined);
    assert.deepEqual(config.kernel.audit.postgres, { url: '${secret:team-db}' });
  });

  it("the policy's database wins over the user's, and a workspace file names none", async () => {
    writeFileSync(policyFile, '[kernel.audit.postgres]\nurl = "${secret:policy-db}"\n');
    writeFileSync(
      join(workspace, 'mgp.toml'),
      '[kernel.audit.postgres]\nurl = "postgres://repo.example/db"\n',
    );
    const config = await load();
    assert.deepEqual(config.kernel.audit.postgres, { url: '${secret:policy-db}' });
    writeFileSync(policyFile, '[servers]\ndeny = []\n');
    const without = await load();
    assert.equal(without.kernel.audit.postgres, undefined, "the repository's database is ignored");
    assert.ok(without.problems.some((p) => p.key === 'kernel.audit.postgres'));
  });

  it('is checked like any config file: unknown keys, a password in the URL, empty allow lists', () => {
    const diagnostics = checkConfigText(
      '[servers]\nallow = []\nblock = ["x"]\n\n[kernel.audit.postgres]\nurl = "postgres://me:hunter2@db/audit"\n',
      { path: '/etc/mgp/policy.toml' },
    );
    const codes = diagnostics.map((d) => [d.range.start.line + 1, d.severity, d.code]);
    assert.deepEqual(codes, [
      [2, 'warning', 'semantic/policy-allows-nothing'],
      [3, 'error', 'schema/additionalProperties'],
      [6, 'warning', 'semantic/literal-secret'],
    ]);
    assert.deepEqual(
      checkConfigText('[tool.other]\nx = 1\n', { path: '/somewhere/policy.toml' }),
      [],
      "another tool's policy.toml is left alone",
    );
  });

  it('checks the file MGP_MANAGED_POLICY names as the policy, whatever its name', () => {
    const text = '[servers]\ndeny = ["x"]\n[kernel]\napproval_policy = "sometimes"\n';
    const path = '/opt/corp/mgp-rules.toml';
    const asPolicy = checkConfigText(text, { path, managedPolicy: path });
    assert.deepEqual(
      asPolicy.map((d) => [d.range.start.line + 1, d.code]),
      [[4, 'schema/enum']],
    );
    const asServers = checkConfigText(text, { path, managedPolicy: '/etc/mgp/policy.toml' });
    assert.ok(
      asServers.some((d) => d.message.includes('servers must be an array')),
      'any other file of that name is an mgp.toml',
    );
  });
});
