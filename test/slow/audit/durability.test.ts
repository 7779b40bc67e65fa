import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import type { AuditRecord } from '../../../client/src/kernel/audit/auditEvent';
import { readRecords } from '../../../client/src/kernel/audit/reader';
import { verifyAuditLog } from '../../../client/src/kernel/audit/verify';
import { tempDir } from '../../unit/audit/support';

const worker = join(__dirname, 'appendWorker.js');

interface Run {
  acked: Map<number, string>;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Runs the worker on `dir` and SIGKILLs it once `killAfter` acknowledgements were printed: at once,
 * or with `split`, at the next half batch it reports written and waits on (a torn line on disk).
 */
function runAndKill(
  dir: string,
  killAfter: number,
  producers: number,
  rotateBytes: number,
  split: boolean,
  writer: 'thread' | 'inline',
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [worker, dir, String(producers), String(rotateBytes), split ? 'split' : 'whole', writer],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const acked = new Map<number, string>();
    let pending = '';
    let stderr = '';
    let killed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() as string; // a line not yet ended is not an acknowledgement
      for (const line of lines) {
        const [seq, hash] = line.split(' ');
        if (seq === 'half') {
          // The worker waits with half a batch on disk until it hears "go" or is killed.
          if (killed || acked.size < killAfter) child.stdin.write('go\n');
          else {
            killed = true;
            child.kill('SIGKILL');
          }
        } else if (seq !== 'ready') acked.set(Number(seq), hash);
      }
      if (!killed && !split && acked.size >= killAfter) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.on('error', () => {}); // the pipe breaks when the worker is killed
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ acked, signal, stderr }));
  });
}

describe('audit durability: SIGKILL while appending', function () {
  let dir: string;
  let remove: () => void;
  before(() => ({ dir, remove } = tempDir('mgp-audit-kill-')));
  after(() => remove());

  // The same log is killed again and again: each run reopens what the previous crash left. Every
  // second run is killed with half a batch written, leaving a torn line for the next open to cut off.
  // The log writes from its writer thread, except in the last two runs (the calling thread).
  const killPoints = [40, 700, 3000, 150, 9000, 1, 500, 2000];

  killPoints.forEach((killAfter, run) => {
    const writer = run >= killPoints.length - 2 ? 'inline' : 'thread';
    it(`run ${run + 1}: killed after ${killAfter} acknowledgements${run % 2 ? ', mid-line' : ''} (${writer} writer): every acknowledged record is present and intact`, async () => {
      const result = await runAndKill(
        dir,
        killAfter,
        16 + run * 24,
        run % 2 ? 8192 : 65536,
        run % 2 === 1,
        writer,
      );
      assert.equal(result.signal, 'SIGKILL', result.stderr);
      assert.ok(result.acked.size >= killAfter);

      const log = await AuditLog.open({ directory: dir });
      try {
        if (run % 2 === 1)
          assert.match(
            log.notes.join('\n'),
            /cut off an incomplete last line .* it held no acknowledged record/,
          );
        const onDisk = new Map<number, AuditRecord>();
        for await (const record of readRecords(dir)) onDisk.set(record.seq, record);
        for (const [seq, hash] of result.acked) {
          assert.equal(
            onDisk.get(seq)?.hash,
            hash,
            `acknowledged seq ${seq} is missing or changed`,
          );
        }
        const report = await verifyAuditLog(dir);
        assert.equal(
          report.ok,
          true,
          `${JSON.stringify(report.problem)}\nnotes: ${log.notes.join('\n')}`,
        );
        assert.ok((report.lastSeq ?? 0) >= Math.max(...result.acked.keys()));
        // The chain continues after the repair.
        const next = await log.append({
          event_type: 'com.example.restarted',
          actor: { type: 'kernel', id: 'test' },
          result: 'SUCCESS',
        });
        assert.equal(next.seq, (report.lastSeq ?? 0) + 1);
      } finally {
        await log.close(); // a failed run must not leave the next runs locked out
      }
      assert.equal((await verifyAuditLog(dir)).ok, true);
    });
  });
});
