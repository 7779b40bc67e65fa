import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { plainKind } from '../transport/jsonRpcShape';
import { LateProgress } from './lateProgress';

/**
 * The handlers the SDK's Protocol (Client, Server) dispatches a message to once it has told its
 * kind, in the pinned SDK 1.x: a message whose kind is plain (transport/jsonRpcShape.ts) goes to
 * them directly, without the SDK telling the kind again by failing parses.
 */
interface ProtocolHandlers {
  _onrequest(message: JSONRPCMessage, extra?: MessageExtraInfo): void;
  _onnotification(message: JSONRPCMessage): void;
  _onresponse(message: JSONRPCMessage): void;
}

function protocolHandlers(protocol: unknown): ProtocolHandlers | undefined {
  const handlers = protocol as Partial<ProtocolHandlers>;
  return typeof handlers._onrequest === 'function' &&
    typeof handlers._onnotification === 'function' &&
    typeof handlers._onresponse === 'function'
    ? (handlers as ProtocolHandlers)
    : undefined;
}

export interface TransportObserver {
  /** Called before a message leaves, with the JSON-RPC id the SDK gave it. */
  outgoing?(message: JSONRPCMessage): void;
  /** Called for each message that arrives, before the SDK parses it. */
  incoming?(message: JSONRPCMessage): void;
  /** A progress notification that came after its request's final response: dropped (lateProgress.ts). */
  lateProgress?(message: JSONRPCMessage): void;
}

/**
 * Wraps a transport to see every message both ways, unparsed. The SDK's schemas strip fields it does
 * not know (the server's `capabilities.mgp` in the initialize result among them), and the protocol
 * trace wants the messages as they were on the wire.
 */
export class ObservedTransport implements Transport {
  private readonly late = new LateProgress();
  /** The Protocol this transport serves, once known, for the direct dispatch of plain messages. */
  private protocol: ProtocolHandlers | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    readonly inner: Transport,
    private readonly observer: TransportObserver,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      this.observer.incoming?.(message);
      if (this.late.isLate(message)) return this.observer.lateProgress?.(message);
      const protocol = this.onmessage && this.protocol;
      const kind = protocol && plainKind(message);
      if (!kind) return this.onmessage?.(message, extra);
      if (kind === 'request') protocol._onrequest(message, extra);
      else if (kind === 'notification') protocol._onnotification(message);
      else protocol._onresponse(message);
    };
  }

  /**
   * Dispatches plain messages straight to the handlers of `protocol` (the Client or Server about to
   * connect over this transport), as its own `onmessage` would after telling their kind; any other
   * message, and every message if the SDK's handlers are not where expected, goes through it.
   */
  dispatchTo(protocol: unknown): this {
    this.protocol = protocolHandlers(protocol);
    return this;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** The child process id, for stdio transports. */
  get pid(): number | undefined {
    return (this.inner as { pid?: number | null }).pid ?? undefined;
  }

  /** The version initialize agreed on (the SDK tells the transport; stdio transports keep no copy). */
  protocolVersion: string | undefined;

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.observer.outgoing?.(message);
    this.late.sent(message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
