/**
 * The `chat.room` feature set: chat rooms as MCPL channels (§14). The server registers `room:general`
 * once initialized, opens more rooms on `channels/open`, keeps what is said in each, takes what the
 * host publishes (§14.3 `channels/publish`, with an ACK when asked as a request), and hands what
 * people say to the host as `channels/incoming` batches (per-message results).
 */
import { randomUUID } from 'node:crypto';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { isRecord, Json } from './wire';

export const UNKNOWN_CHANNEL = -32023;
export const CHANNEL_OPEN_FAILED = -32024;
/** Messages kept per room. */
export const KEPT_MESSAGES = 200;

export interface RoomMessage {
  messageId: string;
  author: string;
  text: string;
  timestamp: string;
  /** `published`: the host posted it; `said`: a person in the room; `observed`: an outgoing/complete. */
  kind: 'published' | 'said' | 'observed';
}

interface Room {
  descriptor: Json;
  open: boolean;
  messages: RoomMessage[];
}

function descriptorOf(name: string): Json {
  return {
    id: `room:${name}`,
    type: 'room',
    label: `#${name} (example chat room)`,
    direction: 'bidirectional',
    address: { room: name },
  };
}

export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => (isRecord(block) && typeof block.text === 'string' ? block.text : ''))
    .join('');
}

export class ChatRooms {
  private readonly rooms = new Map<string, Room>();

  constructor() {
    this.add('general');
  }

  private add(name: string): Room {
    const descriptor = descriptorOf(name);
    const room = { descriptor, open: true, messages: [] };
    this.rooms.set(descriptor.id as string, room);
    return room;
  }

  descriptors(): Json[] {
    return [...this.rooms.values()].filter((r) => r.open).map((r) => r.descriptor);
  }

  room(channelId: string): Room {
    const room = this.rooms.get(channelId);
    if (!room) throw new McpError(UNKNOWN_CHANNEL, `Unknown channel: ${channelId}`, { channelId });
    return room;
  }

  /** §14.3 channels/open: only `room` channels with a plain room name. */
  open(params: Json): Json {
    const address = isRecord(params.address) ? params.address : {};
    const name = typeof address.room === 'string' ? address.room : '';
    if (params.type !== 'room' || !/^[a-z0-9-]{1,40}$/.test(name))
      throw new McpError(
        CHANNEL_OPEN_FAILED,
        `Channel open failed: this server opens { type: "room", address: { room: "<lowercase name>" } }`,
        { type: params.type },
      );
    const room = this.rooms.get(`room:${name}`) ?? this.add(name);
    room.open = true;
    return { channel: room.descriptor };
  }

  close(params: Json): Json {
    const room = this.room(String(params.channelId));
    room.open = false;
    return { closed: true };
  }

  /** §14.3 channels/publish from the host. */
  publish(params: Json): Json {
    const room = this.room(String(params.channelId));
    const message = this.keep(room, 'host', textOf(params.content), 'published');
    return { delivered: true, messageId: message.messageId };
  }

  /** §14.3 channels/outgoing/complete: what the host's model said into the channel. */
  observe(params: Json): void {
    const room = this.rooms.get(String(params.channelId));
    if (room) this.keep(room, 'host (observed)', textOf(params.content), 'observed');
  }

  /** A person says something in a room: the message and the `channels/incoming` params for it. */
  say(channelId: string, author: string, text: string): Json {
    const room = this.room(channelId);
    const message = this.keep(room, author, text, 'said');
    return {
      messages: [
        {
          channelId,
          messageId: message.messageId,
          author: { id: `u_${author.toLowerCase()}`, name: author },
          timestamp: message.timestamp,
          content: [{ type: 'text', text }],
          metadata: {},
        },
      ],
    };
  }

  private keep(room: Room, author: string, text: string, kind: RoomMessage['kind']): RoomMessage {
    const message = {
      messageId: `msg_${randomUUID().slice(0, 8)}`,
      author,
      text,
      timestamp: new Date().toISOString(),
      kind,
    };
    room.messages.push(message);
    if (room.messages.length > KEPT_MESSAGES) room.messages.shift();
    return message;
  }
}
