import { EventEmitter } from 'node:events';
import type { LifecycleTransition } from './lifecycle/states';

/** A kernel-level event (MGP §6.4 names), e.g. SERVER_DISCONNECTED with `restart_limit_exceeded`. */
export interface KernelEvent {
  type: 'SERVER_CONNECTED' | 'SERVER_DISCONNECTED';
  server_id: string;
  timestamp: string;
  detail?: Record<string, unknown>;
}

export interface ServerLogLine {
  server_id: string;
  level: string;
  message: string;
}

export interface KernelEventMap {
  transition: [LifecycleTransition];
  event: [KernelEvent];
  log: [ServerLogLine];
  toolsChanged: [{ server_id: string }];
}

/** The kernel's event bus: views and the audit trail listen; they never reach into connections. */
export class KernelBus extends EventEmitter<KernelEventMap> {}
