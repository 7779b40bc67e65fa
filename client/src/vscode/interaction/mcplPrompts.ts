/**
 * MCPL's questions in the editor: a scope elevation no list decides (§7.6 step 3) and an inference
 * request under the `ask` policy (§11), each a modal dialog with Allow and Deny. The kernel keeps the
 * answer for the session and audits it; a dismissed dialog or a cancelled request is a denial.
 */
import * as vscode from 'vscode';
import {
  inferenceDetail,
  type InferenceQuestion,
  inferenceTitle,
  scopeDetail,
  type ScopeQuestion,
  scopeTitle,
} from '../../kernel';

/**
 * As a dangerous tool's approval: Deny leads, so the button that has the focus never allows; Allow;
 * and Cancel, which Escape and closing answer, denies too.
 */
const BUTTONS: (vscode.MessageItem & { allow: boolean })[] = [
  { title: 'Deny', allow: false },
  { title: 'Allow', allow: true },
  { title: 'Cancel', allow: false, isCloseAffordance: true },
];

async function allowOrDeny(title: string, detail: string, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  const cancelled = new Promise<undefined>((resolve) =>
    signal.addEventListener('abort', () => resolve(undefined), { once: true }),
  );
  const choice = await Promise.race([
    vscode.window.showWarningMessage(title, { modal: true, detail }, ...BUTTONS),
    cancelled,
  ]);
  return choice?.allow === true && !signal.aborted;
}

export function askScope(question: ScopeQuestion, signal: AbortSignal): Promise<boolean> {
  return allowOrDeny(scopeTitle(question), scopeDetail(question), signal);
}

export function askInference(question: InferenceQuestion, signal: AbortSignal): Promise<boolean> {
  return allowOrDeny(inferenceTitle(question), inferenceDetail(question), signal);
}
