/** How a server runs, as the Servers view, `mgp servers` and the server's log say it. */
import type { NetworkAccess } from '../config/types';

export type SandboxKind = 'bubblewrap' | 'seatbelt';

export type Isolation =
  | {
      sandboxed: true;
      kind: SandboxKind;
      /** Folders it may write (its own temporary folder is /tmp inside). */
      write: string[];
      network: NetworkAccess;
      ports: number[];
      domains: string[];
    }
  | {
      sandboxed: false;
      /** Why not: turned off in your config, or what the platform lacks. */
      reason: string;
      /** Its policy requires a sandbox, so it does not start. */
      refused?: boolean;
    };

export function describeNetwork(isolation: Extract<Isolation, { sandboxed: true }>): string {
  switch (isolation.network) {
    case 'none':
      return 'no network';
    case 'loopback':
      return `loopback ports ${isolation.ports.join(', ') || 'none'}`;
    case 'domains':
      return `only ${isolation.domains.join(', ') || 'no domain'}`;
    default:
      return 'full network';
  }
}

/** One line: "sandboxed (bubblewrap): writes the workspace and its temp folder; no network". */
export function describeIsolation(isolation: Isolation): string {
  if (!isolation.sandboxed)
    return isolation.refused
      ? `refuses to start: it requires a sandbox, and ${isolation.reason}`
      : `not sandboxed: ${isolation.reason}`;
  const writes = isolation.write.length
    ? `writes ${isolation.write.join(', ')} and its own /tmp`
    : 'writes only its own /tmp';
  return `sandboxed (${isolation.kind}): ${writes}; ${describeNetwork(isolation)}`;
}
