/**
 * The host side of a tool form (Run Tool and "Try it"): checks arguments against the inputSchema as the
 * person types and again at Run, then calls through the kernel (access, approval, validators, audit)
 * with `kernel.call`, or `kernel.stream` whose live text reaches the webview batched per frame.
 * Pure of `vscode`: the panels pass how to post and what to do on "Show in the Streaming panel".
 */
import type {
  ErrorView,
  ExchangeView,
  ResultView,
  RunFromWebview,
  RunToWebview,
  ToolKey,
} from '@shared/toolPanelMessages';
import {
  type Kernel,
  type KernelToolEntry,
  newTraceId,
  type StreamEvents,
  type TaskRunRequest,
  type ToolCallOutcome,
} from '../../kernel';
import { StreamBatcher } from '../common/streamBatcher';
import { exchangeView } from './runOutcome';
import { errorView, resultView, toolView } from './toolViews';

export function findTool(kernel: Kernel, key: ToolKey): KernelToolEntry | undefined {
  return kernel.tools().find((t) => t.serverId === key.serverId && t.name === key.toolName);
}

export function schemaOf(entry: KernelToolEntry): Record<string, unknown> {
  const schema = entry.tool.inputSchema as Record<string, unknown> | undefined;
  return schema && typeof schema === 'object' ? schema : { type: 'object' };
}

/** The tool as a panel shows it, with whether its server streams (MGP §12 negotiated). */
export function viewOf(kernel: Kernel, entry: KernelToolEntry) {
  return toolView(entry, !entry.kernel && kernel.mgp.active(entry.serverId, 'streaming'));
}

export interface ToolRunsOptions {
  kernel: Kernel;
  post(message: RunToWebview): void;
  /** The panel's CSP allows `img-src data:`: images are sent to be shown. */
  images: boolean;
  /** Every run streams (the Discovery panel's "Try it": output goes to the Streaming panel too). */
  alwaysStream?: boolean;
  /** A call was sent (after the argument check). */
  onStart?(key: ToolKey): void;
  showStreams(streamId?: string): void;
  /** Opens the Audit Trail on one trace (the result's trace link). */
  showAudit?(traceId: string): void;
  /** Puts text on the clipboard (the webview's own clipboard is not dependable). */
  copy?(text: string): Promise<void>;
  /** Opens a result's resource_link: read from that server only, never fetched from elsewhere. */
  openResource?(serverId: string, link: { uri: string; name?: string; mimeType?: string }): void;
  /** A run that was sent has ended (the Run Tool panel keeps it in its history). */
  onEnded?(run: EndedRun): void;
  /**
   * Runs the tool as an MCP task, the way the Tasks view does (it shows there too); a panel without
   * it runs every call plainly.
   */
  runAsTask?(request: TaskRunRequest): {
    created: Promise<{ taskId: string }>;
    outcome: Promise<ToolCallOutcome>;
  };
}

/** A run that was sent, as it ended. */
export interface EndedRun extends ToolKey {
  at: number;
  args: Record<string, unknown>;
  stream: boolean;
  traceId: string;
  result?: ResultView;
  error?: ErrorView;
  exchange: ExchangeView;
}

interface Run {
  abort: AbortController;
  streamId?: string;
  cancelled: boolean;
}

export class ToolRuns {
  private readonly runs = new Map<number, Run>();
  private readonly streamRuns = new Map<string, number>();
  private readonly batcher: StreamBatcher;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: ToolRunsOptions) {
    this.batcher = new StreamBatcher((updates) => {
      for (const update of updates) {
        const runId =
          update.kind === 'text' || update.kind === 'progress'
            ? this.streamRuns.get(update.id)
            : undefined;
        if (runId === undefined) continue;
        if (update.kind === 'text')
          options.post({
            type: 'runText',
            runId,
            appended: update.appended,
            chunks: update.chunks,
          });
        else if (update.kind === 'progress')
          options.post({ type: 'runProgress', runId, progress: update.progress });
      }
    });
    const streams = options.kernel.streams;
    const onText = (event: StreamEvents['text'][0]) =>
      this.streamRuns.has(event.id) && this.batcher.text(event.id, event.appended, event.chunks);
    const onProgress = (event: StreamEvents['progress'][0]) =>
      this.streamRuns.has(event.id) && this.batcher.setProgress(event.id, event.progress);
    streams.on('text', onText);
    streams.on('progress', onProgress);
    this.unsubscribe = () => {
      streams.off('text', onText);
      streams.off('progress', onProgress);
    };
  }

  handle(message: RunFromWebview): void {
    switch (message.type) {
      case 'validate': {
        const entry = findTool(this.options.kernel, message);
        if (!entry) return;
        const check = this.options.kernel.checkArguments(schemaOf(entry), message.args);
        this.options.post({
          type: 'validation',
          serverId: message.serverId,
          toolName: message.toolName,
          seq: message.seq,
          errors: check.errors,
          ...(check.schemaProblem ? { schemaProblem: check.schemaProblem } : {}),
        });
        return;
      }
      case 'run':
        void this.run(message);
        return;
      case 'cancelRun':
        void this.cancel(message.runId);
        return;
      case 'showStreams':
        this.options.showStreams(message.streamId);
        return;
      case 'showAudit':
        this.options.showAudit?.(message.traceId);
        return;
      case 'copy':
        void this.options.copy?.(message.text).then(() => this.options.post({ type: 'copied' }));
        return;
      case 'openResource': {
        const { serverId, ...link } = message;
        this.options.openResource?.(serverId, link);
        return;
      }
    }
  }

  private async run(message: RunFromWebview & { type: 'run' }): Promise<void> {
    const { kernel, post } = this.options;
    const { runId, serverId, toolName, args } = message;
    const entry = findTool(kernel, message);
    // A tool the person turned off is not listed, but its call goes to the kernel all the same: the
    // pipeline's first check refuses it (TOOL_DISABLED, audited), and the panel shows that block.
    const turnedOff = kernel.switches.turnedOff(serverId, toolName) !== undefined;
    if (!entry && !turnedOff) {
      post({
        type: 'runError',
        runId,
        error: {
          name: 'UnknownTool',
          message: `${serverId} does not list ${toolName} now (is it connected?)`,
        },
      });
      return;
    }
    const check = entry ? kernel.checkArguments(schemaOf(entry), args) : { errors: [] };
    if (check.errors.length) {
      post({ type: 'runRejected', runId, serverId, toolName, errors: check.errors });
      return;
    }
    const run: Run = { abort: new AbortController(), cancelled: false };
    this.runs.set(runId, run);
    const at = Date.now();
    // The trace id is chosen here so that a refused call, which has no outcome, can still link to it.
    const traceId = newTraceId();
    let sent: Record<string, unknown> | undefined;
    const onSent = (params: Record<string, unknown>) => (sent = params);
    const request = { serverId, toolName, args, traceId, onSent, signal: run.abort.signal };
    const stream = message.stream || this.options.alwaysStream === true;
    let outcome: Promise<ToolCallOutcome>;
    if (stream) {
      const started = kernel.stream(request);
      run.streamId = started.stream.id;
      this.streamRuns.set(started.stream.id, runId);
      post({ type: 'runStarted', runId, serverId, toolName, streamId: started.stream.id });
      outcome = started.outcome;
    } else {
      post({ type: 'runStarted', runId, serverId, toolName });
      const onProgress = (p: { progress: number; total?: number; message?: string }) =>
        post({
          type: 'runProgress',
          runId,
          progress: {
            fraction: p.total ? Math.min(1, p.progress / p.total) : undefined,
            message: p.message,
          },
        });
      outcome =
        message.task && this.options.runAsTask
          ? this.asTask(runId, { ...request, onProgress }, this.options.runAsTask)
          : kernel.call({ ...request, onProgress });
    }
    this.options.onStart?.({ serverId, toolName });
    const ended = { serverId, toolName, at, args, stream, traceId };
    try {
      const done = await outcome;
      this.batcher.flush();
      const result = resultView(done, { images: this.options.images });
      const exchange = exchangeView(sent, { result: done.result });
      post({ type: 'runResult', runId, result, exchange });
      this.options.onEnded?.({ ...ended, result, exchange });
    } catch (thrown) {
      this.batcher.flush();
      const error: ErrorView = run.cancelled
        ? { name: 'Cancelled', message: 'cancelled before the result arrived' }
        : errorView(thrown);
      const exchange = exchangeView(sent, { error: thrown });
      post({ type: 'runError', runId, error, traceId, exchange });
      this.options.onEnded?.({ ...ended, error, exchange });
    } finally {
      this.runs.delete(runId);
      if (run.streamId) this.streamRuns.delete(run.streamId);
    }
  }

  /** Cancel aborts the run's signal, which the task board turns into tasks/cancel. */
  private asTask(
    runId: number,
    request: TaskRunRequest,
    runAsTask: NonNullable<ToolRunsOptions['runAsTask']>,
  ): Promise<ToolCallOutcome> {
    const { created, outcome } = runAsTask(request);
    created.then(
      ({ taskId }) =>
        this.options.post({
          type: 'runProgress',
          runId,
          progress: { message: `Running as task ${taskId}: its status is in the Tasks view` },
        }),
      () => undefined,
    );
    return outcome;
  }

  /** A stream is cancelled through the registry (MGP §12.7: the partial result is kept); a call is aborted. */
  private async cancel(runId: number): Promise<void> {
    const run = this.runs.get(runId);
    if (!run) return;
    run.cancelled = true;
    if (run.streamId) await this.options.kernel.streams.cancel(run.streamId);
    else run.abort.abort(new Error('cancelled by the user'));
  }

  /** Runs still going are left to finish (a stream stays in the Streaming panel); their answers are dropped. */
  dispose(): void {
    this.unsubscribe();
    this.batcher.dispose();
    this.streamRuns.clear();
    this.runs.clear();
  }
}
