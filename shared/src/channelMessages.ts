/**
 * Messages between a channel's panel (media/src/channel) and its host
 * (client/src/vscode/channels/channelPanel.ts): what was said in one MCPL channel (§14), and what the
 * user posts into it.
 */

export interface ChannelLine {
  messageId: string;
  direction: 'incoming' | 'outgoing';
  /** Untrusted for incoming messages: the server names the author. */
  author: string;
  timestamp: string;
  /** The text blocks joined; other blocks are named (`[image/png]`). */
  text: string;
  by?: 'user' | 'agent';
}

export interface ChannelHeader {
  serverId: string;
  channelId: string;
  /** Untrusted: the server's label and type. */
  label: string;
  type: string;
  direction: 'outbound' | 'inbound' | 'bidirectional';
  open: boolean;
  agentAttached: boolean;
  /** Why the user may not post here, when they may not. */
  publishRefusal?: string;
}

/** Host → webview. */
export type ChannelToWebview =
  | { type: 'show'; header: ChannelHeader; lines: ChannelLine[] }
  | { type: 'posted'; error?: string };

/** Webview → host. */
export type ChannelFromWebview = { type: 'ready' } | { type: 'publish'; text: string };

/** The longest text the box posts (the kernel refuses more, MCPL §14.3). */
export const MAX_POST_CHARS = 20_000;

export function isChannelFromWebview(value: unknown): value is ChannelFromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  if (message.type === 'ready') return true;
  return (
    message.type === 'publish' &&
    typeof message.text === 'string' &&
    message.text.trim().length > 0 &&
    message.text.length <= MAX_POST_CHARS
  );
}
