import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MGP_KERNEL_VERSION } from '@shared/version';
import type { ConfiguredServer } from '../config/types';
import {
  baseClientCapabilities,
  ClientRequestHandlers,
  ConnectionHooks,
  registerClientFeatures,
} from './clientFeatures';
import { ClientTaskStore } from './clientTasks';
import { ObservedTransport } from './observedTransport';
import { CallClock } from './callClock';
import type { ConnectDeadline } from './connectDeadline';
import type { ProcessLaunch } from './transports';

export interface OpenOptions {
  hooks: ConnectionHooks;
  handlers: ClientRequestHandlers;
  /** Capabilities the kernel's extensions add at initialize (e.g. `mgp`, MGP §2.2). */
  extraCapabilities?: Record<string, unknown>;
  /** Each request the kernel sends after initialize, before it leaves: extensions add their fields. */
  outgoingRequest?(method: string, params: Record<string, unknown>): void;
  /** Each message both ways, for the protocol trace. */
  trace?(direction: 'send' | 'receive', message: JSONRPCMessage): void;
  /** OAuth for http and sse servers (MCP 2025-11-25, Authorization); none: a 401 is an error. */
  authorization?: OAuthClientProvider;
  /** How a stdio server's process is started, when not as configured (inside its sandbox). */
  launch?: ProcessLaunch;
  /** A server the kernel serves itself (an external A2A agent): connected to over this, not its transport. */
  inProcess?: Transport;
}

/** What the session tells the connection built on it, once that exists. */
export interface SessionEvents {
  /** A request (initialize excepted) left with these params and this JSON-RPC id. */
  requestSent(params: unknown, id: RequestId): void;
  /** The transport closed, after the session's own clean-up. */
  closed(): void;
}

export interface Session {
  client: Client;
  transport: ObservedTransport;
  clock: CallClock;
  /** The server's capabilities exactly as sent, extension fields (`mgp`) included. */
  rawCapabilities: Record<string, unknown>;
}

const LooseInitializeResult = z.looseObject({ capabilities: z.looseObject({}).optional() });

/**
 * Initialize over an open transport (MCP 2025-11-25, Lifecycle: initialization), within the
 * connect deadline when there is one, keeping the raw capabilities the SDK would strip.
 */
export async function handshake(
  server: ConfiguredServer,
  inner: Transport,
  options: OpenOptions,
  deadline: ConnectDeadline | undefined,
  events: SessionEvents,
): Promise<Session> {
  let initializeId: RequestId | undefined;
  let rawCapabilities: Record<string, unknown> = {};
  const transport = new ObservedTransport(inner, {
    outgoing: (message) => {
      if ('method' in message && 'id' in message) {
        if (message.method === 'initialize') initializeId = message.id;
        else if (options.outgoingRequest)
          options.outgoingRequest(message.method, (message.params ??= {}));
      }
      options.trace?.('send', message);
      if ('method' in message && 'id' in message) events.requestSent(message.params, message.id);
    },
    incoming: (message) => {
      options.trace?.('receive', message);
      if ('result' in message && message.id === initializeId && initializeId !== undefined) {
        const parsed = LooseInitializeResult.safeParse(message.result);
        if (parsed.success)
          rawCapabilities = (parsed.data.capabilities ?? {}) as Record<string, unknown>;
      }
    },
    lateProgress: (message) =>
      options.hooks.onLog(
        'debug',
        `a progress notification came after its request had finished: ignored (${JSON.stringify(message).slice(0, 200)})`,
      ),
  });
  const capabilities = { ...baseClientCapabilities(), ...options.extraCapabilities };
  const taskStore = new ClientTaskStore();
  const client = new Client(
    { name: 'mgp-kernel', title: 'MGP Kernel', version: MGP_KERNEL_VERSION },
    { capabilities, taskStore },
  );
  const clock = new CallClock();
  registerClientFeatures(client, options.handlers, options.hooks, { tasks: taskStore, clock });
  transport.dispatchTo(client);
  const previousClose = transport.onclose;
  await client
    .connect(
      transport,
      deadline
        ? { signal: deadline.signal, timeout: deadline.capMs }
        : { timeout: server.settings.connectTimeoutMs },
    )
    .catch((error: unknown) => {
      // The SDK wraps an abort's reason in a timeout error of its own; the deadline's says why.
      throw deadline?.signal.aborted ? deadline.signal.reason : error;
    });
  const closeHandler = transport.onclose ?? previousClose;
  transport.onclose = () => {
    taskStore.close();
    closeHandler?.();
    events.closed();
  };
  return { client, transport, clock, rawCapabilities };
}
