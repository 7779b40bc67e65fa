/**
 * The events of one HTTP session's SSE streams, kept so a client that lost a stream can resume it
 * with `Last-Event-ID` (MCP Streamable HTTP, resumability). Bounded: the oldest events go first.
 */
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const DEFAULT_LIMIT = 1000;

interface StoredEvent {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
}

export class BoundedEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private sequence = 0;

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${++this.sequence}.${streamId}`;
    this.events.push({ id, streamId, message });
    if (this.events.length > this.limit) this.events.splice(0, this.events.length - this.limit);
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((event) => event.id === eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.events.findIndex((event) => event.id === lastEventId);
    if (at < 0) return '';
    const { streamId } = this.events[at];
    for (const event of this.events.slice(at + 1))
      if (event.streamId === streamId) await send(event.id, event.message);
    return streamId;
  }
}
