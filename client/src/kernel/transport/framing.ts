// Framing of JSON-RPC messages on a byte stream (pure: no I/O). Two framings are in use by MCP servers over stdio:
// - newline: one JSON text per line (the MCP specification, and the official SDKs);
// - content-length: LSP-style `Content-Length: N\r\n\r\n` then N bytes of UTF-8 JSON (OpenFang's `openfang mcp`).
// The decoder takes chunks split anywhere (inside a header, a body or a multibyte character), can detect the
// framing from the first non-whitespace bytes, and survives bad input: an oversized or unparsable message
// yields an error result and decoding carries on with the next message.

export type Framing = 'newline' | 'content-length';
export type FramingMode = 'auto' | Framing;
/** How to write: one framing, or `dual`, readable by both kinds of reader (see `encodeDual`). */
export type SendFraming = Framing | 'dual';

export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Longest header line accepted in content-length framing; real ones are a few dozen bytes. */
export const MAX_HEADER_LINE_BYTES = 8 * 1024;

export type FramingErrorKind = 'oversized' | 'invalid-json' | 'invalid-header';

export class FramingError extends Error {
  /** For an oversized response: its JSON-RPC id, when the skipped bytes showed it. */
  requestId?: string | number;

  constructor(
    readonly kind: FramingErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'FramingError';
  }
}

const SAMPLE_BYTES = 256;
const HEAD_ID = /^\s*\{(?:[^{}"]|"(?:[^"\\]|\\.)*")*?"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/;
const TAIL_ID = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*\}\s*$/;

/** The first and last bytes of a message too big to keep: enough to find its id and fail that one request. */
class OversizeSample {
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  bytes = 0;

  add(part: Buffer): void {
    this.bytes += part.length;
    if (this.head.length < SAMPLE_BYTES)
      this.head = Buffer.concat([this.head, part.subarray(0, SAMPLE_BYTES - this.head.length)]);
    this.tail = Buffer.concat([this.tail, part.subarray(Math.max(0, part.length - SAMPLE_BYTES))]);
    if (this.tail.length > SAMPLE_BYTES)
      this.tail = this.tail.subarray(this.tail.length - SAMPLE_BYTES);
  }

  /** The top-level `"id"` of the message, first or last key (SDKs put it either way). */
  id(): string | number | undefined {
    const match =
      HEAD_ID.exec(this.head.toString('latin1')) ??
      TAIL_ID.exec(this.tail.toString('latin1').replace(/\r$/, ''));
    if (!match) return undefined;
    try {
      return JSON.parse(match[1]) as string | number;
    } catch {
      return undefined;
    }
  }
}

export type Decoded =
  { message: unknown; error?: undefined } | { message?: undefined; error: FramingError };

export interface DecoderOptions {
  /** 'auto' (the default) decides from the first non-whitespace bytes and then keeps that framing. */
  framing?: FramingMode;
  /** Largest message body accepted, in bytes; larger ones are skipped with an error. Default 10 MB. */
  maxMessageBytes?: number;
}

type State =
  | { kind: 'detect' }
  | { kind: 'line' } // a JSON line (newline) or a header line (content-length)
  | { kind: 'discard'; sample?: OversizeSample } // dropping the rest of an overlong line (a message, or a header line)
  | { kind: 'body'; length: number }
  | { kind: 'skip'; remaining: number; sample: OversizeSample; length: number }; // the body of an oversized message

interface HeaderBlock {
  lines: number;
  length?: number;
  problem?: string;
}

const LF = 0x0a;
const CR = 0x0d;
const LINE: State = { kind: 'line' };
const DETECTABLE_HEADERS = ['content-length:', 'content-type:'];
const utf8 = new TextDecoder('utf-8', { fatal: true });

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === LF || byte === CR;
}

function preview(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/**
 * The framing that `head` (starting at a non-whitespace byte) shows, or undefined while too few bytes have
 * arrived to tell. A `{` or `[` starts a JSON line; `Content-Length:` (or LSP's other header, `Content-Type:`),
 * in any case, starts a header block. Anything else is read as newline framing: the line then fails as JSON
 * with an error, and the next line is read normally.
 */
export function detectFraming(head: Uint8Array): Framing | undefined {
  if (head.length === 0) return undefined;
  if (head[0] === 0x7b || head[0] === 0x5b) return 'newline';
  const start = Buffer.from(head.subarray(0, 15)).toString('latin1').toLowerCase();
  for (const header of DETECTABLE_HEADERS) {
    if (start.startsWith(header)) return 'content-length';
    if (header.startsWith(start)) return undefined;
  }
  return 'newline';
}

/** Incremental decoder: `push` bytes as they arrive, then call `next` until it returns undefined. */
export class MessageDecoder {
  private readonly maxBytes: number;
  private mode: Framing | undefined;
  private state: State;
  private parts: Buffer[] = [];
  private partBytes = 0;
  private block: HeaderBlock = { lines: 0 };
  private readonly results: Decoded[] = [];

  constructor(options: DecoderOptions = {}) {
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const framing = options.framing ?? 'auto';
    this.mode = framing === 'auto' ? undefined : framing;
    this.state = this.mode ? LINE : { kind: 'detect' };
  }

  /** The framing in use: the forced one, or the detected one; undefined while still detecting. */
  get framing(): Framing | undefined {
    return this.mode;
  }

  /** Feeds bytes. The decoder keeps references to (parts of) the chunks until their message is complete. */
  push(chunk: Uint8Array): void {
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let offset = 0;
    while (offset < bytes.length) offset = this.step(bytes, offset);
  }

  /** The next decoded message or error, in stream order. */
  next(): Decoded | undefined {
    return this.results.shift();
  }

  private step(bytes: Buffer, offset: number): number {
    const state = this.state;
    switch (state.kind) {
      case 'detect':
        return this.detect(bytes, offset);
      case 'line':
        return this.collectLine(bytes, offset);
      case 'discard': {
        const newline = bytes.indexOf(LF, offset);
        state.sample?.add(bytes.subarray(offset, newline === -1 ? bytes.length : newline));
        if (newline === -1) return bytes.length;
        this.state = LINE;
        if (state.sample)
          this.oversized(
            state.sample,
            `message of ${state.sample.bytes} bytes exceeds the maximum of ${this.maxBytes} bytes; skipped`,
          );
        return newline + 1;
      }
      case 'body':
        return this.collectBody(bytes, offset, state.length);
      case 'skip': {
        const take = Math.min(state.remaining, bytes.length - offset);
        state.sample.add(bytes.subarray(offset, offset + take));
        if (state.remaining === take) {
          this.state = LINE;
          this.oversized(
            state.sample,
            `message of ${state.length} bytes exceeds the maximum of ${this.maxBytes} bytes; skipped`,
          );
        } else {
          this.state = { ...state, remaining: state.remaining - take };
        }
        return offset + take;
      }
    }
  }

  private detect(bytes: Buffer, offset: number): number {
    let start = offset;
    if (this.partBytes === 0) while (start < bytes.length && isWhitespace(bytes[start])) start++;
    if (start === bytes.length) return start;
    const head = Buffer.concat([...this.parts, bytes.subarray(start)]);
    this.parts = [];
    this.partBytes = 0;
    const framing = detectFraming(head);
    if (!framing) {
      this.keep(head);
      return bytes.length;
    }
    this.mode = framing;
    this.state = LINE;
    this.push(head);
    return bytes.length;
  }

  private collectLine(bytes: Buffer, offset: number): number {
    const newline = bytes.indexOf(LF, offset);
    const end = newline === -1 ? bytes.length : newline;
    // One byte more than the content allows, for a `\r` before the `\n`.
    const limit = (this.mode === 'content-length' ? MAX_HEADER_LINE_BYTES : this.maxBytes) + 1;
    if (this.partBytes + (end - offset) > limit) {
      const kept = this.take();
      if (this.mode === 'content-length') {
        this.headerTooLong();
        if (newline === -1) this.state = { kind: 'discard' };
        return newline === -1 ? bytes.length : newline + 1;
      }
      const sample = new OversizeSample();
      sample.add(kept);
      sample.add(bytes.subarray(offset, end));
      if (newline === -1) {
        this.state = { kind: 'discard', sample };
        return bytes.length;
      }
      this.oversized(
        sample,
        `message of ${sample.bytes} bytes exceeds the maximum of ${this.maxBytes} bytes; skipped`,
      );
      return newline + 1;
    }
    this.keep(bytes.subarray(offset, end));
    if (newline === -1) return bytes.length;
    let line = this.take();
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    if (this.mode === 'content-length') this.headerLine(line);
    else this.jsonLine(line);
    return newline + 1;
  }

  private headerTooLong(): void {
    this.block = { lines: 0 };
    this.fail('invalid-header', `header line longer than ${MAX_HEADER_LINE_BYTES} bytes; skipped`);
  }

  private oversized(sample: OversizeSample, message: string): void {
    const error = new FramingError('oversized', message);
    error.requestId = sample.id();
    this.results.push({ error });
  }

  private jsonLine(line: Buffer): void {
    if (line.every(isWhitespace)) return;
    if (line.length > this.maxBytes) {
      this.fail(
        'oversized',
        `message of ${line.length} bytes exceeds the maximum of ${this.maxBytes} bytes; skipped`,
      );
      return;
    }
    this.parse(line);
  }

  private headerLine(line: Buffer): void {
    const text = line.toString('latin1').trim();
    if (!text) {
      // Blank lines between messages are tolerated; after headers, a blank line ends the block.
      if (this.block.lines > 0) this.endHeaders();
      return;
    }
    const header = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]*:[ \t]*(.*)$/.exec(text);
    if (!header) {
      this.fail(
        'invalid-header',
        `expected a header such as Content-Length, got ${preview(text)}; line skipped`,
      );
      return;
    }
    this.block.lines++;
    if (header[1].toLowerCase() !== 'content-length') return; // Content-Type and others: accepted, ignored
    const length = /^\d+$/.test(header[2]) ? Number(header[2]) : NaN;
    if (Number.isSafeInteger(length)) this.block.length = length;
    else this.block.problem ??= `invalid Content-Length ${preview(header[2])}`;
  }

  private endHeaders(): void {
    const { length, problem } = this.block;
    this.block = { lines: 0 };
    if (problem !== undefined || length === undefined) {
      this.fail(
        'invalid-header',
        `${problem ?? 'header block without Content-Length'}; message skipped`,
      );
    } else if (length > this.maxBytes) {
      this.state = { kind: 'skip', remaining: length, sample: new OversizeSample(), length };
    } else if (length === 0) {
      this.fail('invalid-json', 'invalid JSON: empty message body');
    } else {
      this.state = { kind: 'body', length };
    }
  }

  private collectBody(bytes: Buffer, offset: number, length: number): number {
    const take = Math.min(length - this.partBytes, bytes.length - offset);
    this.keep(bytes.subarray(offset, offset + take));
    if (this.partBytes === length) {
      this.state = LINE;
      this.parse(this.take());
    }
    return offset + take;
  }

  private parse(bytes: Buffer): void {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      this.fail('invalid-json', 'message is not valid UTF-8; skipped');
      return;
    }
    try {
      this.results.push({ message: JSON.parse(text) });
    } catch (error) {
      this.fail(
        'invalid-json',
        `invalid JSON (${error instanceof Error ? error.message : String(error)}); skipped`,
      );
    }
  }

  private fail(kind: FramingErrorKind, message: string): void {
    this.results.push({ error: new FramingError(kind, message) });
  }

  private keep(part: Buffer): void {
    if (part.length === 0) return;
    this.parts.push(part);
    this.partBytes += part.length;
  }

  private take(): Buffer {
    const whole = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    this.parts = [];
    this.partBytes = 0;
    return whole;
  }
}

function serialize(message: unknown): string {
  const json = JSON.stringify(message);
  if (json === undefined) throw new TypeError('message is not serializable as JSON');
  return json;
}

/** `Content-Length: N\r\n\r\n` and the N bytes of the message's UTF-8 JSON. */
export function encodeContentLength(message: unknown): Buffer {
  const body = Buffer.from(serialize(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'latin1'), body]);
}

/** The message's JSON on one line. JSON.stringify escapes control characters, so the text holds no newline. */
export function encodeNewline(message: unknown): Buffer {
  return Buffer.from(`${serialize(message)}\n`, 'utf8');
}

/**
 * Content-length framing whose body ends with `\n`, counted in the length: JSON allows whitespace after the
 * value, so a content-length reader gets exactly one message; a newline reader sees two non-JSON lines (the
 * header and the blank line, which the official SDKs report and skip) and then the JSON line.
 */
export function encodeDual(message: unknown): Buffer {
  const body = Buffer.from(`${serialize(message)}\n`, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'latin1'), body]);
}

export function encodeMessage(message: unknown, framing: SendFraming): Buffer {
  if (framing === 'content-length') return encodeContentLength(message);
  return framing === 'dual' ? encodeDual(message) : encodeNewline(message);
}
