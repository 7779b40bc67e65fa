/**
 * What the tool panels show, made from the kernel's objects: a tool with its effective security, a
 * call's result, an error, a stream. Pure (no `vscode`): tested in node.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type {
  ErrorView,
  ResultItemView,
  ResultView,
  SecurityView,
  ToolView,
} from '@shared/toolPanelMessages';
import type { StreamView } from '@shared/streamMessages';
import {
  type EffectiveSecurity,
  KernelError,
  type KernelToolEntry,
  type StreamSnapshot,
  taskSupportOf,
  type ToolCallOutcome,
  wireErrorOf,
} from '../../kernel';
import { blockOf, blockOfResult } from './runOutcome';
import { resultDeterminism, seedFieldsOf, streamDrafts } from './draftViews';

/** Images a panel shows inline; anything else is described. */
const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp|bmp|svg\+xml)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Larger images are described, not posted to the webview. */
export const MAX_INLINE_IMAGE_BYTES = 4 * 1024 * 1024;

export function securityView(security: EffectiveSecurity): SecurityView {
  return {
    risk: security.risk_level,
    riskSource: security.sources.risk_level ?? 'default',
    ...(security.serverClaim && security.serverClaim !== security.risk_level
      ? { serverClaim: security.serverClaim }
      : {}),
    sideEffects: [...security.side_effects],
    ...(security.sources.side_effects ? { sideEffectsSource: security.sources.side_effects } : {}),
    permissions: [...security.permissions_required],
    ...(security.reversible !== undefined ? { reversible: security.reversible } : {}),
    ...(security.confirmation_required !== undefined
      ? { confirmationRequired: security.confirmation_required }
      : {}),
    ...(security.validator ? { validator: security.validator } : {}),
  };
}

export function toolView(entry: KernelToolEntry, streaming: boolean): ToolView {
  const schema = entry.tool.inputSchema as Record<string, unknown> | undefined;
  const seedFields = entry.kernel ? [] : seedFieldsOf(schema);
  return {
    serverId: entry.serverId,
    toolName: entry.name,
    ...(entry.tool.title ? { title: entry.tool.title } : {}),
    ...(entry.tool.description ? { description: entry.tool.description } : {}),
    inputSchema: schema && typeof schema === 'object' ? schema : { type: 'object' },
    security: securityView(entry.security),
    kernel: entry.kernel,
    streaming: streaming && !entry.kernel,
    ...taskSupportView(entry),
    ...(seedFields.length ? { seedFields } : {}),
  };
}

function taskSupportView(entry: KernelToolEntry): Pick<ToolView, 'taskSupport'> {
  const support = entry.kernel ? 'forbidden' : taskSupportOf(entry.tool);
  return support === 'forbidden' ? {} : { taskSupport: support };
}

/** Bytes of a base64 payload. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

type ContentItem = NonNullable<CallToolResult['content']>[number];

function itemView(item: ContentItem, images: boolean): ResultItemView {
  switch (item.type) {
    case 'text':
      return { kind: 'text', text: item.text };
    case 'image': {
      const bytes = base64Bytes(item.data);
      const inline =
        images &&
        IMAGE_TYPES.test(item.mimeType) &&
        BASE64.test(item.data) &&
        bytes <= MAX_INLINE_IMAGE_BYTES;
      return {
        kind: 'image',
        mimeType: item.mimeType,
        bytes,
        ...(inline ? { data: item.data } : {}),
      };
    }
    case 'audio':
      return { kind: 'audio', mimeType: item.mimeType, bytes: base64Bytes(item.data) };
    case 'resource': {
      const r = item.resource as { uri: string; mimeType?: string; text?: unknown; blob?: unknown };
      return typeof r.text === 'string'
        ? {
            kind: 'resource',
            uri: r.uri,
            ...(r.mimeType ? { mimeType: r.mimeType } : {}),
            text: r.text,
          }
        : {
            kind: 'resource',
            uri: r.uri,
            ...(r.mimeType ? { mimeType: r.mimeType } : {}),
            bytes: typeof r.blob === 'string' ? base64Bytes(r.blob) : 0,
          };
    }
    case 'resource_link':
      return {
        kind: 'resource_link',
        uri: item.uri,
        name: item.name,
        ...(item.description ? { description: item.description } : {}),
        ...(item.mimeType ? { mimeType: item.mimeType } : {}),
      };
    default:
      return { kind: 'other', json: JSON.stringify(item, null, 2) };
  }
}

/** A call's result for a panel; `images` when the panel's CSP allows `img-src data:`. */
export function resultView(outcome: ToolCallOutcome, options: { images: boolean }): ResultView {
  const result = outcome.result;
  const mgp = (result as { _mgp?: { cancelled?: unknown; streamed?: unknown } })._mgp;
  const block = blockOfResult(result as { _mgp?: unknown; content?: unknown });
  return {
    items: (result.content ?? []).map((item) => itemView(item, options.images)),
    ...(result.structuredContent !== undefined
      ? { structured: JSON.stringify(result.structuredContent, null, 2) }
      : {}),
    isError: result.isError === true,
    ...(result.truncated ? { truncated: result.truncated } : {}),
    ...(result.outputSchemaMismatch
      ? { outputSchemaMismatch: result.outputSchemaMismatch.problem }
      : {}),
    ...(mgp?.cancelled === true ? { cancelled: true } : {}),
    ...(mgp?.streamed === true ? { streamed: true } : {}),
    durationMs: outcome.durationMs,
    traceId: outcome.traceId,
    ...(block ? { block } : {}),
    ...resultDeterminism(result),
  };
}

/** An MGP wire error as code and name ("1000 PERMISSION_DENIED"), a local one by its code word. */
export function errorView(error: unknown): ErrorView {
  const wire = wireErrorOf(error);
  const block = blockOf(error);
  if (wire)
    return {
      code: wire.code,
      ...(wire.name ? { name: wire.name } : {}),
      message: wire.message,
      ...(block ? { block } : {}),
    };
  if (error instanceof KernelError) return { name: error.code, message: error.message };
  return { message: error instanceof Error ? error.message : String(error) };
}

/** A stream for the Streaming panel, with at most the last `keep` characters of its text. */
export function streamView(snapshot: StreamSnapshot, keep: number): StreamView {
  return {
    id: snapshot.id,
    serverId: snapshot.serverId,
    toolName: snapshot.toolName,
    traceId: snapshot.traceId,
    state: snapshot.state,
    startedAt: snapshot.startedAt,
    ...(snapshot.endedAt !== undefined ? { endedAt: snapshot.endedAt } : {}),
    chunks: snapshot.chunks,
    text:
      snapshot.text.length > keep
        ? snapshot.text.slice(snapshot.text.length - keep)
        : snapshot.text,
    textLength: snapshot.text.length,
    ...(snapshot.progress ? { progress: snapshot.progress } : {}),
    ...(snapshot.error ? { error: snapshot.error } : {}),
    ...streamDrafts(snapshot),
  };
}
