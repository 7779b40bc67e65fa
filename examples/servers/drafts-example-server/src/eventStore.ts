/**
 * The events of each stream, kept so that a client that lost its connection can resume with
 * `Last-Event-ID` (MCP Streamable HTTP; the draft's §4 resumable stream). `redeliver` replays from the
 * last event the client saw, inclusive, as an at-least-once server may.
 */
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface Stored {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
}

export class ReplayingEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private next = 1;

  constructor(private readonly redeliver: boolean) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}|${this.next++}`;
    this.events.push({ id, streamId, message });
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at < 0) throw new Error(`no event ${lastEventId} to resume after`);
    const { streamId } = this.events[at];
    const from = this.redeliver ? at : at + 1;
    for (const event of this.events.slice(from))
      // A priming event has no message to send again.
      if (event.streamId === streamId && 'jsonrpc' in event.message)
        await send(event.id, event.message);
    return streamId;
  }
}
