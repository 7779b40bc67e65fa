/**
 * The `mgp serve` side of attaching (attachProtocol.ts): find the editor open on the folder, open a
 * session on its kernel, and relay a client's transport to it message by message.
 */
import { lstat, readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { GatewayMode } from '../toolListing';
import {
  descriptorPath,
  type EditorDescriptor,
  MAX_METRICS_BYTES,
  type MetricsText,
  readHandshake,
  writeLine,
} from './attachProtocol';
import { SocketTransport } from './socketTransport';

const ATTACH_MS = 5000;

/** The editor's `editor.json` in the workspace's state directory, when one is there and is ours. */
export async function findEditor(stateDir: string): Promise<EditorDescriptor | undefined> {
  const file = descriptorPath(stateDir);
  const stat = await lstat(file).catch(() => undefined);
  if (!stat?.isFile()) return undefined;
  if (process.getuid && stat.uid !== process.getuid()) return undefined;
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as Partial<EditorDescriptor>;
    if (typeof value.socket !== 'string' || typeof value.token !== 'string') return undefined;
    return value as EditorDescriptor;
  } catch {
    return undefined;
  }
}

/** Opens one MCP session on the editor's kernel; rejects when it is gone or refuses. */
export function openEditorSession(
  editor: EditorDescriptor,
  mode: GatewayMode,
): Promise<SocketTransport> {
  return new Promise((resolve, reject) => {
    const socket = connect(editor.socket);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.once('error', fail);
    socket.once('connect', () => {
      writeLine(socket, { token: editor.token, ...mode });
      readHandshake(socket, ATTACH_MS).then(({ line, rest }) => {
        const answer = line as { attached?: boolean; error?: string };
        if (answer?.attached !== true) return fail(new Error(answer?.error ?? 'refused'));
        socket.off('error', fail);
        resolve(new SocketTransport(socket, rest));
      }, fail);
    });
  });
}

/** The editor kernel's metrics, one scrape; rejects with the editor's reason when it refuses. */
export function readEditorMetrics(editor: EditorDescriptor): Promise<MetricsText> {
  return new Promise((resolve, reject) => {
    const socket = connect(editor.socket);
    const done = (error?: Error, metrics?: MetricsText) => {
      socket.destroy();
      if (error) reject(error);
      else resolve(metrics!);
    };
    socket.once('error', (error) => done(error));
    socket.once('connect', () => {
      writeLine(socket, { token: editor.token, metrics: true });
      readHandshake(socket, ATTACH_MS, MAX_METRICS_BYTES).then(({ line }) => {
        const answer = line as { metrics?: MetricsText; error?: string };
        if (typeof answer?.metrics?.body !== 'string')
          return done(new Error(answer?.error ?? 'the editor sent no metrics'));
        done(undefined, answer.metrics);
      }, done);
    });
  });
}

/** Passes every message between a client's transport and the editor's session, both ways. */
export async function relay(client: Transport, editor: Transport): Promise<void> {
  const send = (to: Transport) => (message: Parameters<Transport['send']>[0]) =>
    void to.send(message).catch(() => void to.close());
  client.onmessage = send(editor);
  editor.onmessage = send(client);
  client.onclose = () => void editor.close();
  editor.onclose = () => void client.close();
  await editor.start();
  await client.start();
}
