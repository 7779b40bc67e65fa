/**
 * Writes example requests for tools that have none yet, one tool at a time, in the background: the
 * index answers from the description meanwhile, and takes the requests in when they are written.
 * A model that fails three times in a row pauses the writing for a while rather than being asked
 * about every tool in turn.
 */
import { KernelError } from '../domain/errors';
import type { CompletionRequest, CompletionResult } from '../llm/modelProvider';
import { exampleRequestKey, exampleRequestPrompt, readExampleRequests } from './exampleRequests';
import type { ExampleRequestStore } from './exampleRequestStore';
import type { ServerTool } from './types';

export interface ExampleRequestWriterOptions {
  store: ExampleRequestStore;
  complete(request: CompletionRequest, signal: AbortSignal): Promise<CompletionResult>;
  /** Requests were written for one of this server's tools. */
  onWritten(serverId: string): void;
  /** The model failed and writing pauses (with why). */
  onPaused?(reason: string): void;
  /** How long writing pauses after failures in a row (default five minutes). */
  pauseMs?: number;
}

interface Pending {
  serverId: string;
  tool: ServerTool;
  key: string;
}

const FAILURES_BEFORE_PAUSE = 3;

export class ExampleRequestWriter {
  private queue: Pending[] = [];
  private readonly queued = new Set<string>();
  /** Keys the model answered with nothing usable: not asked again while this writer lives. */
  private readonly unanswered = new Set<string>();
  private draining = false;
  private failures = 0;
  private pausedUntil = 0;
  private readonly abort = new AbortController();

  constructor(private readonly options: ExampleRequestWriterOptions) {}

  /** The requests written for this tool's definition, when there are. */
  written(tool: ServerTool): readonly string[] | undefined {
    return this.options.store.get(exampleRequestKey(tool));
  }

  /** Queues this server's tools that have no requests yet, and starts writing. */
  request(serverId: string, tools: readonly ServerTool[]): void {
    if (this.abort.signal.aborted || Date.now() < this.pausedUntil) return;
    for (const tool of tools) {
      const key = exampleRequestKey(tool);
      if (this.queued.has(key) || this.unanswered.has(key) || this.options.store.get(key)) continue;
      this.queued.add(key);
      this.queue.push({ serverId, tool, key });
    }
    if (!this.draining) void this.drain();
  }

  /** Stops writing; a request on its way to the model is cancelled. */
  dispose(): void {
    this.abort.abort();
    this.queue = [];
    this.queued.clear();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        await this.write(next);
        this.queued.delete(next.key);
        if (this.abort.signal.aborted || Date.now() < this.pausedUntil) break;
      }
    } finally {
      this.draining = false;
    }
  }

  private async write({ serverId, tool, key }: Pending): Promise<void> {
    try {
      const answer = await this.options.complete(exampleRequestPrompt(tool), this.abort.signal);
      this.failures = 0;
      const requests = readExampleRequests(answer.content);
      if (requests.length === 0) {
        this.unanswered.add(key);
        return;
      }
      this.options.store.set(key, requests, answer.model);
      this.options.onWritten(serverId);
    } catch (error) {
      if (this.abort.signal.aborted) return;
      const noModel = error instanceof KernelError && error.code === 'NoModel';
      if (noModel || ++this.failures >= FAILURES_BEFORE_PAUSE) this.pause(error);
    }
  }

  private pause(error: unknown): void {
    this.pausedUntil = Date.now() + (this.options.pauseMs ?? 5 * 60_000);
    this.failures = 0;
    this.queue = [];
    this.queued.clear();
    this.options.onPaused?.(error instanceof Error ? error.message : String(error));
  }
}
