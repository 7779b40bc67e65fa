import { EventEmitter } from 'node:events';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ListKind } from '../connection/clientFeatures';
import type { StartProgress } from '../connection/connectDeadline';
import type { LifecycleTransition } from '../domain/serverState';

/**
 * A server-level kernel event (MGP §6.4 names, and the kernel's own `dev.mgp-kernel.server_blocked`: a start the
 * managed policy refused); the audit service records them.
 */
export interface KernelEvent {
  type: 'SERVER_CONNECTED' | 'SERVER_DISCONNECTED' | 'dev.mgp-kernel.server_blocked';
  server_id: string;
  timestamp: string;
  detail?: Record<string, unknown>;
}

export interface ServerLogLine {
  server_id: string;
  level: string;
  message: string;
}

export interface TraceLine {
  server_id: string;
  direction: 'send' | 'receive';
  message: JSONRPCMessage;
}

export interface KernelEventMap {
  transition: [LifecycleTransition];
  event: [KernelEvent];
  log: [ServerLogLine];
  trace: [TraceLine];
  listChanged: [{ server_id: string; kind: ListKind }];
  resourceUpdated: [{ server_id: string; uri: string }];
  /** A server still connecting worked through a period of connect_timeout_secs: it waits longer. */
  starting: [{ server_id: string; progress: StartProgress }];
  /** Servers were added or removed, or held back by the start gate: `server_ids` are those concerned. */
  servers: [{ server_ids: string[] }];
}

/** The kernel's event bus: views and the audit trail listen; they never reach into connections. */
export class KernelBus extends EventEmitter<KernelEventMap> {}
