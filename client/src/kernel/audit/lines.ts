/** Reading a log file line by line, by byte offset, forwards and backwards. */
import { open } from 'node:fs/promises';

const NEWLINE = 0x0a;
const CHUNK = 1 << 16;

export interface FileLine {
  /** The line's text, without its newline. */
  text: string;
  /** 1-based. */
  number: number;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Byte offset just after the line's newline (or its last byte when incomplete). */
  end: number;
  /** False for a last line with no newline after it (a write in progress, or a torn one). */
  complete: boolean;
}

/** Every line of `path` from byte `from` on (line numbers count from `firstNumber`). */
export async function* readLines(
  path: string,
  from = 0,
  firstNumber = 1,
): AsyncGenerator<FileLine> {
  const handle = await open(path, 'r');
  try {
    let carry = Buffer.alloc(0);
    let offset = from;
    let number = firstNumber;
    let position = from;
    const chunk = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const data = carry.length
        ? Buffer.concat([carry, chunk.subarray(0, bytesRead)])
        : chunk.subarray(0, bytesRead);
      let start = 0;
      for (let end = data.indexOf(NEWLINE); end !== -1; end = data.indexOf(NEWLINE, start)) {
        const next = offset + end + 1 - start;
        yield {
          text: data.toString('utf8', start, end),
          number: number++,
          offset,
          end: next,
          complete: true,
        };
        offset = next;
        start = end + 1;
      }
      carry = Buffer.from(data.subarray(start));
    }
    if (carry.length)
      yield {
        text: carry.toString('utf8'),
        number,
        offset,
        end: offset + carry.length,
        complete: false,
      };
  } finally {
    await handle.close();
  }
}

/** The first complete line of `path`, or undefined when it has none. */
export async function firstCompleteLine(path: string): Promise<string | undefined> {
  for await (const line of readLines(path)) return line.complete ? line.text : undefined;
  return undefined;
}

export interface TailScan {
  size: number;
  /** Where the good part of the file ends: after the newline of its last complete line. */
  goodEnd: number;
  /** The last complete line, if any. */
  last?: string;
}

/**
 * Finds the end of the last complete line, reading backwards. A line of NUL bytes or blanks at the
 * very end counts as torn too: a file system can leave zeros after a crash, and the log never writes
 * such a line.
 */
export async function scanTail(path: string): Promise<TailScan> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    let buffer = Buffer.alloc(0);
    let bufferStart = size; // the buffer holds bytes [bufferStart, size)
    const readMore = async (): Promise<boolean> => {
      if (bufferStart === 0) return false;
      const length = Math.min(CHUNK, bufferStart);
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, bufferStart - length);
      buffer = Buffer.concat([chunk, buffer]);
      bufferStart -= length;
      return true;
    };
    /** The absolute offset of the last newline before `end`, or -1. */
    const newlineBefore = async (end: number): Promise<number> => {
      for (;;) {
        const at = end > bufferStart ? buffer.lastIndexOf(NEWLINE, end - bufferStart - 1) : -1;
        if (at !== -1) return bufferStart + at;
        if (!(await readMore())) return -1;
      }
    };
    for (let end = size; ;) {
      const newline = await newlineBefore(end);
      if (newline === -1) return { size, goodEnd: 0 };
      const lineStart = (await newlineBefore(newline)) + 1;
      const text = buffer.toString('utf8', lineStart - bufferStart, newline - bufferStart);
      if (text.trim() !== '' && !text.includes('\0'))
        return { size, goodEnd: newline + 1, last: text };
      end = lineStart;
    }
  } finally {
    await handle.close();
  }
}
