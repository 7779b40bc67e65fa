import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * Lines from one readline over the input, handed out one per question. (A readline per question would
 * swallow answers typed ahead, or piped in, into the first one.)
 */
export class LineReader {
  private readonly lines: string[] = [];
  private readonly waiting: ((line: string) => void)[] = [];
  private reader: Interface | undefined;

  constructor(private readonly input: Readable) {}

  /** The next line; '' when the input ends or `signal` aborts (then no line is taken). */
  next(signal?: AbortSignal): Promise<string> {
    this.reader ??= this.open();
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (signal?.aborted) return Promise.resolve('');
    return new Promise((resolve) => {
      const waiter = (answer: string) => {
        signal?.removeEventListener('abort', cancel);
        resolve(answer);
      };
      // A question the kernel withdrew must not swallow the answer to the next one.
      const cancel = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve('');
      };
      signal?.addEventListener('abort', cancel, { once: true });
      this.waiting.push(waiter);
    });
  }

  private open(): Interface {
    const reader = createInterface({ input: this.input, terminal: false });
    reader.on('line', (line) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else this.lines.push(line);
    });
    reader.on('close', () => this.waiting.splice(0).forEach((resolve) => resolve('')));
    return reader;
  }

  close(): void {
    this.reader?.close();
  }
}
