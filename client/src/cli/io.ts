import { visibleText } from '@shared/untrustedText';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Text without a line end (streamed output); stdout when left out. */
  write?(text: string): void;
  /**
   * Exported data, exactly (an audit export to stdout: a file must get the bytes the log holds);
   * `out` without its line end when left out.
   */
  data?(chunk: string): void;
}

/**
 * The CLI's output with every control, bidi and invisible character a server, a model or a file put
 * into it shown as a visible escape (shared/src/untrustedText.ts): nothing printed can move the
 * cursor, rewrite a line, recolour the terminal or reorder what is read. Exported data is left exact.
 */
export function visibleIo(io: Io): Io {
  const write = io.write ?? ((text: string) => void process.stdout.write(text));
  return {
    out: (text) => io.out(visibleText(text)),
    err: (text) => io.err(visibleText(text)),
    write: (text) => write(visibleText(text)),
    data: io.data ?? ((chunk) => io.out(chunk.replace(/\n$/, ''))),
  };
}

/** The process's own streams; exported data is made visible only when stdout is a terminal. */
export const processIo: Io = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  write: (text) => void process.stdout.write(text),
  data: (chunk) => void process.stdout.write(process.stdout.isTTY ? visibleText(chunk) : chunk),
};
