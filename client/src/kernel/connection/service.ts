import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { Authorizations } from '../auth/authorizations';
import type { ConfiguredServer } from '../config/types';
import type { ClientRequestHandlers } from './clientFeatures';
import type { CappedResult, ServerConnection } from './serverConnection';
import type { ListedTool } from './toolResults';

/** What a kernel service sees of one server while it is connecting or connected. */
export interface ServerSession {
  readonly id: string;
  readonly config: ConfiguredServer;
  readonly connection: ServerConnection;
  log(level: string, message: string): void;
}

/** What a service learns of a request the server sent. */
export interface IncomingRequestContext {
  /** The JSON-RPC id the server gave it. */
  requestId: string | number;
  /** Aborted when the server cancels the request or the connection closes. */
  signal: AbortSignal;
}

/** A service's part in one tools/call. */
export interface ToolCallExtension {
  /** Added to the call's params (never over `name` or `arguments`). */
  params?: Record<string, unknown>;
  /** Told the result once the server answered; the call's caller waits for it. */
  done?(result: CappedResult): void | Promise<void>;
}

/**
 * A kernel service that extends the base protocol (MGP now, MCPL next): the connection itself knows
 * only base MCP, and each service adds the capabilities it offers at initialize and handles the
 * notifications of its methods, so the connection itself stays protocol-agnostic about extensions.
 */
export interface ConnectionService {
  /** Fields added to the client's capabilities at initialize. */
  capabilities?(server: ConfiguredServer): Record<string, unknown>;
  /** After initialize, before the server counts as connected; throwing fails the start. */
  connected?(session: ServerSession): Promise<void>;
  /** A notification base MCP does not handle; true when this service took it. */
  notification?(session: ServerSession, method: string, params: Record<string, unknown>): boolean;
  /**
   * A request from the server base MCP does not handle: the answer (a throw is the error sent
   * back, an McpError with its code), or undefined when this service does not take the method.
   */
  request?(
    session: ServerSession,
    method: string,
    params: Record<string, unknown>,
    context: IncomingRequestContext,
  ): Promise<Record<string, unknown>> | undefined;
  /**
   * A tools/call about to go to the server: fields to add to its params and what to do with its
   * result (MCPL §7.7, §8.4). Throwing refuses the call. Undefined: nothing to add.
   */
  toolCall?(
    serverId: string,
    tool: ListedTool | string,
    args: Record<string, unknown>,
  ): ToolCallExtension | Promise<ToolCallExtension | undefined> | undefined;
  /**
   * A request about to go to the server (initialize excepted): the service may add its fields to
   * `params` in place (MGP's trace id, §6.5), never change what base MCP put there.
   */
  outgoingRequest?(serverId: string, method: string, params: Record<string, unknown>): void;
  /** The server's connection is gone (stopped, crashed or replaced). */
  disconnected?(serverId: string): void;
}

export interface SessionEnvironment {
  services: readonly ConnectionService[];
  /** Handlers for the server's requests to the client (roots, sampling, elicitation). */
  clientHandlers(server: ConfiguredServer): ClientRequestHandlers;
  /** logging/setLevel sent after connecting. */
  logLevel: LoggingLevel;
  /** Whether to publish the protocol trace (every message) of a server on the bus now; asked per message. */
  trace(serverId: string): boolean;
  /** Resolved env and header values that are secrets (config/secretLike.ts): never in logs, audit events or views. */
  onSecrets?(values: string[]): void;
  /** OAuth for http and sse servers; none: a server that asks for a sign-in fails to start. */
  authorization?: Authorizations;
  /**
   * A server the kernel serves in its own process (an external A2A agent): the transport to connect
   * over, opened with its resolved headers; undefined for a server reached over its own transport.
   */
  inProcess?(
    server: ConfiguredServer,
    headers: Record<string, string>,
    log: (level: string, message: string) => void,
  ): Promise<Transport> | undefined;
}
