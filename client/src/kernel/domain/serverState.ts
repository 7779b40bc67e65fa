/** Server states and the transitions MGP §11.2 allows. */
export type ServerState =
  'registered' | 'connecting' | 'connected' | 'draining' | 'disconnected' | 'error' | 'restarting';

const ALLOWED: Record<ServerState, readonly ServerState[]> = {
  registered: ['connecting', 'disconnected'],
  connecting: ['connected', 'error', 'disconnected', 'restarting'],
  connected: ['draining', 'error', 'restarting', 'disconnected'],
  draining: ['disconnected', 'restarting', 'error'],
  disconnected: ['connecting', 'restarting'],
  error: ['restarting', 'connecting', 'disconnected'],
  restarting: ['connecting', 'error', 'disconnected'],
};

export function canTransition(from: ServerState, to: ServerState): boolean {
  return ALLOWED[from].includes(to);
}

/** The payload of `notifications/mgp.lifecycle` (MGP §11.5), also published on the kernel's event bus. */
export interface LifecycleTransition {
  server_id: string;
  previous_state: ServerState;
  new_state: ServerState;
  reason: string;
  timestamp: string;
  /** Why it failed, for `error` (and restarts after a failure). */
  error?: string;
}
