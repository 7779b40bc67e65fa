import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { Authorizations } from '../auth/authorizations';
import type { ConfiguredServer } from '../config/model';
import type { ClientRequestHandlers } from './clientFeatures';
import type { ServerConnection } from './serverConnection';

/** What a kernel service sees of one server while it is connecting or connected. */
export interface ServerSession {
  readonly id: string;
  readonly config: ConfiguredServer;
  readonly connection: ServerConnection;
  log(level: string, message: string): void;
}

/**
 * A kernel service that extends the base protocol (MGP now, MCPL next): the connection itself knows
 * only base MCP, and each service adds the capabilities it offers at initialize and handles the
 * notifications of its methods (DESIGN.md, "A connection is protocol-agnostic about extensions").
 */
export interface ConnectionService {
  /** Fields added to the client's capabilities at initialize. */
  capabilities?(server: ConfiguredServer): Record<string, unknown>;
  /** After initialize, before the server counts as connected; throwing fails the start. */
  connected?(session: ServerSession): Promise<void>;
  /** A notification base MCP does not handle; true when this service took it. */
  notification?(session: ServerSession, method: string, params: Record<string, unknown>): boolean;
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
}
