/**
 * The trace ids the kernel put on its requests to each server (MGP §6.5): the trace of each call
 * forwarded to it, and the trace of each other request the kernel sent it. These are the traces a
 * server can speak of in its own audit reports; any other id would attach its words to a trace it
 * had no part in (audit/serverReports.ts). The newest MAX_PER_SERVER of each server's are kept.
 */
export const MAX_PER_SERVER = 4096;

export class TraceIdsGiven {
  private readonly byServer = new Map<string, Set<string>>();

  add(serverId: string, traceId: unknown): void {
    if (typeof traceId !== 'string' || traceId === '') return;
    let given = this.byServer.get(serverId);
    if (!given) this.byServer.set(serverId, (given = new Set()));
    given.delete(traceId);
    given.add(traceId);
    if (given.size > MAX_PER_SERVER) given.delete(given.values().next().value as string);
  }

  has(serverId: string, traceId: string): boolean {
    return this.byServer.get(serverId)?.has(traceId) ?? false;
  }
}
