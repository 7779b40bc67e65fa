/**
 * What one connection agreed on. A stdio server serves one client for its whole life, so there is one
 * Session per process; it starts as plain MCP and becomes MGP only if the client asked (MGP §2).
 */
import { z } from 'zod';
import { ClientMgpSchema, type Extension, OUR_EXTENSIONS } from './wire';

/** Server states of MGP §11.2. */
export const LIFECYCLE_STATES = [
  'registered',
  'connecting',
  'connected',
  'draining',
  'disconnected',
  'error',
  'restarting',
] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

export type ClientMgp = z.infer<typeof ClientMgpSchema>;

export class Session {
  /** What the client sent as `capabilities.mgp`, if it sent it. */
  private clientMgp?: ClientMgp;
  private active = new Set<Extension>();
  lifecycleState: LifecycleState = 'connected';
  readonly startedAt = Date.now();

  /** Records the client's `capabilities.mgp` (anything but an object counts as not asked). */
  negotiate(offered: unknown): void {
    const parsed = ClientMgpSchema.safeParse(offered);
    this.clientMgp = parsed.success ? parsed.data : undefined;
    const theirs = new Set(this.clientMgp?.extensions ?? []);
    this.active = new Set(OUR_EXTENSIONS.filter((extension) => theirs.has(extension)));
  }

  /** The client sent `capabilities.mgp`: this connection speaks MGP. */
  get isMgp(): boolean {
    return this.clientMgp !== undefined;
  }

  get clientVersion(): string | undefined {
    return this.clientMgp?.version;
  }

  /** The active extensions, in our order: the intersection of the client's and ours (MGP §2.4 rule 1). */
  get extensions(): Extension[] {
    return [...this.active];
  }

  has(extension: Extension): boolean {
    return this.active.has(extension);
  }
}
