/**
 * Child process of durability.test.ts: appends events from many concurrent producers, forever, and
 * prints "<seq> <hash>" for each record right after its append resolved (stdout to a pipe is
 * synchronous on Linux: a printed line has left the process). The test kills it with SIGKILL.
 *
 * Usage: node appendWorker.js DIR PRODUCERS ROTATE_BYTES [split|whole] [thread|inline]
 * With `split`, each batch is written in two halves, with "half" printed and a pause between, so
 * that the test can kill it mid-line and leave a torn tail, as a crash in the middle of a write can.
 * The last argument says where the log writes: its writer thread (the default) or this thread.
 */
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import { faultyOpener } from '../../unit/audit/faults';

async function main(): Promise<void> {
  const [dir, producers = '32', rotateBytes = '65536', mode, writer = 'thread'] =
    process.argv.slice(2);
  const log = await AuditLog.open({
    directory: dir,
    rotateBytes: Number(rotateBytes),
    openFile: mode === 'split' ? faultyOpener('splitWrites') : undefined,
    writer: writer === 'inline' ? 'inline' : 'thread',
  });
  process.stdout.write(`ready ${log.lastDurable.seq} ${log.writerKind}\n`);
  let n = 0;
  const produce = async (producer: number): Promise<void> => {
    for (;;) {
      const i = n++;
      const record = await log.append({
        event_type: 'TOOL_EXECUTED',
        actor: { type: 'agent', id: `agent.${producer}` },
        target: { server_id: 'durability', tool_name: 'append' },
        result: 'SUCCESS',
        details: { producer, i, payload: 'x'.repeat(i % 200) },
      });
      process.stdout.write(`${record.seq} ${record.hash}\n`);
    }
  };
  for (let p = 0; p < Number(producers); p++) void produce(p);
  setTimeout(() => process.exit(3), 60_000); // never outlive a test that forgot it
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(2);
});
