/**
 * Log file openers that inject faults, named by module (`faultyOpener`) so that the log's writer
 * thread can load them too (AuditLogOptions.openFile).
 */
import { readSync, writeSync } from 'node:fs';
import {
  openSegmentFile,
  SegmentFileOpener,
  SegmentFileOpenerModule,
} from '../../../client/src/kernel/audit/segmentFile';

/** Files whose `failOn`-th write writes half its data and then fails with `code` (and whose truncate fails too, with `truncateFails`). */
export function faultyFiles(
  failOn: number,
  code: string,
  options: { truncateFails?: boolean } = {},
): SegmentFileOpener {
  let writes = 0;
  return async (path) => {
    const file = await openSegmentFile(path);
    return {
      ...file,
      async write(data) {
        if (++writes !== failOn) return file.write(data);
        await file.write(data.subarray(0, Math.floor(data.length / 2)));
        throw Object.assign(new Error(`${code}: simulated failure, write`), { code });
      },
      truncate: (size) =>
        options.truncateFails ? Promise.reject(new Error('EIO: simulated')) : file.truncate(size),
    };
  };
}

/** Files where writing is slow (`delayMs` per write): appends pile up behind a write in flight. */
export function slowFiles(delayMs: number): SegmentFileOpener {
  return async (path) => {
    const file = await openSegmentFile(path);
    return {
      ...file,
      write: async (data) => (
        await new Promise((resolve) => setTimeout(resolve, delayMs)),
        file.write(data)
      ),
    };
  };
}

/** Files whose `crashOn`-th write ends the thread writing them (an uncaught error) before writing anything. */
export function crashingFiles(crashOn: number): SegmentFileOpener {
  let writes = 0;
  return async (path) => {
    const file = await openSegmentFile(path);
    return {
      ...file,
      async write(data) {
        if (++writes === crashOn) {
          setImmediate(() => {
            throw new Error('simulated crash of the writing thread');
          });
          return new Promise<void>(() => undefined); // never completes
        }
        return file.write(data);
      },
    };
  };
}

/**
 * Files whose writes are split in two, mid-line, with "half" written to stdout (synchronously, from
 * whichever thread writes) and a pause between: a process killed then leaves a torn line on disk.
 */
export function splitWrites(): SegmentFileOpener {
  return async (path) => {
    const file = await openSegmentFile(path);
    return {
      ...file,
      async write(data) {
        let half = Math.floor(data.length / 2);
        if (data[half - 1] === 0x0a) half--; // always mid-line
        await file.write(data.subarray(0, half));
        writeSync(1, 'half\n');
        awaitGoAhead();
        await file.write(data.subarray(half));
      },
    };
  };
}

/**
 * Blocks this thread until the parent process writes a line to stdin: it answers each "half" with
 * "go" or with SIGKILL, so the kill lands mid-line however loaded the machine is.
 */
function awaitGoAhead(): void {
  const byte = Buffer.alloc(1);
  const nap = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      if (readSync(0, byte, 0, 1, null) === 0) throw new Error('stdin closed: no go-ahead');
      if (byte[0] === 0x0a) return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(nap, 0, 0, 1);
    }
  }
}

/** The spec that names one of the openers above, for `AuditLogOptions.openFile`. */
export function faultyOpener(
  factory: 'faultyFiles' | 'slowFiles' | 'crashingFiles' | 'splitWrites',
  ...args: unknown[]
): SegmentFileOpenerModule {
  return { module: __filename, factory, args };
}
