/**
 * How one @mgp request shows the agent loop as it runs: the model's text streams in; a tool call
 * shows as progress; its output appears as a code block, live when the tool streams it (MGP §12),
 * its progress reports as progress lines (no more than one a second); approvals are asked inline;
 * each result names its server and tool with its trace link (chatRendering.ts).
 */
import * as vscode from 'vscode';
import type {
  AgentObserver,
  StartingToolCall,
  ToolApprovalAnswer,
  ToolApprovalRequest,
} from '../../kernel';
import type { EditorInteraction } from '../interaction/editorInteraction';
import type { CallSummary } from './chatCommands';
import { renderApprovalQuestion, renderToolHeading, renderToolResult } from './chatRendering';
import { BLOCK_START, indentedCode } from '../common/untrustedMarkdown';

const PROGRESS_EVERY_MS = 1000;
/** Streamed output shown live, at most; the whole result still goes to the model. */
const STREAMED_CHARS = 8_000;

/** Answers of the inline approval buttons, by approval request id. */
export const waitingAnswers = new Map<
  string,
  { request: ToolApprovalRequest; settle: (answer: ToolApprovalAnswer) => void }
>();

/** A tool's streamed output as a live code block: every line indented, so no text breaks out. */
class LiveOutput {
  private shown = 0;
  private indent = BLOCK_START;

  constructor(
    private readonly stream: vscode.ChatResponseStream,
    private readonly call?: StartingToolCall,
  ) {}

  get started(): boolean {
    return this.shown > 0;
  }

  append(text: string): void {
    if (this.shown >= STREAMED_CHARS || !text) return;
    const part = text.slice(0, STREAMED_CHARS - this.shown);
    if (this.shown === 0 && this.call) renderToolHeading(this.stream, this.call);
    const opening = this.shown === 0 ? '\n\n' : '';
    this.shown += part.length;
    const { markdown, state } = indentedCode(part, this.indent);
    this.indent = state;
    const cut = this.shown >= STREAMED_CHARS ? '\n\n*(the rest is in the result)*' : '';
    this.stream.markdown(opening + markdown + cut);
  }

  end(): void {
    if (this.started) this.stream.markdown('\n\n');
  }
}

function progressLine(stream: vscode.ChatResponseStream) {
  let last = '';
  let lastAt = 0;
  return (text: string, force = false) => {
    const now = Date.now();
    if (text === last || (!force && now - lastAt < PROGRESS_EVERY_MS)) return;
    last = text;
    lastAt = now;
    stream.progress(text);
  };
}

function askInline(
  interaction: EditorInteraction,
  call: StartingToolCall,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): vscode.Disposable {
  return interaction.routeApproval(call.traceId, (request, signal) => {
    renderApprovalQuestion(stream, request);
    stream.progress('Waiting for your answer…');
    return new Promise((resolve) => {
      const settle = (answer: ToolApprovalAnswer) => {
        waitingAnswers.delete(request.id);
        resolve(answer);
      };
      waitingAnswers.set(request.id, { request, settle });
      signal?.addEventListener('abort', () => settle('deny'), { once: true });
      token.onCancellationRequested(() => settle('deny'));
    });
  });
}

export function chatObserver(
  interaction: EditorInteraction,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  routes: vscode.Disposable[],
  calls: CallSummary[],
): AgentObserver {
  const progress = progressLine(stream);
  let output = new LiveOutput(stream);
  return {
    onText: (delta) => stream.markdown(delta),
    onToolCall: (call) => {
      output = new LiveOutput(stream, call);
      const name = call.serverId === 'mgp' ? call.toolName : `${call.serverId}.${call.toolName}`;
      progress(`Calling ${name}…`, true);
      routes.push(askInline(interaction, call, stream, token));
    },
    onToolOutput: (_call, appended) => output.append(appended),
    onToolProgress: (call, report) => {
      if (report.message && !output.started)
        progress(`${call.serverId}.${call.toolName}: ${report.message}`);
    },
    onToolResult: (record) => {
      const streamed = output.started;
      output.end();
      renderToolResult(stream, record, { shownAbove: streamed });
      calls.push({
        server: record.server_id,
        tool: record.tool_name,
        name: record.name,
        decision: record.decision,
        traceId: record.trace_id,
      });
    },
  };
}
