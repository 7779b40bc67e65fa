/**
 * Following a delegated task to its end (OpenFang, Task Lifecycle): stream it when the card says the
 * agent streams, else poll it. It ends at a final state (completed, failed, canceled, rejected) or an
 * interrupted one (input-required, auth-required), which goes back to the caller: the kernel never
 * answers the agent on its own. A cancellation or the agent's deadline cancels the remote task.
 */
import { KernelError } from '../domain/errors';
import {
  INTERRUPTED_STATES,
  TERMINAL_STATES,
  type A2aPeer,
  type A2aTask,
  type OutgoingMessage,
} from './types';

/** How long the remote cancel may take once the delegation is over. */
const CANCEL_TIMEOUT_MS = 10_000;
const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 5_000;

export interface FollowOptions {
  /** The caller's: aborted when the call is cancelled. */
  signal: AbortSignal;
  /** The agent's `timeout_secs`, from sending to the end. */
  deadlineMs: number;
  /** Each state the task is seen in, as it changes. */
  onState?(task: A2aTask): void;
}

export interface Delegated {
  task: A2aTask;
  /** The deadline passed: the remote task was cancelled. */
  timedOut?: boolean;
}

export function isSettled(task: A2aTask): boolean {
  return TERMINAL_STATES.has(task.state) || INTERRUPTED_STATES.has(task.state);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function delegate(
  peer: A2aPeer,
  outgoing: OutgoingMessage,
  options: FollowOptions,
): Promise<Delegated> {
  const deadline = AbortSignal.timeout(options.deadlineMs);
  const signal = AbortSignal.any([options.signal, deadline]);
  let latest: A2aTask | undefined;
  let lastState: string | undefined;
  const seen = (task: A2aTask) => {
    latest = task;
    if (task.state !== lastState) {
      lastState = task.state;
      options.onState?.(task);
    }
  };
  try {
    const first =
      peer.card.streaming && peer.stream
        ? await peer.stream(outgoing, signal, seen)
        : await peer.send(outgoing, signal);
    seen(first);
    let task = first;
    for (
      let wait = FIRST_POLL_MS;
      !isSettled(task) && task.id;
      wait = Math.min(wait * 2, MAX_POLL_MS)
    ) {
      await pause(wait, signal);
      task = await peer.get(task.id, signal);
      seen(task);
    }
    return { task };
  } catch (error) {
    if (!signal.aborted) throw error;
    const cancelled = latest?.id ? await cancelQuietly(peer, latest.id) : undefined;
    if (options.signal.aborted)
      throw new KernelError(
        'Cancelled',
        latest?.id
          ? `cancelled; the agent's task ${latest.id} was cancelled too`
          : 'cancelled before the agent named a task',
      );
    const task = cancelled ?? latest;
    if (!task)
      throw new KernelError(
        'Timeout',
        `the agent named no task within ${Math.round(options.deadlineMs / 1000)} s`,
      );
    return { task, timedOut: true };
  }
}

/** Cancels the remote task; its state after, or undefined when the agent did not answer. */
async function cancelQuietly(peer: A2aPeer, taskId: string): Promise<A2aTask | undefined> {
  try {
    return await peer.cancel(taskId, AbortSignal.timeout(CANCEL_TIMEOUT_MS));
  } catch {
    return undefined;
  }
}
