/**
 * What the MCPL questions show: the server, its feature set and what it sent, every piece the server
 * wrote marked as coming from it and made visible as sent (no control or bidi characters that would
 * redraw the text), cut to a size a dialog or a terminal can hold. The editor and `mgp` show the same.
 */
import { oneLine, visibleText } from '@shared/untrustedText';
import type { InferenceQuestion, ScopeQuestion } from './interaction';

/** Lines of a payload or of the messages shown; the rest is counted, not shown. */
export const MAX_SHOWN_LINES = 40;
/** Characters of one message shown. */
export const MAX_MESSAGE_CHARS = 2_000;

function clipLines(text: string): string[] {
  const lines = text.split('\n');
  return lines.length > MAX_SHOWN_LINES
    ? [...lines.slice(0, MAX_SHOWN_LINES), `… ${lines.length - MAX_SHOWN_LINES} more lines`]
    : lines;
}

function clipChars(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

export function scopeTitle(question: ScopeQuestion): string {
  const what =
    question.origin === 'tool'
      ? `to run ${oneLine(question.toolName ?? 'a tool')} on`
      : 'access to';
  return `Allow "${question.serverId}" ${what} ${oneLine(clipChars(question.label, 120))}?`;
}

/** MCPL §7.6 step 3: the scope asked for and its payload, as the server sent them. */
export function scopeDetail(question: ScopeQuestion): string {
  const payload = question.payload
    ? clipLines(visibleText(JSON.stringify(question.payload, null, 2)))
    : ['(none)'];
  return [
    `Server: ${question.serverId}`,
    `Feature set: ${question.featureSet}`,
    ...(question.origin === 'tool' && question.toolName
      ? [`Tool: ${oneLine(question.toolName)}`]
      : []),
    '',
    '── From the server (untrusted) ──',
    `Scope: ${oneLine(clipChars(question.label, 1_000))}`,
    ...(question.featureSetDescription
      ? [`Feature set description: ${oneLine(clipChars(question.featureSetDescription, 300))}`]
      : []),
    'Payload:',
    ...payload,
    '── End of what the server sent ──',
    '',
    'Neither list in [servers.mcpl.scopes] covers this scope. The answer holds for this session.',
  ].join('\n');
}

export function inferenceTitle(question: InferenceQuestion): string {
  return `Allow "${question.serverId}" to use your model "${oneLine(question.model)}"?`;
}

/** MCPL §11 under `ask`: which model, and the messages that will be sent to it. */
export function inferenceDetail(question: InferenceQuestion): string {
  const messages = question.messages.flatMap((m) => [
    `[${oneLine(m.role)}]`,
    ...visibleText(clipChars(m.content, MAX_MESSAGE_CHARS)).split('\n'),
  ]);
  return [
    `Server: ${question.serverId}`,
    `Feature set: ${question.featureSet}`,
    `Model: ${question.model}`,
    ...(question.maxTokens ? [`Up to ${question.maxTokens} tokens`] : []),
    '',
    '── Sent to the model, written by the server (untrusted) ──',
    ...clipLines(messages.join('\n')),
    '── End of what the server sent ──',
    '',
    'The answer holds for this session; the reply goes back to the server. Set inference = "allow" or "deny" in [servers.mcpl] to stop being asked.',
  ].join('\n');
}
