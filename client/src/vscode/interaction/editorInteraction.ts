import * as vscode from 'vscode';
import { Interaction, NOBODY_TO_ASK, ToolApprovalAnswer, ToolApprovalRequest } from '../../kernel';
import { answerCallback, approveRegistration, askPermissions, elicit } from './dialogs';
import { reviewCompletion, reviewSampling } from './samplingReview';
import { askInference, askScope } from './mcplPrompts';
import { promptToolApproval } from './toolApprovalPrompt';

/** Asks about one tool call in a way of its own (inline in a chat, from a confirmation given already). */
export type ApprovalAsker = (
  request: ToolApprovalRequest,
  signal?: AbortSignal,
) => Promise<ToolApprovalAnswer>;

/**
 * The kernel's questions answered in the editor. Tool-call approvals can be answered from the prompt
 * or from the Approvals panel (`answer`), whichever comes first; the call of a trace id that has a
 * route (`routeApproval`) is asked there instead of in the prompt.
 */
export class EditorInteraction implements Interaction {
  private readonly waiting = new Map<string, (answer: ToolApprovalAnswer) => void>();
  private readonly routes = new Map<string, ApprovalAsker>();

  /** Questions about the call with this trace id (MGP §6.5) go to `ask` until disposed. */
  routeApproval(traceId: string, ask: ApprovalAsker): vscode.Disposable {
    this.routes.set(traceId, ask);
    return new vscode.Disposable(() => {
      if (this.routes.get(traceId) === ask) this.routes.delete(traceId);
    });
  }

  approveToolCall(request: ToolApprovalRequest, signal?: AbortSignal): Promise<ToolApprovalAnswer> {
    const modal =
      vscode.workspace.getConfiguration('mgp').get<string>('approvals.prompt', 'modal') === 'modal';
    return new Promise((resolve) => {
      // Aborted once the request is answered, wherever: the notification asking it then closes.
      const answered = new AbortController();
      const settle = (answer: ToolApprovalAnswer) => {
        if (!this.waiting.delete(request.id)) return;
        answered.abort();
        resolve(answer);
      };
      this.waiting.set(request.id, settle);
      const ask = this.routes.get(request.traceId);
      (ask
        ? ask(request, signal)
        : promptToolApproval(request, modal, signal, answered.signal)
      ).then(settle, (error: unknown) => {
        this.log?.warn(
          `could not ask about ${request.serverId}.${request.toolName} (${error instanceof Error ? error.message : String(error)}): answer it in the Approvals panel`,
        );
      });
    });
  }

  /** An answer from the Approvals panel; false when the request was already answered. */
  answer(requestId: string, answer: ToolApprovalAnswer): boolean {
    const settle = this.waiting.get(requestId);
    settle?.(answer);
    return Boolean(settle);
  }

  /** When the editor cannot show a question (no window yet, dialogs refused), the answer is nobody's: refused. */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log?: vscode.LogOutputChannel,
  ) {}

  private fallback<A extends unknown[], R>(
    question: string,
    ask: (...args: A) => Promise<R>,
    nobody: (...args: A) => Promise<R>,
  ): (...args: A) => Promise<R> {
    return async (...args: A) => {
      try {
        return await ask(...args);
      } catch (error) {
        this.log?.warn(
          `could not ask about ${question} (${error instanceof Error ? error.message : String(error)}): refused`,
        );
        return nobody(...args);
      }
    };
  }

  approvePermissions = this.fallback(
    'permissions',
    askPermissions,
    NOBODY_TO_ASK.approvePermissions,
  );
  reviewSampling = this.fallback(
    'sampling',
    (serverId: string, params: Parameters<Interaction['reviewSampling']>[1], signal: AbortSignal) =>
      reviewSampling(serverId, params, signal),
    NOBODY_TO_ASK.reviewSampling,
  );
  reviewCompletion = this.fallback(
    "a model's answer",
    reviewCompletion,
    NOBODY_TO_ASK.reviewCompletion,
  );
  elicit = this.fallback(
    'an elicitation',
    (serverId: string, params: Parameters<Interaction['elicit']>[1], signal: AbortSignal) =>
      elicit(serverId, params, signal, this.extensionUri),
    NOBODY_TO_ASK.elicit,
  );
  answerCallback = this.fallback('a callback', answerCallback, NOBODY_TO_ASK.answerCallback);
  approveRegistration = this.fallback(
    'a registration',
    approveRegistration,
    NOBODY_TO_ASK.approveRegistration,
  );
  approveScope = this.fallback('a scope elevation', askScope, async () => false);
  approveInference = this.fallback('an inference request', askInference, async () => false);
}
