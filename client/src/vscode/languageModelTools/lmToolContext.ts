import type { AgentSession, Kernel } from '../../kernel';
import type { EditorInteraction } from '../interaction/editorInteraction';
import type { Confirmations } from './lmConfirmation';

/** What the language-model tools share: the kernel, the editor's questions, one session of `agent.copilot`. */
export interface LmToolContext {
  kernel: Kernel;
  interaction: EditorInteraction;
  /** The tool session of VS Code's agents (MGP §16.7): what they discovered and used. */
  session: AgentSession;
  confirmations: Confirmations;
}
