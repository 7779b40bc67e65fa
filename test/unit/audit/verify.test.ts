import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import type { AuditRecord } from '../../../client/src/kernel/audit/auditEvent';
import { canonicalJson } from '../../../client/src/kernel/audit/canonical';
import {
  checkLine,
  GENESIS_HASH,
  recordLine,
  recordParts,
  sealParts,
  sealRecord,
} from '../../../client/src/kernel/audit/chain';
import { verifyAuditLog } from '../../../client/src/kernel/audit/verify';
import { fileLines, sampleEvent, tempDir, writeLines, writeLog } from './support';

const FIRST = 'audit-000001.jsonl';

describe('audit hash chain and verify (MGP §6.3 records)', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = tempDir()));
  afterEach(() => remove());

  const problem = async () => (await verifyAuditLog(dir)).problem;

  it('canonical JSON sorts keys, drops undefined, and survives a round trip', () => {
    const value = { b: 1, a: { d: [1, undefined, 'x'], c: undefined }, e: new Date(0), f: NaN };
    const text = canonicalJson(value);
    assert.equal(text, '{"a":{"d":[1,null,"x"]},"b":1,"e":"1970-01-01T00:00:00.000Z","f":null}');
    assert.equal(canonicalJson(JSON.parse(text)), text);
    assert.equal(
      canonicalJson({ b: 1, 10: 'x', 9: 'y', a: [{ z: 1, y: 2 }] }),
      '{"10":"x","9":"y","a":[{"y":2,"z":1}],"b":1}',
    );
    assert.equal(
      canonicalJson({ a: { toJSON: () => ({ b: 1, a: 2 }) }, m: new Map([[1, 2]]), n: Object(5) }),
      '{"a":{"a":2,"b":1},"m":{},"n":5}',
    );
    assert.throws(() => canonicalJson({ n: 1n }), TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => canonicalJson(cyclic), TypeError);
  });

  it('seals a record cut into parts (as the writer thread gets it) into the same line as the whole record', () => {
    const base = {
      timestamp: '2026-03-01T00:00:00.000Z',
      trace_id: 't-1',
      event_type: 'TOOL_EXECUTED',
      actor: { type: 'agent' as const, id: 'a' },
      target: { tool_name: 't', server_id: 's' },
      result: 'SUCCESS',
    };
    const details: Record<string, unknown>[] = [
      {},
      { b: 1, a: 'x' },
      { 10: 'x', 9: 'y', nested: { z: [1, { y: 2, x: undefined }], é: 'ü', '\u2028': '"quoted"' } },
      { result: 'not the top one', seq: 7, prev_hash: 'h', target: { server_id: 'inner' } },
      { f: NaN, big: 1e21, neg: -0, list: [undefined, null] },
    ];
    let previous = { seq: 41, hash: 'a'.repeat(64) };
    for (const d of details) {
      const event = { ...base, details: d };
      const whole = sealRecord(event, previous);
      const parts = recordParts(event);
      const cut = sealParts(parts[0], parts[1], parts[2], previous);
      assert.equal(cut.line, whole.line);
      assert.deepEqual([cut.seq, cut.hash], [whole.seq, whole.hash]);
      assert.equal(checkLine(cut.line.slice(0, -1)).ok, true);
      previous = { seq: cut.seq, hash: cut.hash };
    }
    assert.throws(() => recordParts({ ...base, details: { n: 1n } }), TypeError);
  });

  it('writes each record as its canonical form plus its hash, chained from the genesis hash', async () => {
    await writeLog(dir, 3);
    const lines = fileLines(join(dir, FIRST));
    const records = lines.map((l) => JSON.parse(l) as AuditRecord);
    assert.deepEqual(
      records.map((r) => r.seq),
      [1, 2, 3],
    );
    assert.equal(records[0].prev_hash, GENESIS_HASH);
    assert.equal(records[1].prev_hash, records[0].hash);
    assert.equal(records[2].prev_hash, records[1].hash);
    for (const line of lines) {
      assert.equal(checkLine(line).ok, true);
      assert.equal(`${line}\n`, recordLine(JSON.parse(line) as AuditRecord));
    }
  });

  it('verifies an intact log, reporting the head hash', async () => {
    await writeLog(dir, 25);
    const report = await verifyAuditLog(dir);
    assert.equal(report.ok, true, JSON.stringify(report.problem));
    assert.deepEqual([report.records, report.firstSeq, report.lastSeq], [25, 1, 25]);
    assert.equal(
      report.headHash,
      (JSON.parse(fileLines(join(dir, FIRST))[24]) as AuditRecord).hash,
    );
  });

  it('rotation keeps the chain across files: the first record of a file chains to the last of the one before', async () => {
    await writeLog(dir, 40, { rotateBytes: 2000 });
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
    assert.ok(files.length >= 4, files.join());
    for (let i = 1; i < files.length; i++) {
      const last = JSON.parse(fileLines(join(dir, files[i - 1])).at(-1) as string) as AuditRecord;
      const first = JSON.parse(fileLines(join(dir, files[i]))[0]) as AuditRecord;
      assert.equal(first.seq, last.seq + 1);
      assert.equal(first.prev_hash, last.hash);
    }
    for (const file of files) assert.ok(readFileSync(join(dir, file)).length <= 2000);
    assert.equal((await verifyAuditLog(dir)).ok, true);
  });

  describe('detects tampering, naming the seq, file and line', () => {
    const editLine = (file: string, line: number, edit: (text: string) => string) => {
      const lines = fileLines(join(dir, file));
      lines[line - 1] = edit(lines[line - 1]);
      writeLines(join(dir, file), lines);
    };

    it('an edited field', async () => {
      await writeLog(dir, 10);
      editLine(FIRST, 5, (l) => l.replace('"result":"SUCCESS"', '"result":"FAILURE"'));
      assert.deepEqual(
        { ...(await problem()), reason: undefined },
        { kind: 'hash_mismatch', seq: 5, file: FIRST, line: 5, reason: undefined },
      );
    });

    it('an edited record whose own hash was recomputed: the next record no longer chains to it', async () => {
      await writeLog(dir, 10);
      editLine(FIRST, 5, (l) => {
        const record = JSON.parse(l) as AuditRecord;
        const forged = sealRecord(
          { ...record, result: 'FAILURE' },
          { seq: record.seq - 1, hash: record.prev_hash },
        );
        return forged.line.slice(0, -1);
      });
      const found = await problem();
      assert.deepEqual(
        [found?.kind, found?.seq, found?.file, found?.line],
        ['chain_break', 6, FIRST, 6],
      );
    });

    it('a deleted record', async () => {
      await writeLog(dir, 10);
      writeLines(
        join(dir, FIRST),
        fileLines(join(dir, FIRST)).filter((_, i) => i !== 4),
      );
      const found = await problem();
      assert.deepEqual(
        [found?.kind, found?.seq, found?.file, found?.line],
        ['seq_gap', 5, FIRST, 5],
      );
      assert.match(found?.reason ?? '', /expected seq 5, found seq 6: record 5 is missing/);
    });

    it('two swapped records', async () => {
      await writeLog(dir, 10);
      const lines = fileLines(join(dir, FIRST));
      [lines[3], lines[4]] = [lines[4], lines[3]];
      writeLines(join(dir, FIRST), lines);
      const found = await problem();
      assert.deepEqual(
        [found?.kind, found?.seq, found?.file, found?.line],
        ['seq_gap', 4, FIRST, 4],
      );
    });

    it('a duplicated (inserted) record', async () => {
      await writeLog(dir, 10);
      const lines = fileLines(join(dir, FIRST));
      lines.splice(6, 0, lines[2]);
      writeLines(join(dir, FIRST), lines);
      const found = await problem();
      assert.deepEqual(
        [found?.kind, found?.seq, found?.file, found?.line],
        ['seq_out_of_order', 7, FIRST, 7],
      );
    });

    it('a line rewritten in a different but equal JSON form', async () => {
      await writeLog(dir, 4);
      editLine(FIRST, 2, (l) => l.replace('"result":', '"result": '));
      const found = await problem();
      assert.deepEqual([found?.kind, found?.seq, found?.line], ['not_canonical', 2, 2]);
    });

    it('a whole middle file deleted', async () => {
      await writeLog(dir, 40, { rotateBytes: 2000 });
      const second = fileLines(join(dir, 'audit-000002.jsonl')).map(
        (l) => JSON.parse(l) as AuditRecord,
      );
      unlinkSync(join(dir, 'audit-000002.jsonl'));
      const found = await problem();
      assert.deepEqual(
        [found?.kind, found?.seq, found?.file, found?.line],
        ['seq_gap', second[0].seq, 'audit-000003.jsonl', 1],
      );
      assert.match(found?.reason ?? '', /audit-000002\.jsonl is missing/);
    });

    it('the oldest file deleted by hand (no retention recorded)', async () => {
      await writeLog(dir, 40, { rotateBytes: 2000 });
      unlinkSync(join(dir, FIRST));
      const found = await problem();
      assert.deepEqual(
        [found?.kind, found?.seq, found?.file, found?.line],
        ['missing_start', 1, 'audit-000002.jsonl', 1],
      );
    });

    it('whole records cut off the end, back to the checkpoint', async () => {
      await writeLog(dir, 10);
      writeLines(join(dir, FIRST), fileLines(join(dir, FIRST)).slice(0, 7));
      const found = await problem();
      assert.deepEqual(
        [found?.kind, found?.seq, found?.file, found?.line],
        ['truncated', 8, FIRST, 8],
      );
      assert.match(found?.reason ?? '', /records 8–10 were cut off the end/);
    });

    it('the newest file deleted', async () => {
      await writeLog(dir, 40, { rotateBytes: 2000 });
      const files = readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl'))
        .sort();
      const lastKept = fileLines(join(dir, files.at(-2) as string));
      unlinkSync(join(dir, files.at(-1) as string));
      const found = await problem();
      assert.deepEqual(
        [found?.kind, found?.seq, found?.file, found?.line],
        [
          'truncated',
          (JSON.parse(lastKept.at(-1) as string) as AuditRecord).seq + 1,
          files.at(-2),
          lastKept.length + 1,
        ],
      );
    });

    it('a tail truncated in the middle of a line', async () => {
      await writeLog(dir, 10);
      const path = join(dir, FIRST);
      truncateSync(path, readFileSync(path).length - 40);
      const found = await problem();
      assert.deepEqual(
        [found?.kind, found?.seq, found?.file, found?.line],
        ['torn_line', 10, FIRST, 10],
      );
    });

    it('the checkpointed record replaced by a re-chained one', async () => {
      await writeLog(dir, 5);
      editLine(FIRST, 5, (l) => {
        const record = JSON.parse(l) as AuditRecord;
        return sealRecord(
          { ...record, result: 'FAILURE' },
          { seq: 4, hash: record.prev_hash },
        ).line.slice(0, -1);
      });
      const found = await problem();
      assert.deepEqual(
        [found?.kind, found?.seq, found?.file, found?.line],
        ['checkpoint_mismatch', 5, FIRST, 5],
      );
    });

    it('chain.json deleted and records cut off the end (issue 24, 12)', async () => {
      await writeLog(dir, 10);
      unlinkSync(join(dir, 'chain.json'));
      writeLines(join(dir, FIRST), fileLines(join(dir, FIRST)).slice(0, 7));
      const found = await problem();
      assert.equal(found?.kind, 'missing_anchor');
      assert.match(found?.reason ?? '', /chain\.json is missing/);
    });

    it('chain.json deleted alone: a log with records always has its anchor', async () => {
      await writeLog(dir, 3);
      unlinkSync(join(dir, 'chain.json'));
      assert.equal((await problem())?.kind, 'missing_anchor');
    });

    it('the head checkpoint removed from chain.json', async () => {
      await writeLog(dir, 3);
      const anchor = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      delete anchor.head;
      writeFileSync(join(dir, 'chain.json'), JSON.stringify(anchor));
      assert.equal((await problem())?.kind, 'missing_anchor');
    });

    it('records cut off the end of a log whose writer is still running (the checkpoint follows every write)', async () => {
      const log = await AuditLog.open({ directory: dir });
      for (let i = 1; i <= 10; i++) await log.append(sampleEvent(i));
      await log.settled();
      writeLines(join(dir, FIRST), fileLines(join(dir, FIRST)).slice(0, 7));
      const found = await problem();
      await log.close().catch(() => undefined);
      assert.deepEqual([found?.kind, found?.seq], ['truncated', 8]);
    });

    it('chain.json deleted, then the log reopened: the loss stays visible to verify', async () => {
      await writeLog(dir, 10);
      unlinkSync(join(dir, 'chain.json'));
      writeLines(join(dir, FIRST), fileLines(join(dir, FIRST)).slice(0, 7));
      const problems: string[] = [];
      const log = await AuditLog.open({ directory: dir, onProblem: (m) => problems.push(m) });
      assert.match(log.notes.join('\n'), /chain\.json is missing/);
      await log.append(sampleEvent(99));
      await log.close();
      const found = await problem();
      assert.equal(found?.kind, 'anchor_lost');
      assert.match(found?.reason ?? '', /records up to seq 7/);
    });

    it('an unreadable chain.json', async () => {
      await writeLog(dir, 3);
      writeFileSync(join(dir, 'chain.json'), '{ not json');
      assert.equal((await problem())?.kind, 'unreadable_anchor');
    });
  });

  it('a torn tail is repaired at open: verify passes again and the chain continues', async () => {
    await writeLog(dir, 10);
    const path = join(dir, FIRST);
    truncateSync(path, readFileSync(path).length - 40);
    writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.alloc(100)])); // zeros, as a file system may leave
    const log = await AuditLog.open({ directory: dir });
    assert.match(log.notes.join('\n'), /audit-000001\.jsonl: cut off an incomplete last line/);
    const record = await log.append({
      event_type: 'SERVER_CONNECTED',
      actor: { type: 'kernel', id: 'kernel' },
      result: 'SUCCESS',
    });
    await log.close();
    // seq 10 was never acknowledged (in this scenario); the checkpoint named it, so the chain skips it visibly.
    assert.equal(record.seq, 11);
    const found = await problem();
    assert.deepEqual([found?.kind, found?.seq, found?.line], ['seq_gap', 10, 10]);
  });

  it('a torn tail after the checkpoint is repaired silently and verifies', async () => {
    const log = await AuditLog.open({ directory: dir });
    await log.append({
      event_type: 'SERVER_CONNECTED',
      actor: { type: 'kernel', id: 'k' },
      result: 'SUCCESS',
    });
    await log.close(); // checkpoint at seq 1
    // A writer that then crashed: three more records after the checkpoint, and half of a fourth.
    const path = join(dir, FIRST);
    let previous = JSON.parse(fileLines(path)[0]) as AuditRecord;
    for (let i = 0; i < 3; i++) {
      const sealed = sealRecord(
        { ...previous, details: { i } },
        { seq: previous.seq, hash: previous.hash },
      );
      writeFileSync(path, sealed.line, { flag: 'a' });
      previous = sealed.record;
    }
    writeFileSync(path, '{"actor":{"id":"k","ty', { flag: 'a' });
    assert.equal((await problem())?.kind, 'torn_line');
    const reopened = await AuditLog.open({ directory: dir });
    assert.equal(reopened.lastDurable.seq, 4);
    await reopened.append({
      event_type: 'SERVER_CONNECTED',
      actor: { type: 'kernel', id: 'k' },
      result: 'SUCCESS',
    });
    await reopened.close();
    const report = await verifyAuditLog(dir);
    assert.equal(report.ok, true, JSON.stringify(report.problem));
    assert.equal(report.lastSeq, 5);
  });
});
