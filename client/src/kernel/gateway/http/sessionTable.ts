/**
 * The HTTP gateway's sessions, and when each ends. A session is active while one of its requests is
 * open (a POST being answered, an SSE stream the client holds); it is idle from when its last request
 * closed. An idle session expires after `idleTimeoutMs`. There is room for `maxSessions` at once,
 * and `maxPerClient` for any one client, told apart by the name it gives at initialize
 * (`clientInfo.name`): a client over its share gives up its own least recently active session; a
 * full table gives up its least recently active idle session. Only when every session is active
 * is a new one refused. So a client that opens sessions and abandons them pushes out its own old
 * ones, and never locks the others out.
 */
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export type SessionEnd = 'idle' | 'evicted' | 'closed';

export interface SessionLimits {
  maxSessions: number;
  maxPerClient: number;
  idleTimeoutMs: number;
}

export interface SessionEntry {
  readonly id: string;
  readonly client: string;
  readonly transport: StreamableHTTPServerTransport;
  /** Requests open now. */
  open: number;
  /** When a request last opened or closed (ms, monotonic). */
  lastActive: number;
  idleTimer?: ReturnType<typeof setTimeout>;
}

export class SessionTable {
  private readonly entries = new Map<string, SessionEntry>();

  constructor(
    private readonly limits: SessionLimits,
    /** Ends a session: closes its transport (which calls `remove`). */
    private readonly end: (entry: SessionEntry, why: SessionEnd) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(id: string): SessionEntry | undefined {
    return this.entries.get(id);
  }

  all(): SessionEntry[] {
    return [...this.entries.values()];
  }

  add(id: string, client: string, transport: StreamableHTTPServerTransport): SessionEntry {
    const entry: SessionEntry = { id, client, transport, open: 0, lastActive: performance.now() };
    this.entries.set(id, entry);
    this.armIdleTimer(entry);
    return entry;
  }

  remove(id: string): SessionEntry | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    clearTimeout(entry.idleTimer);
    this.entries.delete(id);
    return entry;
  }

  /** Counts `closed` (a response's close) as activity: the session is active until it fires. */
  track(entry: SessionEntry, closed: (listener: () => void) => void): void {
    entry.open++;
    entry.lastActive = performance.now();
    clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    closed(() => {
      entry.open--;
      entry.lastActive = performance.now();
      if (entry.open === 0 && this.entries.get(entry.id) === entry) this.armIdleTimer(entry);
    });
  }

  /**
   * Makes room for a new session of `client`, ending the sessions that must give way; false when
   * there is no room without ending an active session of another client.
   */
  makeRoom(client: string): boolean {
    const own = this.all().filter((entry) => entry.client === client);
    if (own.length >= this.limits.maxPerClient) {
      const oldest = leastRecentlyActive(own.filter(isIdle)) ?? leastRecentlyActive(own);
      if (oldest) this.end(oldest, 'evicted');
    }
    if (this.entries.size < this.limits.maxSessions) return true;
    const idle = leastRecentlyActive(this.all().filter(isIdle));
    if (!idle) return false;
    this.end(idle, 'evicted');
    return this.entries.size < this.limits.maxSessions;
  }

  private armIdleTimer(entry: SessionEntry): void {
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      entry.idleTimer = undefined;
      if (entry.open === 0) this.end(entry, 'idle');
    }, this.limits.idleTimeoutMs);
    entry.idleTimer.unref?.();
  }
}

const isIdle = (entry: SessionEntry) => entry.open === 0;

function leastRecentlyActive(entries: SessionEntry[]): SessionEntry | undefined {
  return entries.reduce<SessionEntry | undefined>(
    (oldest, entry) => (!oldest || entry.lastActive < oldest.lastActive ? entry : oldest),
    undefined,
  );
}
