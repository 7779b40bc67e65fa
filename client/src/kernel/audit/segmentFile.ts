/** The few file operations the writer needs, behind an interface so that tests can inject faults. */
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';

export interface SegmentFile {
  /** Appends all of `data` (the file is opened for appending). */
  write(data: Buffer): Promise<void>;
  /** Makes everything written so far durable (fdatasync: data and the size, which is what a reader needs). */
  sync(): Promise<void>;
  truncate(size: number): Promise<void>;
  close(): Promise<void>;
}

export type SegmentFileOpener = (path: string) => Promise<SegmentFile>;

export const openSegmentFile: SegmentFileOpener = async (path) => {
  const handle = await open(path, 'a', 0o600);
  return {
    async write(data) {
      for (let offset = 0; offset < data.length;) {
        const { bytesWritten } = await handle.write(data, offset, data.length - offset);
        offset += bytesWritten;
      }
    },
    sync: () => handle.datasync(),
    truncate: (size) => handle.truncate(size),
    close: () => handle.close(),
  };
};

/**
 * An opener named by where it is defined, so that the log's writer thread can load it too (a function
 * cannot be sent to another thread): `require(module)[factory](...args)` returns the opener. For tests
 * that inject faults.
 */
export interface SegmentFileOpenerModule {
  module: string;
  factory: string;
  args?: unknown[];
}

/** The opener `spec` stands for; `openSegmentFile` when none is given. */
export function loadOpener(
  spec: SegmentFileOpener | SegmentFileOpenerModule | undefined,
): SegmentFileOpener {
  if (spec === undefined) return openSegmentFile;
  if (typeof spec === 'function') return spec;
  // Not `require`: a bundler would try to resolve the module at build time.
  const exports = createRequire(__filename)(spec.module) as Record<
    string,
    (...args: unknown[]) => SegmentFileOpener
  >;
  if (typeof exports[spec.factory] !== 'function')
    throw new TypeError(`${spec.module} has no function ${spec.factory}`);
  return exports[spec.factory](...(spec.args ?? []));
}
