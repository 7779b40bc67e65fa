export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Text without a line end (streamed output); stdout when left out. */
  write?(text: string): void;
}
