/**
 * One tool's form, Run button and result: the part the Run Tool panel and each "Try it" of the Tool
 * Discovery panel share. The arguments are checked by the host (ajv against the inputSchema) as the
 * person types and again at Run; nothing is sent while a problem remains.
 */
import type { FieldError, RunFromWebview, RunToWebview, ToolView } from '@shared/toolPanelMessages';
import { button, debounce, el, formatCount, uniqueId } from './dom';
import { SchemaForm, type FormValue } from './schemaForm';
import { SeedOptions, splitSchema } from './seedOptions';
import { outcomeNode, type EndedView } from './runOutcome';
import {
  errorNode,
  progressBar,
  resultNode,
  type ProgressBar,
  type ResourceLinkView,
} from './toolParts';

export interface ToolRunOptions {
  post(message: RunFromWebview): void;
  /** `checkbox`: the person chooses; `always`: every run streams (Try it); `never`: kernel tools. */
  stream: 'checkbox' | 'always' | 'never';
  /** The person's last choice of the box for this tool, and where a new choice is kept. */
  streamChoice?: { checked: boolean; onChange(checked: boolean): void };
  runLabel: string;
  /** The Run Tool panel: Copy, Re-run, the trace's link and the raw exchange under each outcome. */
  workbench?: boolean;
  /** Offers "Run as a task" for a tool that can run as one (MCP 2025-11-25 taskSupport). */
  tasks?: boolean;
}

/** Characters of live output the panel keeps (the Streaming panel and the result have it all). */
const LIVE_CAP = 100_000;
let nextRunId = 1;

export class ToolRun {
  readonly element: HTMLElement;
  private readonly form: SchemaForm;
  /** MCP draft §2: the seed and PRNG, under the advanced options (when the tool declares them). */
  private readonly seedOptions: SeedOptions | undefined;
  private seq = 0;
  private localProblems: FieldError[] = [];
  private hostErrors: FieldError[] = [];
  private runId: number | undefined;
  private unavailable = false;
  private streamId: string | undefined;
  private readonly runButton: HTMLButtonElement;
  private readonly cancelButton: HTMLButtonElement;
  private readonly streamBox: HTMLInputElement | undefined;
  private readonly taskBox: HTMLInputElement | undefined;
  private readonly status = el('div', { class: 'run-status', 'aria-live': 'polite' });
  private readonly live = el('section', {
    class: 'live',
    hidden: 'true',
    'aria-label': 'Live output',
  });
  private readonly liveText = document.createTextNode('');
  private readonly liveCount = el('span', { class: 'muted live-count' });
  private readonly progress: ProgressBar = progressBar('Progress of the call');
  private readonly outcome = el('div', { class: 'outcome' });
  private readonly scheduleHostCheck: () => void;
  /** The arguments of the run going on or last ended (what Re-run sends again). */
  private lastArgs: Record<string, unknown> | undefined;

  constructor(
    private readonly tool: ToolView,
    private readonly options: ToolRunOptions,
  ) {
    this.scheduleHostCheck = debounce(() => this.askHost(), 200);
    const split = splitSchema(tool.inputSchema, tool.seedFields);
    this.form = new SchemaForm(split.main, { onChange: () => this.check() });
    this.seedOptions = split.apart
      ? new SeedOptions(split.apart, split.fields, () => this.check())
      : undefined;
    this.runButton = button(options.runLabel, () => this.run(), { class: 'run' });
    this.cancelButton = button('Cancel', () => this.cancel(), {
      class: 'secondary',
      hidden: 'true',
    });
    const controls: Node[] = [this.runButton, this.cancelButton];
    if (options.stream === 'checkbox') {
      const id = uniqueId('stream');
      this.streamBox = el('input', { type: 'checkbox', id, class: 'stream-box' });
      // Nothing in a tool's listing says it streams (MGP §12 is negotiated per server), so the box
      // starts as the person last left it for this tool, unticked the first time.
      const box = this.streamBox;
      box.checked = options.streamChoice?.checked ?? false;
      box.addEventListener('change', () => options.streamChoice?.onChange(box.checked));
      controls.push(
        el(
          'span',
          { class: 'stream-choice' },
          this.streamBox,
          el('label', { for: id }, 'Stream the output'),
          el(
            'span',
            { class: 'muted' },
            tool.streaming
              ? ' (live, also in the Streaming panel)'
              : ' (the server did not negotiate MGP streaming: the text arrives at the end)',
          ),
        ),
      );
    }
    if (options.tasks && tool.taskSupport) {
      this.taskBox = this.taskChoice(tool.taskSupport, controls);
      this.syncStreamWithTask();
    }
    const streamsLink = button(
      'Show in the Streaming panel',
      () => options.post({ type: 'showStreams', streamId: this.streamId }),
      { class: 'link' },
    );
    this.live.append(
      el(
        'div',
        { class: 'live-head' },
        el('strong', {}, 'Live output '),
        this.liveCount,
        ' ',
        streamsLink,
      ),
      el('pre', { class: 'live-text', tabindex: '0' }, this.liveText),
    );
    this.element = el(
      'div',
      { class: 'tool-run' },
      this.form.element,
      ...(this.seedOptions ? [this.seedOptions.element] : []),
      el('div', { class: 'run-controls' }, ...controls),
      this.status,
      this.progress.element,
      this.live,
      this.outcome,
    );
    // Ctrl+Enter (Cmd+Enter) runs from anywhere in the form, as in VS Code's own input boxes.
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
      event.preventDefault();
      this.run();
    });
    this.check();
  }

  /** The "Run as a task" checkbox: the person's choice for `optional`, checked and fixed for `required`. */
  private taskChoice(support: 'optional' | 'required', controls: Node[]): HTMLInputElement {
    const id = uniqueId('task');
    const box = el('input', { type: 'checkbox', id, class: 'task-box' });
    box.checked = support === 'required';
    box.disabled = support === 'required';
    box.addEventListener('change', () => this.syncStreamWithTask());
    controls.push(
      el(
        'span',
        { class: 'task-choice' },
        box,
        el('label', { for: id }, 'Run as a task'),
        el(
          'span',
          { class: 'muted' },
          support === 'required'
            ? ' (this tool runs only as a task; it shows in the Tasks view)'
            : ' (it shows in the Tasks view, with its status; Cancel cancels the task)',
        ),
      ),
    );
    return box;
  }

  /** A task is not streamed: its result comes with tasks/result. */
  private syncStreamWithTask(): void {
    if (!this.streamBox || !this.taskBox) return;
    if (this.taskBox.checked) this.streamBox.checked = false;
    this.streamBox.disabled = this.taskBox.checked;
  }

  /** Fills the form with `args` (a run from the history); Run then sends them. */
  load(args: Record<string, unknown>): void {
    this.form.setValue(this.seedOptions ? this.seedOptions.setValue(args) : args);
  }

  /** Whether the tool takes a seed from the advanced options (MCP draft §2). */
  get takesSeed(): boolean {
    return this.seedOptions?.has('seed') === true;
  }

  /** "Run again with the same seed": the arguments, with the seed the server said it used. */
  rerunWithSeed(args: Record<string, unknown>, seed: number): void {
    if (this.takesSeed) this.rerun({ ...args, seed });
  }

  /** The arguments of the form and of its advanced options, as one value. */
  private collect(): FormValue {
    const main = this.form.value();
    const apart = this.seedOptions?.value();
    if (!apart) return main;
    const problems = [...main.problems, ...apart.problems];
    return main.value && apart.value
      ? { value: { ...main.value, ...apart.value }, problems }
      : { problems };
  }

  /** Runs again with `args`, filling the form with them first. */
  rerun(args: Record<string, unknown>): void {
    if (this.runId !== undefined) return;
    this.load(args);
    this.run();
  }

  private showProblems(): void {
    const all = [...this.localProblems, ...this.hostErrors];
    this.form.showErrors(this.seedOptions ? this.seedOptions.showErrors(all) : all);
  }

  /**
   * Assembles the value at each change: local problems show at once (never a field's stale error
   * while it is being typed), the schema check is asked of the host once typing pauses.
   */
  private check(): void {
    const { value, problems } = this.collect();
    this.localProblems = problems;
    this.hostErrors = [];
    this.seq += 1; // the host's answer about an earlier value no longer applies
    this.showProblems();
    if (problems.length === 0 && value) this.scheduleHostCheck();
  }

  private askHost(): void {
    const { value, problems } = this.collect();
    if (problems.length === 0 && value) {
      this.options.post({
        type: 'validate',
        serverId: this.tool.serverId,
        toolName: this.tool.toolName,
        seq: this.seq,
        args: value,
      });
    }
  }

  private run(): void {
    if (this.runId !== undefined || this.unavailable) return;
    const { value, problems } = this.collect();
    this.form.revealAll();
    this.seedOptions?.revealAll();
    if (problems.length || !value) {
      this.localProblems = problems;
      this.showProblems();
      this.setStatus(
        `Not run: ${problems.length === 1 ? 'a problem' : `${problems.length} problems`} to fix first.`,
      );
      this.focusFirstError();
      return;
    }
    const task = this.taskBox?.checked === true;
    const stream =
      !task &&
      (this.options.stream === 'always' ||
        (this.options.stream === 'checkbox' && this.streamBox?.checked === true));
    this.runId = nextRunId++;
    this.lastArgs = value;
    this.setRunning(true);
    this.setStatus('Checking the arguments…');
    this.options.post({
      type: 'run',
      runId: this.runId,
      serverId: this.tool.serverId,
      toolName: this.tool.toolName,
      args: value,
      stream,
      ...(task && { task }),
    });
  }

  private focusFirstError(): void {
    if (this.form.element.querySelector('[aria-invalid="true"]')) this.form.focusFirstError();
    else this.seedOptions?.focusFirstError();
  }

  private cancel(): void {
    if (this.runId === undefined) return;
    this.cancelButton.disabled = true;
    this.setStatus('Cancelling…');
    this.options.post({ type: 'cancelRun', runId: this.runId });
  }

  /** A tool that cannot run now (turned off, its server gone): Run is disabled until it can. */
  setAvailable(available: boolean): void {
    this.unavailable = !available;
    this.runButton.disabled = this.runId !== undefined || this.unavailable;
  }

  private setRunning(running: boolean): void {
    this.runButton.disabled = running || this.unavailable;
    this.cancelButton.hidden = !running;
    this.cancelButton.disabled = false;
    this.element.dataset.running = String(running);
  }

  private setStatus(text: string): void {
    this.status.textContent = text;
  }

  /** The run ended: the result (which holds the whole text) takes the live output's place. */
  private finish(node: HTMLElement, status: string): void {
    this.runId = undefined;
    this.setRunning(false);
    this.progress.update(undefined, 0, 0);
    this.live.hidden = true;
    this.outcome.replaceChildren(node);
    this.setStatus(status);
    // The result can be below the fold of a long form: bring it into view.
    node.scrollIntoView({ block: 'nearest' });
  }

  private ended(ended: EndedView, fallback: HTMLElement): HTMLElement {
    if (!this.options.workbench) return fallback;
    const args = this.lastArgs ?? {};
    return outcomeNode(ended, {
      post: this.options.post,
      rerun: () => this.rerun(args),
      ...(this.takesSeed
        ? { rerunWithSeed: (seed: number) => this.rerunWithSeed(args, seed) }
        : {}),
      openLink: this.openLink,
    });
  }

  /** A resource_link is read from the server that ran the tool. */
  private readonly openLink = (link: ResourceLinkView) =>
    this.options.post({
      type: 'openResource',
      serverId: this.tool.serverId,
      uri: link.uri,
      name: link.name,
      ...(link.mimeType ? { mimeType: link.mimeType } : {}),
    });

  /** Handles a message about this tool or its current run; false when it is someone else's. */
  handle(message: RunToWebview): boolean {
    if (message.type === 'copied') {
      if (this.options.workbench) this.setStatus('Copied to the clipboard.');
      return false;
    }
    const mine =
      'serverId' in message
        ? message.serverId === this.tool.serverId && message.toolName === this.tool.toolName
        : message.runId === this.runId;
    if (!mine) return false;
    switch (message.type) {
      case 'validation':
        if (message.seq !== this.seq) return true;
        this.hostErrors = message.errors;
        this.showProblems();
        if (message.schemaProblem)
          this.setStatus(
            `The tool's input schema could not be compiled (${message.schemaProblem}); arguments are checked by the server only.`,
          );
        return true;
      case 'runRejected':
        if (message.runId !== this.runId) return true;
        this.runId = undefined;
        this.setRunning(false);
        this.hostErrors = message.errors;
        this.showProblems();
        this.setStatus("Not run: the arguments do not fit the tool's input schema.");
        this.seedOptions?.revealAll();
        this.focusFirstError();
        return true;
      case 'runStarted':
        if (message.runId !== this.runId) return true;
        this.streamId = message.streamId;
        this.outcome.replaceChildren();
        this.liveText.data = '';
        this.liveCount.textContent = '';
        this.live.hidden = message.streamId === undefined;
        this.setStatus(`Running ${this.tool.toolName}… (an approval may be asked first)`);
        return true;
      case 'runText':
        this.appendLive(message.appended, message.chunks);
        return true;
      case 'runProgress':
        this.progress.update(message.progress, Date.now(), Date.now());
        return true;
      case 'runResult':
        this.finish(
          this.ended(
            { result: message.result, exchange: message.exchange },
            resultNode(message.result, this.openLink),
          ),
          message.result.cancelled
            ? 'Cancelled.'
            : message.result.isError
              ? 'The tool reported an error.'
              : 'Done.',
        );
        return true;
      case 'runError':
        this.finish(
          this.ended(
            { error: message.error, traceId: message.traceId, exchange: message.exchange },
            errorNode(message.error),
          ),
          message.error.block ? 'Blocked by the kernel.' : 'The call failed.',
        );
        return true;
    }
  }

  private appendLive(text: string, chunks: number): void {
    this.liveText.appendData(text);
    if (this.liveText.length > LIVE_CAP)
      this.liveText.deleteData(0, this.liveText.length - LIVE_CAP);
    this.liveCount.textContent = chunks
      ? `(${formatCount(chunks)} chunk${chunks === 1 ? '' : 's'})`
      : '';
  }
}
