/** The few file operations the writer needs, behind an interface so that tests can inject faults. */
import { open } from 'node:fs/promises';

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
      for (let offset = 0; offset < data.length; ) {
        const { bytesWritten } = await handle.write(data, offset, data.length - offset);
        offset += bytesWritten;
      }
    },
    sync: () => handle.datasync(),
    truncate: (size) => handle.truncate(size),
    close: () => handle.close(),
  };
};
