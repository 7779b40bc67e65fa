import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAudit } from '../../../client/src/cli/auditCommands';
import { cliAnchorKeys } from '../../../client/src/cli/cliSecrets';
import type { ChainAnchor } from '../../../client/src/kernel/audit/anchor';
import type { AnchorKeyStore } from '../../../client/src/kernel/audit/anchorSeal';
import type { AuditRecord } from '../../../client/src/kernel/audit/auditEvent';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import { fileLines, sampleEvent, tempDir, writeLines, writeLog } from './support';

const FIRST = 'audit-000001.jsonl';

// The attacker of these tests can write the log's folder (every file in it), and nothing else: not
// the store where the mgp command keeps its keys (a user-only file here, as without a keyring).

describe('a sealed chain.json: its head vouched for by a key the folder does not hold', () => {
  let dir: string;
  let stateRoot: string;
  let keys: AnchorKeyStore;
  let removeAll: () => void;
  beforeEach(() => {
    const made = [tempDir(), tempDir('mgp-keys-')];
    dir = made[0].dir;
    stateRoot = made[1].dir;
    removeAll = () => made.forEach((m) => m.remove());
    keys = cliAnchorKeys(stateRoot, { MGP_OAUTH_TOKEN_STORE: 'file' });
  });
  afterEach(() => removeAll());

  async function audit(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const io = { out: (t: string) => (out += `${t}\n`), err: (t: string) => (err += `${t}\n`) };
    const code = await runAudit([...args, '--dir', dir], io, { anchorKeys: keys });
    return { code, out, err };
  }

  const anchor = (): ChainAnchor =>
    JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as ChainAnchor;
  const writeAnchor = (value: ChainAnchor) =>
    writeFileSync(join(dir, 'chain.json'), JSON.stringify(value, null, 2));

  /** Cuts the last records off and rewrites chain.json's head to name the new last one. */
  function cutTailAndRewriteHead(keep: number): void {
    const lines = fileLines(join(dir, FIRST)).slice(0, keep);
    writeLines(join(dir, FIRST), lines);
    const last = JSON.parse(lines[lines.length - 1]) as AuditRecord;
    const forged = anchor();
    forged.head = { seq: last.seq, hash: last.hash, file: FIRST, at: new Date().toISOString() };
    writeAnchor(forged);
  }

  it('an untouched log passes, sealed with the key in the store', async () => {
    await writeLog(dir, 10, { anchorKeys: keys });
    const seal = anchor().seals?.cli;
    assert.equal(seal?.seq, 10);
    const ok = await audit('verify');
    assert.equal(ok.code, 0, ok.out + ok.err);
    assert.match(
      ok.out,
      /audit log OK: 10 record\(s\).*sealed up to seq 10 with the key in .*audit-keys\.json/,
    );
  });

  it('records cut off the end and chain.json rewritten to match: verify fails on the seal', async () => {
    await writeLog(dir, 10, { anchorKeys: keys });
    cutTailAndRewriteHead(7);
    const broken = await audit('verify', '--json');
    assert.equal(broken.code, 1);
    const report = JSON.parse(broken.out) as { problem: { kind: string; reason: string } };
    assert.equal(report.problem.kind, 'truncated');
    assert.match(
      report.problem.reason,
      /the head sealed with the key in .* is seq 10: records 8–10 were cut off/,
    );
  });

  it('the seal edited to match, or removed, or the whole chain.json replaced: verify fails', async () => {
    await writeLog(dir, 10, { anchorKeys: keys });
    cutTailAndRewriteHead(7);
    const forged = anchor();
    const head = forged.head!;
    writeAnchor({
      ...forged,
      seals: { cli: { ...forged.seals!.cli, seq: head.seq, hash: head.hash } },
    });
    const edited = JSON.parse((await audit('verify', '--json')).out) as VerifyJson;
    assert.equal(edited.problem?.kind, 'seal_mismatch');
    assert.match(edited.problem?.reason ?? '', /edited without the key/);
    writeAnchor({ version: 1, head });
    const removed = JSON.parse((await audit('verify', '--json')).out) as VerifyJson;
    assert.equal(removed.problem?.kind, 'seal_missing');
  });

  it('the kernel reopening a forged log does not seal the forgery: the loss stays visible', async () => {
    await writeLog(dir, 10, { anchorKeys: keys });
    cutTailAndRewriteHead(7);
    await writeLog(dir, 2, { anchorKeys: keys });
    const after = await audit('verify', '--json');
    assert.equal(after.code, 1);
    const gap = JSON.parse(after.out) as VerifyJson;
    assert.equal(gap.problem?.kind, 'seq_gap');
    assert.match(gap.problem?.reason ?? '', /expected seq 8, found seq 11/);
  });

  it('a seal removed before the kernel reopens the log: the loss is recorded, and sealed', async () => {
    await writeLog(dir, 5, { anchorKeys: keys });
    writeAnchor({ version: 1, head: anchor().head });
    const notes: string[] = [];
    await writeLog(dir, 1, { anchorKeys: keys, onProblem: (m) => notes.push(m) });
    assert.match(notes.join('\n'), /the seal was removed/);
    const stripped = anchor();
    assert.match(stripped.lost?.why ?? '', /the seal was removed/);
    delete stripped.lost;
    writeAnchor(stripped);
    const lost = JSON.parse((await audit('verify', '--json')).out) as VerifyJson;
    assert.equal(lost.problem?.kind, 'anchor_lost');
    assert.match(lost.problem?.reason ?? '', /the seal was removed when the log was opened/);
  });

  it('--expect-head: a pinned head cut off the end fails verify, with no key at all', async () => {
    await writeLog(dir, 10);
    const pinned = await audit('head');
    assert.equal(pinned.code, 0, pinned.err);
    const hash = pinned.out.trim();
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.match(pinned.err, /seq 10: keep this hash .* mgp audit verify --expect-head/);
    await writeLog(dir, 2);
    assert.equal((await audit('verify', '--expect-head', hash)).code, 0);
    cutTailAndRewriteHead(8);
    const broken = await audit('verify', '--expect-head', hash, '--json');
    assert.equal(broken.code, 1);
    const report = JSON.parse(broken.out) as VerifyJson;
    assert.equal(report.problem?.kind, 'pinned_head_missing');
    assert.match(report.problem?.reason ?? '', /seq 1–8\) does not hold the head you pinned/);
    assert.equal((await audit('verify')).code, 0, 'without the pin, this forgery passes');
  });

  it('--expect-head passes an untouched log and takes only a record hash', async () => {
    await writeLog(dir, 4, { anchorKeys: keys });
    const hash = (await audit('head')).out.trim();
    const ok = await audit('verify', '--expect-head', hash.toUpperCase());
    assert.equal(ok.code, 0);
    assert.match(ok.out, /it holds the head you pinned/);
    const bad = await audit('verify', '--expect-head', 'abc');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--expect-head takes a record hash: 64 hex digits/);
  });

  it('a seal whose key is not here is said and fails, unless a pinned head vouches instead', async () => {
    await writeLog(dir, 5, { anchorKeys: keys });
    const hash = (await audit('head')).out.trim();
    keys = cliAnchorKeys(join(stateRoot, 'elsewhere'), { MGP_OAUTH_TOKEN_STORE: 'file' });
    const unverifiable = JSON.parse((await audit('verify', '--json')).out) as VerifyJson;
    assert.equal(unverifiable.problem?.kind, 'seal_unverifiable');
    assert.match(unverifiable.problem?.reason ?? '', /has no key for this log/);
    const pinned = await audit('verify', '--expect-head', hash);
    assert.equal(pinned.code, 0);
    assert.match(pinned.err, /the head you pinned vouches for the end instead/);
  });

  it('a log without a seal says so rather than passing in silence', async () => {
    await writeLog(dir, 3);
    const ok = await audit('verify');
    assert.equal(ok.code, 0);
    assert.match(
      ok.err,
      /chain\.json is not sealed with a key in .*: its head is only as trustworthy as the folder/,
    );
  });

  it('a key store that fails leaves the log open and unsealed, and says why', async () => {
    const failing: AnchorKeyStore = {
      kind: 'cli',
      description: 'a keyring that is locked',
      get: () => Promise.reject(new Error('the keyring is locked')),
      set: () => Promise.reject(new Error('the keyring is locked')),
    };
    const log = await AuditLog.open({ directory: dir, anchorKeys: failing });
    await log.append(sampleEvent(1));
    await log.close();
    assert.match(
      log.notes.join('\n'),
      /chain\.json is not sealed while the log is open: a keyring that is locked failed: the keyring is locked/,
    );
    assert.equal(anchor().seals, undefined);
  });

  it('the key never reaches the log, chain.json or any output', async () => {
    await writeLog(dir, 6, { anchorKeys: keys });
    const stored = JSON.parse(readFileSync(join(stateRoot, 'audit-keys.json'), 'utf8')) as Record<
      string,
      string
    >;
    const [key] = Object.values(stored);
    assert.match(key, /^[A-Za-z0-9_-]{43}$/);
    const secretForms = [key, Buffer.from(key, 'base64url').toString('hex')];
    const outputs = [
      await audit('verify'),
      await audit('verify', '--json'),
      await audit('head', '--json'),
      await audit('tail', '--json'),
    ].flatMap((r) => [r.out, r.err]);
    const files = readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8'));
    for (const text of [...outputs, ...files])
      for (const secret of secretForms) assert.equal(text.includes(secret), false);
  });
});

interface VerifyJson {
  ok: boolean;
  problem: { kind: string; reason: string } | null;
}
