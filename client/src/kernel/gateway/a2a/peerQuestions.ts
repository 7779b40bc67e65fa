/**
 * Approval questions a peer of the kernel's A2A server answers itself. A task's tool call that needs
 * an approval becomes the task's `input-required` state, with the question as the agent's message;
 * the peer's next message on the task answers it ("allow" runs the call once; anything else denies
 * it). Only a peer the user's own config lets approve (`[[a2a.peers]] approves = true`) is asked;
 * for any other the call is refused, as with nobody to ask. The executor (kernelExecutor.ts) says
 * which call belongs to which task, by its trace id.
 */
import {
  type Interaction,
  NOBODY_TO_ASK,
  type ToolApprovalAnswer,
  type ToolApprovalRequest,
} from '../../host/interaction';
import { approvalMessage } from '../elicitedApprovals';

/** How long a peer has to answer before the call is denied. */
export const PEER_ANSWER_TIMEOUT_MS = 10 * 60 * 1000;

export type PeerAsker = (question: string, signal?: AbortSignal) => Promise<string | undefined>;

/** The question as the peer reads it: what would run, and how to answer. */
export function peerQuestion(request: ToolApprovalRequest): string {
  return `${approvalMessage(request)}\n\nAnswer "allow" to run it once, or "deny".`;
}

/** A peer's answer: "allow" (or "yes", "once") runs the call once; anything else denies it. */
export function peerAnswer(text: string | undefined): ToolApprovalAnswer {
  const word = (text ?? '')
    .trim()
    .toLowerCase()
    .replace(/[.!]+$/, '');
  return word === 'allow' || word === 'yes' || word === 'once' ? 'once' : 'deny';
}

export class PeerQuestions {
  private readonly askers = new Map<string, PeerAsker>();

  /** The task a call belongs to asks through `asker`; the returned function forgets it. */
  register(traceId: string, asker: PeerAsker): () => void {
    this.askers.set(traceId, asker);
    return () => this.askers.delete(traceId);
  }

  /** The kernel's interaction: tool approvals go to the call's task, the rest is refused. */
  interaction(onRefused?: (request: ToolApprovalRequest, why: string) => void): Interaction {
    return {
      ...NOBODY_TO_ASK,
      approveToolCall: async (request, signal) => {
        const ask = this.askers.get(request.traceId);
        if (!ask) {
          onRefused?.(request, 'nobody is there to ask, and its A2A peer may not approve');
          return 'deny';
        }
        return peerAnswer(await ask(peerQuestion(request), signal));
      },
    };
  }
}
