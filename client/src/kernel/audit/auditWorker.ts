/**
 * The audit log's writer thread: it owns the appending end of the log files. It receives complete,
 * redacted events in their canonical JSON form, cut where the chain fields go (workerProtocol.ts,
 * chain.ts's recordParts), numbers, chains and hashes them in arrival order, writes and fsyncs them
 * with group commit (chainWriter.ts, groupCommit.ts), and reports which events are durable, with
 * their seqs and hashes, or rejected. So the hashing and the file I/O take the other core, not the
 * thread that runs the tool calls.
 *
 * Built as its own bundle (`dist/auditWorker.js`, see esbuild.mjs); workerWriter.ts starts it.
 */
import { MessagePort, parentPort, workerData } from 'node:worker_threads';
import { ChainLink, SealedLine, sealParts } from './chain';
import { ChainWriter } from './chainWriter';
import { AuditError } from './errors';
import type { PendingAppend } from './groupCommit';
import { loadOpener } from './segmentFile';
import { segmentAt } from './segments';
import type { FromWriter, ToWriter, WireError, WriterSetup } from './workerProtocol';

type Pending = PendingAppend<SealedLine> & { id: number };

const port = parentPort as MessagePort;
const setup = workerData as WriterSetup;
const post = (message: FromWriter): void => port.postMessage(message);

const wire = (error: Error): WireError => ({
  code: error instanceof AuditError ? error.code : 'WriteFailed',
  message: error.message,
});

/** Rejections are gathered and sent once the current task is done (a failed write rejects a whole queue). */
const rejections: { ids: number[]; error: Error }[] = [];

/** Sends the rejections gathered; those of `failure` (a failed write) go last, in one message that reports it. */
function flushRejections(failure?: { error: Error; broken?: Error }): void {
  let failedIds: number[] = [];
  for (const { ids, error } of rejections.splice(0)) {
    if (error === failure?.error) failedIds = failedIds.concat(ids);
    else post({ type: 'rejected', ids, error: wire(error) });
  }
  if (failure)
    post({
      type: 'rejected',
      ids: failedIds,
      error: wire(failure.error),
      failed: { broken: failure.broken && wire(failure.broken) },
    });
}

function reject(id: number, error: Error): void {
  const last = rejections[rejections.length - 1];
  if (last?.error === error) return void last.ids.push(id);
  if (rejections.length === 0) queueMicrotask(() => flushRejections());
  rejections.push({ ids: [id], error });
}

/** The hash of the last durable record: the first record of the next durable batch chains to it. */
let durableHash = setup.head.hash;

const writer: ChainWriter<Pending> = new ChainWriter<Pending>({
  dir: setup.dir,
  open: loadOpener(setup.openFile),
  rotateBytes: setup.rotateBytes,
  commitDelayMs: setup.commitDelayMs,
  segment: segmentAt(setup.dir, setup.segment),
  size: setup.size,
  head: setup.head,
  hooks: {
    durable: (batch, segment) => {
      const ids = new Array<number>(batch.length);
      const hashes = new Array<string>(batch.length);
      for (let i = 0; i < batch.length; i++) {
        ids[i] = batch[i].id;
        hashes[i] = batch[i].sealed.hash;
      }
      post({
        type: 'durable',
        segment: segment.index,
        ids,
        seq: batch[0].sealed.seq,
        prevHash: durableHash,
        hashes,
      });
      durableHash = hashes[hashes.length - 1];
    },
    failed: (error) => flushRejections({ error, broken: writer.failure }),
  },
});

let nextId = 0;
const resolved = (): void => undefined; // told by the `durable` message

function append(parts: string[], at: number): void {
  const id = nextId++;
  const seal = (previous: ChainLink): SealedLine =>
    sealParts(parts[at], parts[at + 1], parts[at + 2], previous);
  writer.append(seal, { id, resolve: resolved, reject: (error: Error) => reject(id, error) });
}

port.on('message', (message: ToWriter) => {
  switch (message.type) {
    case 'append':
      for (let at = 0; at < message.parts.length; at += 3) append(message.parts, at);
      return;
    case 'close':
      void writer.close().then(
        () => {
          flushRejections();
          post({ type: 'closed' });
        },
        (error: unknown) => {
          flushRejections();
          post({
            type: 'closed',
            error: wire(error instanceof Error ? error : new Error(String(error))),
          });
        },
      );
      return;
  }
});

post({ type: 'ready' });
