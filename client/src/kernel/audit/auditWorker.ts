/**
 * The audit log's writer thread: it owns the appending end of the log files. It receives the JSON
 * text of complete events (workerProtocol.ts), redacts, numbers and hashes them in arrival order,
 * writes and fsyncs them with group commit (chainWriter.ts, groupCommit.ts), and reports which
 * events are durable, with their records' lines, or rejected. So the hashing and the file I/O take
 * the other core, not the thread that runs the tool calls.
 *
 * Built as its own bundle (`dist/auditWorker.js`, see esbuild.mjs); workerWriter.ts starts it.
 */
import { MessagePort, parentPort, workerData } from 'node:worker_threads';
import type { AuditEvent } from './auditEvent';
import { ChainWriter } from './chainWriter';
import { AuditError } from './errors';
import type { PendingAppend } from './groupCommit';
import { Redactor } from './redact';
import { loadOpener } from './segmentFile';
import { segmentAt } from './segments';
import type { EventText, FromWriter, ToWriter, WireError, WriterSetup } from './workerProtocol';

type Pending = PendingAppend & { id: number };

const port = parentPort as MessagePort;
const setup = workerData as WriterSetup;
const post = (message: FromWriter): void => port.postMessage(message);

const wire = (error: Error): WireError => ({ code: error instanceof AuditError ? error.code : 'WriteFailed', message: error.message });

/** Rejections are gathered and sent once the current task is done (a failed write rejects a whole queue). */
const rejections: { ids: number[]; error: Error }[] = [];

/** Sends the rejections gathered; those of `failure` (a failed write) go last, in one message that reports it. */
function flushRejections(failure?: { error: Error; broken?: Error }): void {
  let failedIds: number[] = [];
  for (const { ids, error } of rejections.splice(0)) {
    if (error === failure?.error) failedIds = failedIds.concat(ids);
    else post({ type: 'rejected', ids, error: wire(error) });
  }
  if (failure) post({ type: 'rejected', ids: failedIds, error: wire(failure.error), failed: { broken: failure.broken && wire(failure.broken) } });
}

function reject(id: number, error: Error): void {
  const last = rejections[rejections.length - 1];
  if (last?.error === error) return void last.ids.push(id);
  if (rejections.length === 0) queueMicrotask(() => flushRejections());
  rejections.push({ ids: [id], error });
}

const redactor = new Redactor(setup.redactor);
const writer: ChainWriter<Pending> = new ChainWriter<Pending>({
  dir: setup.dir,
  open: loadOpener(setup.openFile),
  rotateBytes: setup.rotateBytes,
  commitDelayMs: setup.commitDelayMs,
  segment: segmentAt(setup.dir, setup.segment),
  size: setup.size,
  head: setup.head,
  redactor,
  hooks: {
    durable: (batch, segment) => {
      let lines = '';
      const ids = new Array<number>(batch.length);
      for (let i = 0; i < batch.length; i++) {
        lines += batch[i].sealed.line;
        ids[i] = batch[i].id;
      }
      post({ type: 'durable', segment: segment.index, ids, lines });
    },
    failed: (error) => flushRejections({ error, broken: writer.failure }),
  },
});

let nextId = 0;
const resolved = (): void => undefined; // told by the `durable` message

function append(text: EventText): void {
  const id = nextId++;
  const pending = { id, resolve: resolved, reject: (error: Error) => reject(id, error) };
  let event: AuditEvent;
  try {
    event = JSON.parse(typeof text === 'string' ? text : text.redacted) as AuditEvent;
  } catch (error) {
    return pending.reject(new AuditError('InvalidEvent', `cannot log this event: ${error instanceof Error ? error.message : String(error)}`, error));
  }
  writer.append(event, pending, typeof text !== 'string');
}

port.on('message', (message: ToWriter) => {
  switch (message.type) {
    case 'append':
      for (const text of message.events) append(text);
      return;
    case 'secret':
      redactor.addSecret(message.value);
      return;
    case 'close':
      void writer.close().then(
        () => {
          flushRejections();
          post({ type: 'closed' });
        },
        (error: unknown) => {
          flushRejections();
          post({ type: 'closed', error: wire(error instanceof Error ? error : new Error(String(error))) });
        },
      );
      return;
  }
});

post({ type: 'ready' });
