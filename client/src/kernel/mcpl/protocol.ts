/**
 * The MCPL 0.4.1 wire contract in one place: method names (§4.1), error codes (Appendix A), and
 * the shapes the host reads (§6.2, §10.3, §14.2). The connection knows only base MCP; the MCPL
 * service registers these methods with it.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';

export const MCPL_VERSION = '0.4';

/** MCPL §4.1: every method, with its direction. */
export const McplMethods = {
  /** Server → host, request (§9). */
  pushEvent: 'push/event',
  /** Host → server, request (§10.1). */
  beforeInference: 'context/beforeInference',
  /** Host → server, request or notification (§10.5). */
  afterInference: 'context/afterInference',
  /** Server → host, request (§11.1). */
  inferenceRequest: 'inference/request',
  /** Host → server, notification (§11.4). */
  inferenceChunk: 'inference/chunk',
  /** Server → host, request (§12.1). */
  modelInfo: 'model/info',
  /** Host → server, notification (§6.7). */
  featureSetsUpdate: 'featureSets/update',
  /** Server → host, notification (§6.7). */
  featureSetsChanged: 'featureSets/changed',
  /** Server → host, request (§7.4). */
  scopeElevate: 'scope/elevate',
  /** Host → server, request (§8.5). */
  stateRollback: 'state/rollback',
  /** Server → host, request (§14.3). */
  channelsRegister: 'channels/register',
  /** Server → host, notification (§14.3). */
  channelsChanged: 'channels/changed',
  /** Either way, request (§14.3). */
  channelsList: 'channels/list',
  /** Host → server, request (§14.3). */
  channelsOpen: 'channels/open',
  /** Host → server, request (§14.3). */
  channelsClose: 'channels/close',
  /** Host → server, notification (§14.3). */
  channelsOutgoingChunk: 'channels/outgoing/chunk',
  /** Host → server, notification (§14.3). */
  channelsOutgoingComplete: 'channels/outgoing/complete',
  /** Host → server, notification or request (§14.3). */
  channelsPublish: 'channels/publish',
  /** Server → host, request (§14.3). */
  channelsIncoming: 'channels/incoming',
} as const;

/** MCPL Appendix A. */
export const McplErrorCodes = {
  featureSetNotEnabled: -32001,
  unknownFeatureSet: -32003,
  checkpointNotFound: -32005,
  channelNotPermitted: -32017,
  unknownChannel: -32023,
  channelOpenFailed: -32024,
} as const;

export const MESSAGES: Record<number, string> = {
  [-32001]: 'Feature set not enabled',
  [-32003]: 'Unknown feature set',
  [-32005]: 'Checkpoint not found',
  [-32017]: 'Channel not permitted',
  [-32023]: 'Unknown channel',
  [-32024]: 'Channel open failed',
};

/** A JSON-RPC error whose message goes on the wire as given (McpError prefixes "MCP error <code>: "). */
export function wireError(code: number, message: string, data?: unknown): McpError {
  const error = new McpError(code, message, data);
  error.message = message;
  return error;
}

/** A JSON-RPC error with an Appendix A code, its standard message first, then what happened. */
export function mcplError(code: number, detail: string, data?: Record<string, unknown>): McpError {
  return wireError(code, `${MESSAGES[code] ?? 'MCPL error'}: ${detail}`, data);
}

/** MCPL §6.2 `uses` values. */
export const FEATURE_USES = [
  'pushEvents',
  'contextHooks.beforeInference',
  'contextHooks.afterInference',
  'inferenceRequest',
  'tools',
  'channels.publish',
  'channels.observe',
] as const;
export type FeatureUse = (typeof FEATURE_USES)[number];

/** MCPL §6.1, §6.2, §7.1 (`scoped`), §8.1 (`rollback`). */
export interface FeatureSetDeclaration {
  name: string;
  description: string;
  uses: FeatureUse[];
  scoped: boolean;
  rollback: boolean;
}

/** MCPL Appendix B.1. */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data?: string; mimeType?: string; uri?: string }
  | { type: 'resource'; uri: string };

/** MCPL §14.2. */
export interface ChannelDescriptor {
  id: string;
  type: string;
  label: string;
  direction: 'outbound' | 'inbound' | 'bidirectional';
  address?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/** MCPL §12.2 (and the `model` of §10.1). */
export interface ModelInfo {
  id: string;
  vendor: string;
  contextWindow?: number;
  capabilities: string[];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Content blocks as Appendix B.1 shapes them; `content` may be a plain string (§10.3). Undefined
 * when the value is neither, or a block is malformed.
 */
export function contentBlocks(value: unknown): ContentBlock[] | undefined {
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  if (!Array.isArray(value)) return undefined;
  const blocks: ContentBlock[] = [];
  for (const block of value) {
    if (!isRecord(block)) return undefined;
    if (block.type === 'text' && typeof block.text === 'string')
      blocks.push({ type: 'text', text: block.text });
    else if (block.type === 'image' || block.type === 'audio') {
      const inline = typeof block.data === 'string' && typeof block.mimeType === 'string';
      const linked = typeof block.uri === 'string';
      if (!inline && !linked) return undefined;
      blocks.push({
        type: block.type,
        ...(inline ? { data: block.data as string, mimeType: block.mimeType as string } : {}),
        ...(linked ? { uri: block.uri as string } : {}),
      });
    } else if (block.type === 'resource' && typeof block.uri === 'string')
      blocks.push({ type: 'resource', uri: block.uri });
    else return undefined;
  }
  return blocks;
}

/** Characters a block takes on the wire (text, base64 data, uri): what size limits count. */
export function blockSize(block: ContentBlock): number {
  if (block.type === 'text') return block.text.length;
  if (block.type === 'resource') return block.uri.length;
  return (block.data?.length ?? 0) + (block.uri?.length ?? 0);
}

/** The text of blocks; other blocks as a short bracketed note. */
export function blocksText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((block) => {
      if (block.type === 'text') return block.text;
      if (block.type === 'resource') return `[resource ${block.uri}]`;
      return `[${block.type}${block.mimeType ? ` ${block.mimeType}` : ''}${block.uri ? ` ${block.uri}` : ''}]`;
    })
    .join('\n');
}
