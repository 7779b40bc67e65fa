import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryAuditSink } from '../../client/src/kernel/audit/auditSink';
import { launchFingerprint } from '../../client/src/kernel/config/launchFingerprint';
import { launchTarget, shellWord } from '../../client/src/kernel/config/launchText';
import { loadKernelConfig } from '../../client/src/kernel/config/load';
import type { ConfiguredServer } from '../../client/src/kernel/config/types';
import { LaunchApprovals } from '../../client/src/kernel/security/launchApprovals';

/** The record of allowed workspace servers that the editor and `mgp` share (one file, two shells). */
describe('launch approvals of workspace servers', () => {
  let workspace: string;
  let stateDir: string;

  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'mgp-launch-ws-'));
    stateDir = mkdtempSync(join(tmpdir(), 'mgp-launch-state-'));
  });
  afterEach(() => {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  async function serverOf(toml: string): Promise<ConfiguredServer> {
    writeFileSync(join(workspace, 'mgp.toml'), toml);
    const config = await loadKernelConfig({
      workspaceFolders: [workspace],
      home: stateDir,
      env: {},
    });
    assert.equal(config.servers.length, 1);
    return config.servers[0];
  }

  const shell = (args: string) => `[[servers]]\nid = "tool"\ncommand = "sh"\nargs = ${args}\n`;

  function approvals(audit = new MemoryAuditSink(), env = {}): LaunchApprovals {
    return new LaunchApprovals({ stateDir, audit, operator: 'agent.cli', env });
  }

  it('allows in one shell what the other reads, until the definition changes', async () => {
    const server = await serverOf(shell('["-c", "true"]'));
    const editor = approvals();
    const terminal = approvals();
    await Promise.all([editor.refresh(), terminal.refresh()]);
    assert.equal(terminal.standing(server), 'new');
    await editor.allow([server], { via: 'editor', remember: true });
    assert.equal(terminal.standing(server), 'new', 'answers from what it read last');
    await terminal.refresh();
    assert.equal(terminal.standing(server), 'allowed');
    const changed = await serverOf(shell('["-c", "touch /tmp/x"]'));
    assert.equal(terminal.standing(changed), 'changed');
  });

  it('keeps a grant of the other shell made since its last read', async () => {
    const first = await serverOf(shell('["-c", "true"]'));
    const editor = approvals();
    const terminal = approvals();
    await Promise.all([editor.refresh(), terminal.refresh()]);
    await editor.allow([first], { via: 'editor', remember: true });
    const second = { ...first, id: 'other' };
    await terminal.allow([second], { via: 'terminal', remember: true });
    const fresh = approvals();
    await fresh.refresh();
    assert.equal(fresh.standing(first), 'allowed');
    assert.equal(fresh.standing(second), 'allowed');
  });

  it('keeps only a digest of what was allowed, in a file only the user reads', async () => {
    const server = await serverOf(
      `[[servers]]\nid = "tool"\ncommand = "sh"\nargs = ["-c", "true"]\n[servers.env]\nAPI_KEY = "sk-literal-in-the-repo-1234567890"\n`,
    );
    const record = approvals();
    await record.allow([server], { via: 'command', remember: true });
    const text = readFileSync(record.path, 'utf8');
    assert.doesNotMatch(text, /sk-literal/);
    assert.match(text, /"fingerprint": "sha256:[0-9a-f]{64}"/);
    assert.equal(statSync(record.path).mode & 0o077, 0);
  });

  it('audits every grant with who made it and for how long, and revocations', async () => {
    const server = await serverOf(shell('["-c", "true"]'));
    const audit = new MemoryAuditSink();
    const record = approvals(audit);
    await record.refresh();
    await record.allow([server], { via: 'flag', remember: false });
    assert.equal(record.standing(server), 'allowed', 'for this run');
    assert.equal(approvals().standing(server), 'new', 'not recorded');
    await record.allow([server], { via: 'terminal', remember: true });
    assert.deepEqual(await record.revoke(['tool', 'unknown'], 'command'), ['tool']);
    assert.equal(record.standing(server), 'new');
    const events = audit.ofType('dev.mgp-kernel.launch_approval');
    assert.deepEqual(
      events.map((e) => [
        e.result,
        e.actor.id,
        e.target?.server_id,
        e.details?.via,
        e.details?.scope,
      ]),
      [
        ['ALLOWED', 'agent.cli', 'tool', 'flag', 'run'],
        ['ALLOWED', 'agent.cli', 'tool', 'terminal', 'workspace'],
        ['REVOKED', 'agent.cli', 'tool', 'command', 'workspace'],
      ],
    );
    assert.equal(events[0].details?.declared_in, `${join(workspace, 'mgp.toml')}:1`);
  });

  it("takes in the editor's earlier approvals once, the file's own winning", async () => {
    const server = await serverOf(shell('["-c", "true"]'));
    const audit = new MemoryAuditSink();
    const record = approvals(audit);
    const taken = await record.adopt({ tool: launchFingerprint(server), gone: 'x' });
    assert.deepEqual(taken.sort(), ['gone', 'tool']);
    assert.equal(record.standing(server), 'allowed');
    assert.deepEqual(await record.adopt({ tool: 'an older definition' }), []);
    assert.equal(record.standing(server), 'allowed');
    assert.equal(audit.ofType('dev.mgp-kernel.launch_approval')[0].details?.migrated, true);
  });

  it('lets MGP_PREAPPROVED_SERVERS allow by id or *', async () => {
    const server = await serverOf(shell('["-c", "true"]'));
    assert.equal(
      approvals(undefined, { MGP_PREAPPROVED_SERVERS: 'a, tool' }).standing(server),
      'preapproved',
    );
    assert.equal(
      approvals(undefined, { MGP_PREAPPROVED_SERVERS: '*' }).standing(server),
      'preapproved',
    );
    assert.equal(
      approvals(undefined, { MGP_PREAPPROVED_SERVERS: 'toolx' }).standing(server),
      'new',
    );
  });

  it('keeps an unreadable record aside and asks again', async () => {
    const server = await serverOf(shell('["-c", "true"]'));
    const messages: string[] = [];
    const record = new LaunchApprovals({
      stateDir,
      audit: new MemoryAuditSink(),
      operator: 'agent.cli',
      env: {},
      onCorrupt: (message) => messages.push(message),
    });
    writeFileSync(record.path, '{"version": 1, "servers": {"tool": "allowed"}}');
    await record.refresh();
    assert.equal(record.standing(server), 'new');
    assert.match(messages[0], /kept aside/);
  });

  it('shows a command line word by word, as a shell reads it, with controls visible', async () => {
    const server = await serverOf(shell('["-c", "touch \'/tmp/a b\'; echo \\u001b[2J"]'));
    assert.equal(launchTarget(server), `stdio: sh -c 'touch '\\''/tmp/a b'\\''; echo \\u001b[2J'`);
    assert.equal(shellWord('plain-word.txt'), 'plain-word.txt');
    assert.equal(shellWord('two\nlines'), `'two\\nlines'`);
  });
});
