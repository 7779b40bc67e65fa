// An MCP client transport over a child process's stdio that speaks both framings: newline-delimited JSON
// (the MCP specification) and LSP-style Content-Length headers (OpenFang's `openfang mcp`), configured or
// detected from the server's first bytes. The contract follows the SDK's StdioClientTransport.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  MessageDecoder,
  encodeMessage,
  type Framing,
  type FramingMode,
  type SendFraming,
} from './framing';
import { forgetGroup, OWN_PROCESS_GROUP, rememberGroup, signalGroup } from './processGroups';
import { plainKind } from './jsonRpcShape';

export interface FramedStdioOptions {
  command: string;
  args?: string[];
  /** The whole environment of the process (OpenFang's env_clear rule: nothing else is inherited). */
  env?: Record<string, string>;
  cwd?: string;
  /** How the server frames what it writes: fixed, or 'auto' to detect it from the server's first bytes. */
  framing: FramingMode;
  /**
   * In 'auto' mode only: how to write until the server's first bytes show its framing (then that framing is
   * used). The client speaks first (`initialize`), so it has to guess. The default, 'dual', is a content-length
   * frame whose body ends in a newline counted in its length: a content-length reader (OpenFang included) gets
   * one well-formed message, and a newline reader gets two junk lines, which the official SDKs report and skip,
   * then the JSON line. Newline framing first would leave OpenFang waiting for headers forever, and plain
   * content-length first would leave a newline reader waiting for the end of the line. Choose 'newline' for a
   * newline server that gives up on a non-JSON line.
   */
  sendFraming?: SendFraming;
  /** Largest message accepted from the server, in bytes; default 10 MB. */
  maxMessageBytes?: number;
  /** Each line the server writes to stderr, without its line break. */
  onStderr?(line: string): void;
  /** Open files the process gets as fds 3, 4… (a sandbox's seccomp filter). */
  extraFds?: number[];
}

/** How long close() waits after ending stdin, and again after SIGTERM, before the next step. */
const GRACE_MS = 2000;
const MAX_STDERR_LINE = 64 * 1024;

/** Resolves true if `done` settles within `ms`, false otherwise; leaves no timer behind. */
function within(done: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void done.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Splits a byte stream into text lines, even when a chunk ends inside a line or a character. */
class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';

  constructor(private readonly emit: (line: string) => void) {}

  write(chunk: Buffer): void {
    const lines = (this.partial + this.decoder.write(chunk)).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.emit(line.replace(/\r$/, ''));
    if (this.partial.length > MAX_STDERR_LINE) this.flush();
  }

  flush(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest) this.emit(rest.replace(/\r$/, ''));
  }
}

export class FramedStdioClientTransport implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];

  private readonly decoder: MessageDecoder;
  private readonly stderrLines: LineSplitter;
  private sending: SendFraming;
  private awaitingDetection: boolean;
  private child?: ChildProcessWithoutNullStreams;
  private gone?: Promise<void>;
  private closing?: Promise<void>;
  private draining?: Promise<void>;
  private closed = false;

  constructor(private readonly options: FramedStdioOptions) {
    this.decoder = new MessageDecoder({
      framing: options.framing,
      maxMessageBytes: options.maxMessageBytes,
    });
    this.awaitingDetection = options.framing === 'auto';
    this.sending = options.framing === 'auto' ? (options.sendFraming ?? 'dual') : options.framing;
    this.stderrLines = new LineSplitter((line) => options.onStderr?.(line));
  }

  /** The spawned process's id (still given after close, so a caller can check that it is gone). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** The server's framing: the configured one, or the detected one (undefined until its first bytes). */
  get framing(): Framing | undefined {
    return this.decoder.framing;
  }

  async start(): Promise<void> {
    if (this.child)
      throw new Error(
        'FramedStdioClientTransport already started (Client.connect() calls start() itself)',
      );
    const { command, args = [], env, cwd, extraFds = [] } = this.options;
    const child = spawn(command, args, {
      env: env ?? {},
      cwd,
      stdio: ['pipe', 'pipe', 'pipe', ...extraFds],
      shell: false,
      windowsHide: true,
      detached: OWN_PROCESS_GROUP,
    }) as ChildProcessWithoutNullStreams;
    this.child = child;
    const { pid } = child;
    if (pid !== undefined) {
      rememberGroup(pid);
      // What the server started and left behind goes with it.
      child.once('exit', () => {
        signalGroup(pid, 'SIGKILL');
        forgetGroup(pid);
      });
    }
    // 'exit' when it ran; only 'close' when it could not be spawned.
    this.gone = new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.once('close', () => resolve());
    });
    this.listen(child);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) => reject(this.spawnError(error)));
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closing || this.closed || !stdin.writable) throw new Error('Not connected');
    const bytes = encodeMessage(message, this.sending);
    // Like the SDK's stdio transport: done once the pipe took the bytes, waiting only when it is full.
    // (Waiting for every write's callback costs an extra turn of the event loop per message.)
    if (stdin.write(bytes)) return;
    await this.drainOf(stdin);
  }

  /**
   * One wait for a full pipe, shared by every send that meets it: a flood of answers then adds one
   * listener of each kind, not one set per message.
   */
  private drainOf(stdin: ChildProcessWithoutNullStreams['stdin']): Promise<void> {
    this.draining ??= new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        stdin.off('drain', done);
        stdin.off('error', done);
        this.draining = undefined;
        if (error) reject(error);
        else resolve();
      };
      stdin.once('drain', done);
      stdin.once('error', done);
    });
    return this.draining;
  }

  /** Ends stdin, then after 2 s sends SIGTERM, then after 2 s more SIGKILL; resolves once the process is gone. */
  async close(): Promise<void> {
    if (!this.child) {
      this.finish();
      return;
    }
    this.closing ??= this.shutdown(this.child);
    return this.closing;
  }

  private listen(child: ChildProcessWithoutNullStreams): void {
    child.on('error', (error) => {
      if (child.pid !== undefined) this.onerror?.(error);
    });
    child.on('close', () => this.finish());
    child.stdin.on('error', (error) => {
      if (!this.closing && !this.closed) this.onerror?.(error);
    });
    child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    child.stdout.on('error', (error) => this.onerror?.(error));
    child.stderr.on('data', (chunk: Buffer) => this.stderrLines.write(chunk));
    child.stderr.on('error', () => undefined); // stderr is for logs only
  }

  private receive(chunk: Buffer): void {
    this.decoder.push(chunk);
    if (this.awaitingDetection && this.decoder.framing) {
      this.awaitingDetection = false;
      this.sending = this.decoder.framing;
    }
    for (let result = this.decoder.next(); result; result = this.decoder.next()) {
      if (result.error) {
        this.onerror?.(result.error);
        if (result.error.kind === 'oversized' && result.error.requestId !== undefined)
          this.failRequest(result.error.requestId, result.error.message);
        continue;
      }
      // A plain message is taken as it is; any other is judged by the SDK's schema (jsonRpcShape.ts).
      const parsed = plainKind(result.message)
        ? { success: true as const, data: result.message as JSONRPCMessage }
        : JSONRPCMessageSchema.safeParse(result.message);
      if (!parsed.success) {
        const issues = parsed.error.issues.map(
          (issue) => `${issue.path.join('.') || '(message)'}: ${issue.message}`,
        );
        this.onerror?.(
          new Error(`server sent a message that is not JSON-RPC 2.0 (${issues.join('; ')})`),
        );
        continue;
      }
      try {
        this.onmessage?.(parsed.data);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  /**
   * An answer too big to take still ends its request: the caller gets a clear error at once (MGP §14.3
   * 3001 RESOURCE_EXHAUSTED) instead of waiting out the timeout.
   */
  private failRequest(id: string | number, reason: string): void {
    try {
      this.onmessage?.({
        jsonrpc: '2.0',
        id,
        error: {
          code: 3001,
          message: `the server's response was refused: ${reason}`,
          data: { _mgp: { category: 'resource', retryable: false } },
        },
      });
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private spawnError(error: NodeJS.ErrnoException): Error {
    const { command, cwd } = this.options;
    let reason = error.message;
    // spawn says ENOENT for a missing command and for a missing working directory alike: the folder
    // is looked at to say which.
    if (error.code === 'ENOENT') {
      reason =
        cwd && !isDirectory(cwd)
          ? `its working directory ${cwd} does not exist (ENOENT)`
          : 'command not found (ENOENT)';
    }
    return new Error(`cannot start MCP server "${command}": ${reason}`, { cause: error });
  }

  private async shutdown(child: ChildProcessWithoutNullStreams): Promise<void> {
    const gone = this.gone ?? Promise.resolve();
    const running = () =>
      child.pid !== undefined && child.exitCode === null && child.signalCode === null;
    const pid = child.pid;
    if (running()) {
      child.stdin.end();
      if (!(await within(gone, GRACE_MS)) && running()) {
        if (pid !== undefined) signalGroup(pid, 'SIGTERM');
        if (!(await within(gone, GRACE_MS)) && running()) {
          if (pid !== undefined) signalGroup(pid, 'SIGKILL');
          await within(gone, GRACE_MS);
        }
      }
    }

    // A grandchild may still hold the pipes open; 'close' would then never come.
    child.stdout.destroy();
    child.stderr.destroy();
    child.stdin.destroy();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.stderrLines.flush();
    this.onclose?.();
  }
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
