import {
  KernelError,
  refusedBy,
  SERVER_DRAINING,
  SERVER_NOT_READY,
  SERVER_RESTARTING,
} from '../domain/errors';
import type { ServerState } from '../domain/serverState';

/**
 * The MGP §14.3 lifecycle error a caller should see for a server in `state` that has no live
 * connection to take the request; undefined when it can take it. A server held back by the start
 * gate, or blocked by the managed policy, is a refusal, not a fault.
 */
export function unusableError(
  id: string,
  state: ServerState,
  connected: boolean,
  lastError: string | undefined,
  heldBack?: string,
  blockedByPolicy?: string,
): KernelError | undefined {
  if (blockedByPolicy !== undefined)
    return refusedBy(
      'managed_policy',
      new KernelError('StartRefused', `${id} is not started: ${blockedByPolicy}`, SERVER_NOT_READY),
    );
  if (heldBack !== undefined && state !== 'connected')
    return refusedBy(
      'launch_approval',
      new KernelError('StartRefused', `${id} is not started: ${heldBack}`, SERVER_NOT_READY),
    );
  if (state === 'draining')
    return new KernelError(
      'ServerDraining',
      `${id} is shutting down and takes no new requests`,
      SERVER_DRAINING,
    );
  if (state === 'restarting')
    return new KernelError('NotConnected', `${id} is restarting`, SERVER_RESTARTING);
  if (state !== 'connected' || !connected)
    return new KernelError(
      'NotConnected',
      `${id} is ${state}${lastError ? `: ${lastError}` : ''}`,
      SERVER_NOT_READY,
    );
  return undefined;
}
