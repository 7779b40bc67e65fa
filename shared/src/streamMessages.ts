/** Messages between Streaming Output (media/src/streams) and its host: every MGP §12 stream live, batched per frame. */
import { isObject, isText } from './messageGuards';
import type { DeterminismView, JobEventView, JobsView } from './draftViews';
import type { ProgressView } from './toolPanelMessages';

export type StreamStateName = 'running' | 'done' | 'cancelled' | 'error';

export interface StreamView {
  id: string;
  serverId: string;
  toolName: string;
  traceId: string;
  state: StreamStateName;
  startedAt: number;
  endedAt?: number;
  chunks: number;
  /** The last part of the text (at most what the panel keeps); `textLength` is the whole length. */
  text: string;
  textLength: number;
  progress?: ProgressView;
  error?: string;
  /** MCP draft §4: its job events by phase; §2: what it says of its seed. */
  jobs?: JobsView;
  determinism?: DeterminismView;
}

/** One change to one stream; text and progress are merged per stream within a batch. */
export type StreamUpdate =
  | { kind: 'started'; stream: StreamView }
  | { kind: 'text'; id: string; appended: string; chunks: number }
  | { kind: 'progress'; id: string; progress: ProgressView }
  | { kind: 'jobEvent'; id: string; event: JobEventView }
  | { kind: 'ended'; stream: StreamView };

export type StreamsToWebview =
  | { type: 'streams'; streams: StreamView[]; focus?: string }
  /** Everything that happened since the last batch. */
  | { type: 'batch'; updates: StreamUpdate[] }
  | { type: 'focus'; id: string };

export type StreamsFromWebview =
  | { type: 'ready' }
  | { type: 'cancel'; id: string }
  /** Opens the whole text of a stream in an editor (the panel keeps only its tail). */
  | { type: 'openText'; id: string };

export function isStreamsFromWebview(value: unknown): value is StreamsFromWebview {
  if (!isObject(value)) return false;
  switch (value.type) {
    case 'ready':
      return true;
    case 'cancel':
    case 'openText':
      return isText(value.id);
    default:
      return false;
  }
}
