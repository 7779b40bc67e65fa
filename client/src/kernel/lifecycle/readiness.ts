/**
 * Which servers a listing lacks, and why: a listing of the kernel's tools (the CLI's, the
 * gateway's) is complete, or it names the servers that are not ready yet. A straggler (a stdio
 * server still starting that worked through a period of its connect timeout, as a first `npx -y`
 * does while it downloads) is told apart from one that failed, e.g. one that hung and was given up.
 */
import { describeProgress } from '../connection/connectDeadline';
import type { ServerState } from '../domain/serverState';
import type { KernelBus } from './events';
import type { SupervisedServer } from './supervisedServer';

export interface NotReadyServer {
  server: string;
  state: ServerState;
  /** Still starting and working: it may connect yet (the kernel goes on waiting for it). */
  starting: boolean;
  /** Why it is not ready, in words. */
  reason: string;
}

/** The servers that are not connected, each with its reason; blocked ones are the policy's. */
export function notReadyServers(
  servers: readonly SupervisedServer[],
  now = Date.now(),
): NotReadyServer[] {
  return servers
    .filter((server) => server.state !== 'connected')
    .map((server) => {
      const progress = server.connecting?.progress;
      return {
        server: server.id,
        state: server.state,
        starting: server.state === 'connecting',
        reason: whyNotReady(server, now, progress && describeProgress(progress)),
      };
    });
}

function whyNotReady(server: SupervisedServer, now: number, progress?: string): string {
  if (server.blockedByPolicy !== undefined) return `blocked by policy: ${server.blockedByPolicy}`;
  if (server.heldBack !== undefined) return `not started: ${server.heldBack}`;
  if (server.state === 'connecting') {
    const seconds = Math.round((now - (server.connecting?.since ?? now)) / 1000);
    return progress ?? `connecting for ${seconds} s`;
  }
  return server.lastError ?? server.state;
}

/** Resolves once the server is no longer connecting: a straggler connected, or failed. */
export function connectingEnds(bus: KernelBus, server: SupervisedServer): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (server.state === 'connecting') return;
      bus.off('transition', check);
      resolve();
    };
    bus.on('transition', check);
    check();
  });
}
