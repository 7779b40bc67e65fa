/**
 * MCP sampling with the person in the loop, in the editor: the server's request, then the model's
 * answer, each in a quick pick with Send, Edit… and Decline. A quick pick rather than a modal dialog:
 * when the server withdraws its request (MCP notifications/cancelled) the question closes.
 */
import * as vscode from 'vscode';
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import { oneLine, visibleText } from '@shared/untrustedText';
import { ReadOnlyTexts } from '../common/readOnlyTexts';
import {
  answerOwnText,
  answerText,
  type CompletionReview,
  lastMessageText,
  requestDetail,
  requestSummary,
  type SampledAnswer,
  type SamplingReview,
  toolsOffered,
  withAnswerText,
} from '../../kernel';

type Choice = 'send' | 'edit' | 'decline';
interface ChoiceItem extends vscode.QuickPickItem {
  choice: Choice | 'read';
}

/** The whole texts of the questions, read beside them; registered at the first one. */
let wholeTexts: ReadOnlyTexts | undefined;

/**
 * Opens the whole text beside the question as a read-only document: a quick pick's row shows one
 * line, and the person is asked to read what is sent before sending it.
 */
async function showWhole(title: string, text: string): Promise<void> {
  wholeTexts ??= new ReadOnlyTexts('mgp-sampling', 10, 'No longer kept.');
  await wholeTexts.show(`${title.slice(0, 80)}.md`, visibleText(text), {
    preview: true,
    preserveFocus: true,
    viewColumn: vscode.ViewColumn.Beside,
  });
}

/**
 * A quick pick of Send / Edit… / Decline, and Read it all… (which keeps the question open); undefined
 * when dismissed or withdrawn.
 */
function pickChoice(
  title: string,
  text: string,
  detail: string,
  whole: { title: string; text: string },
  signal: AbortSignal,
): Promise<Choice | undefined> {
  const picker = vscode.window.createQuickPick<ChoiceItem>();
  picker.title = title;
  picker.placeholder = 'The text comes from the server or the model: read it before you send it';
  picker.ignoreFocusOut = true;
  picker.matchOnDetail = false;
  picker.items = [
    { choice: 'send', label: '$(send) Send', description: detail, detail: oneLine(text) },
    { choice: 'edit', label: '$(edit) Edit…', description: 'change the text, then send it' },
    {
      choice: 'decline',
      label: '$(close) Decline',
      description: 'the server is told you declined',
    },
    { choice: 'read', label: '$(eye) Read it all…', description: 'opens the whole text beside' },
  ];
  return new Promise((resolve) => {
    let done = false;
    const finish = (choice: Choice | undefined) => {
      if (done) return;
      done = true;
      resolve(choice);
      picker.dispose();
    };
    picker.onDidAccept(() => {
      const choice = picker.selectedItems[0]?.choice;
      if (choice === 'read') void showWhole(whole.title, whole.text);
      else finish(choice);
    });
    picker.onDidHide(() => finish(undefined));
    if (signal.aborted) return finish(undefined);
    signal.addEventListener('abort', () => finish(undefined), { once: true });
    picker.show();
  });
}

/** An input box with `value`; undefined when dismissed or withdrawn. */
function editText(title: string, value: string, signal: AbortSignal): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = title;
  box.value = value;
  box.prompt = 'Enter sends it, Escape declines';
  box.ignoreFocusOut = true;
  return new Promise((resolve) => {
    let done = false;
    const finish = (text: string | undefined) => {
      if (done) return;
      done = true;
      resolve(text);
      box.dispose();
    };
    box.onDidAccept(() => finish(box.value));
    box.onDidHide(() => finish(undefined));
    signal.addEventListener('abort', () => finish(undefined), { once: true });
    box.show();
  });
}

/**
 * The request on one line for the Send row: its lines joined with " · " (a quick pick's detail
 * would show each line feed as a literal \n); the tools and the token limit are the row's description.
 */
function requestLine(params: CreateMessageRequest['params']): string {
  return requestSummary(params)
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.trim() !== '')
    .map(oneLine)
    .join(' · ');
}

const withdrawn = (signal: AbortSignal, otherwise: string) =>
  signal.aborted ? 'withdrawn by the server' : otherwise;

export async function reviewSampling(
  serverId: string,
  params: CreateMessageRequest['params'],
  signal: AbortSignal,
): Promise<SamplingReview> {
  const tools = params.tools?.length ? ` · ${oneLine(toolsOffered(params))}` : '';
  const choice = await pickChoice(
    `"${serverId}" asks to use a language model`,
    requestLine(params),
    `up to ${params.maxTokens} tokens${tools}`,
    { title: `What ${serverId} asks the model`, text: requestDetail(params) },
    signal,
  );
  if (choice === 'send') return { action: 'approve', params };
  if (choice !== 'edit')
    return { action: 'reject', reason: withdrawn(signal, 'rejected by the user') };
  const edited = await editText(
    `Edit the message "${serverId}" sends to the model`,
    lastMessageText(params),
    signal,
  );
  if (edited === undefined)
    return { action: 'reject', reason: withdrawn(signal, 'rejected while editing') };
  const messages = [...params.messages];
  const index = messages.map((m) => m.role).lastIndexOf('user');
  if (index >= 0) messages[index] = { role: 'user', content: { type: 'text', text: edited } };
  return { action: 'approve', params: { ...params, messages } };
}

export async function reviewCompletion(
  serverId: string,
  result: SampledAnswer,
  signal: AbortSignal,
): Promise<CompletionReview> {
  const choice = await pickChoice(
    `Send the model's answer back to "${serverId}"?`,
    answerText(result),
    `${result.model}${result.stopReason === 'toolUse' ? ' · calls tools' : ''}`,
    { title: `The answer of ${result.model} for ${serverId}`, text: answerText(result) },
    signal,
  );
  if (choice === 'send') return { action: 'send', result };
  if (choice !== 'edit') return { action: 'reject', reason: withdrawn(signal, 'answer declined') };
  const edited = await editText(
    `Edit the answer "${serverId}" gets`,
    answerOwnText(result),
    signal,
  );
  return edited === undefined
    ? { action: 'reject', reason: withdrawn(signal, 'declined while editing') }
    : { action: 'send', result: withAnswerText(result, edited) };
}
