import * as vscode from 'vscode';
import type { Interaction, ToolApprovalAnswer, ToolApprovalRequest } from '../../kernel/host/interaction';
import { answerCallback, approveRegistration, askPermissions, elicit, reviewSampling } from './dialogs';
import { promptToolApproval } from './toolApprovalPrompt';

/**
 * The kernel's questions answered in the editor. Tool-call approvals can be answered from the prompt
 * or from the Approvals panel (`answer`), whichever comes first.
 */
export class EditorInteraction implements Interaction {
  private readonly waiting = new Map<string, (answer: ToolApprovalAnswer) => void>();

  approveToolCall(request: ToolApprovalRequest, signal?: AbortSignal): Promise<ToolApprovalAnswer> {
    const modal = vscode.workspace.getConfiguration('mgp').get<string>('approvals.prompt', 'modal') === 'modal';
    return new Promise((resolve) => {
      const settle = (answer: ToolApprovalAnswer) => {
        if (!this.waiting.delete(request.id)) return;
        resolve(answer);
      };
      this.waiting.set(request.id, settle);
      void promptToolApproval(request, modal, signal).then(settle);
    });
  }

  /** An answer from the Approvals panel; false when the request was already answered. */
  answer(requestId: string, answer: ToolApprovalAnswer): boolean {
    const settle = this.waiting.get(requestId);
    settle?.(answer);
    return Boolean(settle);
  }

  approvePermissions = askPermissions;
  reviewSampling = (serverId: string, params: Parameters<Interaction['reviewSampling']>[1]) => reviewSampling(serverId, params);
  elicit = (serverId: string, params: Parameters<Interaction['elicit']>[1]) => elicit(serverId, params);
  answerCallback = answerCallback;
  approveRegistration = approveRegistration;
}
