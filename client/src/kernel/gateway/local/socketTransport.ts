/**
 * An MCP transport over a local socket: newline-delimited JSON-RPC, as on stdio (MCP "stdio"
 * framing), so a message crosses the socket exactly as it would cross a pipe.
 */
import type { Socket } from 'node:net';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private closed = false;

  /** `pending`: bytes already read from the socket (after the attach handshake). */
  constructor(
    private readonly socket: Socket,
    private readonly pending?: Buffer,
  ) {}

  start(): Promise<void> {
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    this.socket.on('error', (error) => this.onerror?.(error));
    this.socket.on('close', () => this.ended());
    if (this.pending?.length) this.receive(this.pending);
    if (this.socket.destroyed) this.ended();
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.socket.destroyed) return reject(new Error('the local socket is closed'));
      this.socket.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  close(): Promise<void> {
    this.socket.end();
    this.socket.destroy();
    this.ended();
    return Promise.resolve();
  }

  private receive(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      // A line past the buffer's limit (10 MB): the peer is not speaking MCP; drop it.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
