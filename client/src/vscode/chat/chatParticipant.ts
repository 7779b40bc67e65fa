/**
 * The @mgp chat participant: the kernel's agent loop (kernel/agent) in the chat view, on the model
 * the person picked there (any `vscode.lm` model, or the configured endpoint, endpointChatProvider.ts),
 * as `agent.chat`. Each conversation has its own tool session, found again from the chat's own
 * history (the result metadata of earlier turns). The model's text streams in; a tool's streamed
 * output shows as progress; approvals are asked inline, with buttons; each tool result names its
 * server and tool with a link to its trace in the Audit Trail. `/tools`, `/servers`, `/audit`.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { AgentSession, CHAT_AGENT_ID, type ChatMessage, type Kernel } from '../../kernel';
import type { EditorInteraction } from '../interaction/editorInteraction';
import { CallSummary, showAudit, showServers, showTools } from './chatCommands';
import { chatObserver, waitingAnswers } from './chatObserver';
import { ANSWER_COMMAND, type ChatApprovalAnswer } from './chatRendering';
import { pickScope } from '../interaction/toolApprovalPrompt';
import { ChatPushEvents, showingInjections, withoutShownLines } from './mcplInChat';
import { VscodeChatModel } from '../languageModels/lmChatModel';
import type { EditorHost } from '../host/editorHost';

export const PARTICIPANT_ID = 'mgp-kernel.mgp';
const KEPT_SESSIONS = 20;

interface ChatMetadata {
  mgpSession?: string;
  calls?: CallSummary[];
}

interface Deps {
  kernel: Kernel;
  interaction: EditorInteraction;
  extensionUri: vscode.Uri;
}

/** The conversations' sessions, the most recent kept. */
class ChatSessions {
  private readonly sessions = new Map<string, AgentSession>();
  readonly events: ChatPushEvents;

  constructor(private readonly kernel: Kernel) {
    this.events = new ChatPushEvents(kernel.mcpl);
  }

  private create(): AgentSession {
    const session = new AgentSession(this.kernel, { agentId: CHAT_AGENT_ID });
    // MCPL §10: the context hooks of the enabled servers run before each of its inferences.
    session.use(this.kernel.mcpl.contextHooks);
    return session;
  }

  get(id: string | undefined): { id: string; session: AgentSession } {
    const known = id ? this.sessions.get(id) : undefined;
    const key = known ? id! : randomUUID();
    const session = known ?? this.create();
    this.sessions.delete(key);
    this.sessions.set(key, session);
    for (const [old, stale] of this.sessions) {
      if (this.sessions.size <= KEPT_SESSIONS) break;
      stale.close();
      this.events.forget(stale);
      this.sessions.delete(old);
    }
    return { id: key, session };
  }

  dispose(): void {
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
    this.events.dispose();
  }
}

function metadataOf(context: vscode.ChatContext): { sessionId?: string; calls: CallSummary[] } {
  let sessionId: string | undefined;
  const calls: CallSummary[] = [];
  for (const turn of context.history) {
    if (!(turn instanceof vscode.ChatResponseTurn)) continue;
    const metadata = turn.result.metadata as ChatMetadata | undefined;
    if (typeof metadata?.mgpSession === 'string') sessionId = metadata.mgpSession;
    if (Array.isArray(metadata?.calls)) calls.push(...metadata.calls);
  }
  return { sessionId, calls };
}

/** The conversation so far, from the chat's own history: prompts, and the answers' text. */
function historyOf(context: vscode.ChatContext): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn)
      messages.push({ role: 'user', content: turn.prompt });
    else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response
        .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
        .join('');
      const answer = withoutShownLines(text).trim();
      if (answer) messages.push({ role: 'assistant', content: answer });
    }
  }
  return messages;
}

async function runAgent(
  deps: Deps,
  sessions: ChatSessions,
  session: AgentSession,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<CallSummary[]> {
  const abort = new AbortController();
  const cancel = token.onCancellationRequested(() => abort.abort());
  const routes: vscode.Disposable[] = [];
  const calls: CallSummary[] = [];
  try {
    sessions.events.show(session, stream);
    const record = await showingInjections(deps.kernel.mcpl, session, stream, () =>
      session.run({
        model: new VscodeChatModel(request.model),
        task: request.prompt,
        history: historyOf(context),
        signal: abort.signal,
        observer: chatObserver(deps.interaction, stream, token, routes, calls),
      }),
    );
    if (record.stop.reason !== 'answered') stream.markdown(`\n\n*${record.stop.message}*`);
    if (record.stop.reason === 'model_error') {
      // Say what to do: the model is the person's choice, in the picker or the settings.
      stream.markdown(
        "\n\nPick another model in the chat view's model picker, or point MGP Kernel's endpoint at one that answers:",
      );
      stream.button({ command: 'mgp.configureModel', title: 'Configure Model Endpoint' });
    }
  } finally {
    cancel.dispose();
    vscode.Disposable.from(...routes).dispose();
  }
  return calls;
}

/** The @mgp chat participant (when this VS Code has the chat API) and its approval answers. */
export function registerChat(
  context: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  if (typeof vscode.chat?.createChatParticipant !== 'function') return [];
  const deps: Deps = {
    kernel: host.kernel,
    interaction: host.interaction,
    extensionUri: context.extensionUri,
  };
  const sessions = new ChatSessions(deps.kernel);
  const participant = vscode.chat.createChatParticipant(
    PARTICIPANT_ID,
    async (request, context, stream, token): Promise<vscode.ChatResult> => {
      const earlier = metadataOf(context);
      const { id, session } = sessions.get(earlier.sessionId);
      let calls: CallSummary[] = [];
      if (request.command === 'tools') showTools(stream, session);
      else if (request.command === 'servers') showServers(stream, deps.kernel);
      else if (request.command === 'audit') showAudit(stream, earlier.calls);
      else {
        sessions.events.attach(session);
        calls = await runAgent(deps, sessions, session, request, context, stream, token);
      }
      return { metadata: { mgpSession: id, calls } satisfies ChatMetadata };
    },
  );
  participant.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'mgp.svg');
  return [
    participant,
    vscode.commands.registerCommand(
      ANSWER_COMMAND,
      async (requestId?: string, answer?: ChatApprovalAnswer) => {
        const waiting = requestId ? waitingAnswers.get(requestId) : undefined;
        if (!waiting || !answer) {
          void vscode.window.showInformationMessage('That approval was already answered.');
          return;
        }
        // "Allow For…" asks for the scope as the dialog does; Escape there denies.
        const given = answer === 'pick_scope' ? await pickScope(waiting.request) : answer;
        if (waitingAnswers.get(requestId!) !== waiting) return; // answered meanwhile
        waitingAnswers.delete(requestId!);
        waiting.settle(given);
      },
    ),
    { dispose: () => sessions.dispose() },
  ];
}
