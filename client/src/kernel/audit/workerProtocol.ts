/**
 * The messages between an AuditLog (workerWriter.ts) and its writer thread (auditWorker.ts).
 *
 * The writer numbers the events it receives 0, 1, 2, … in arrival order; that number (`id`) is how
 * it tells which appends were settled.
 */
import type { ChainLink } from './chain';
import type { AuditErrorCode } from './errors';
import type { SegmentFileOpenerModule } from './segmentFile';

/** File name of the writer thread's bundle, next to the bundle (or module) that starts it. */
export const AUDIT_WORKER_FILE = 'auditWorker.js';

/** The writer thread's `workerData`. */
export interface WriterSetup {
  dir: string;
  rotateBytes: number;
  commitDelayMs?: number;
  /** Index of the file to append to (segments.ts), its size, and the last record of the chain. */
  segment: number;
  size: number;
  head: ChainLink;
  openFile?: SegmentFileOpenerModule;
}

/** AuditLog → writer thread. */
export type ToWriter =
  /** Complete, redacted events in append order, each as the three strings of chain.ts's recordParts. */
  | { type: 'append'; parts: string[] }
  /** Write what is pending, close the file, answer `closed`. */
  | { type: 'close' };

export interface WireError {
  code: AuditErrorCode;
  message: string;
}

/** Writer thread → AuditLog. */
export type FromWriter =
  /** The thread is running and has taken over the files. */
  | { type: 'ready' }
  /**
   * The events `ids` are on disk in the file `segment`, as the records numbered `seq`, `seq + 1`, …,
   * the first chained to `prevHash`, with the hashes `hashes`.
   */
  | {
      type: 'durable';
      segment: number;
      ids: number[];
      seq: number;
      prevHash: string;
      hashes: string[];
    }
  /**
   * The events `ids` are not in the log. With `failed`, a write failed and these are all the events it
   * took down (the log reports the failure); `broken`, when nothing more can be written, says why.
   */
  | { type: 'rejected'; ids: number[]; error: WireError; failed?: { broken?: WireError } }
  /** Everything sent before `close` is settled and the file is closed (or `error` says why it could not be). */
  | { type: 'closed'; error?: WireError };
