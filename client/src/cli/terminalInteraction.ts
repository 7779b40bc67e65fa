/**
 * How the `mgp` command asks the operator: on a terminal it asks on stderr and reads the answer from
 * stdin; without one it cannot ask, so it refuses (or, with `--approve once|session`, approves tool
 * calls and permissions without asking, as the flag says).
 */
import type { Readable, Writable } from 'node:stream';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import {
  answerText,
  elicitationDefaults,
  inferenceDetail,
  InferenceQuestion,
  inferenceTitle,
  Interaction,
  NOBODY_TO_ASK,
  PermissionRequest,
  requestDetail,
  scopeDetail,
  ScopeQuestion,
  scopeTitle,
  ToolApprovalAnswer,
  ToolApprovalRequest,
  withAnswerText,
} from '../kernel';
import { oneLine, visibleText } from '@shared/untrustedText';
import { LineReader } from './lineReader';
import { elicitAtTerminal } from './terminalElicitation';

export type ApproveFlag = 'once' | 'session';
/** `--elicit`: how a run without a terminal answers a server's elicitation. */
export type ElicitFlag = 'accept-defaults' | 'decline';

export interface TerminalStreams {
  input: Readable;
  output: Writable;
  /** The reader over `input` when one is open already (one reader per input: see lineReader.ts). */
  reader?: LineReader;
}

const ANSWERS: Record<string, ToolApprovalAnswer> = {
  o: 'once',
  s: 'session',
  a: 'always',
  S: 'server_session',
  d: 'deny',
  '': 'deny',
};

/** The question about one tool call; every name and text from the server on one line, escapes visible. */
export function approvalText(request: ToolApprovalRequest): string {
  const s = request.security;
  const list = (items: readonly string[]) => items.map(oneLine).join(', ');
  const lines = [
    '',
    `${oneLine(request.serverId)} wants to run ${oneLine(request.toolName)} (requested by ${oneLine(request.agentId)})`,
    `  risk: ${s.risk_level} (from ${s.sources.risk_level ?? 'default'})${s.serverClaim ? `; the server itself says ${oneLine(String(s.serverClaim))}` : ''}`,
    `  side effects: ${s.side_effects.length ? list(s.side_effects) : 'none declared'}${s.reversible === false ? '; not reversible' : ''}`,
    ...(s.permissions_required.length ? [`  permissions: ${list(s.permissions_required)}`] : []),
    '  arguments:',
    ...JSON.stringify(request.args, null, 2)
      .split('\n')
      .map((line) => `    ${line}`),
  ];
  if (request.description)
    lines.push(
      `  description (from the server, untrusted): ${oneLine(request.description.split('\n')[0])}`,
    );
  return lines.join('\n');
}

/** Asks on a terminal. */
export function terminalInteraction(streams: TerminalStreams): Interaction & { close(): void } {
  const reader = streams.reader ?? new LineReader(streams.input);
  // Everything shown here may hold a server's or a model's text: controls and bidi made visible.
  const show = (text: string) => streams.output.write(visibleText(text));
  const ask = async (question: string, signal?: AbortSignal): Promise<string> => {
    show(question);
    return (await reader.next(signal)).trim();
  };
  // MCPL §7.6 step 3 and §11: the same title and detail as the editor's dialog, then y or N.
  const allowOrDeny = async (title: string, detail: string, signal: AbortSignal) => {
    show(`\n${title}\n${detail.replace(/^/gm, '  ')}\n`);
    const answer = await ask('Allow? [y/N] ', signal);
    if (signal.aborted) show('\n(withdrawn: denied)\n');
    return /^y(es)?$/i.test(answer) && !signal.aborted;
  };
  return {
    ...NOBODY_TO_ASK,
    async approveToolCall(request) {
      show(`${approvalText(request)}\n`);
      const answer = await ask(
        'Allow? [o]nce, [s]ession, [a]lways, [S]erver for the session, [d]eny (default deny): ',
      );
      return ANSWERS[answer] ?? 'deny';
    },
    async approvePermissions(request: PermissionRequest) {
      const decisions: Record<string, 'approved' | 'denied'> = {};
      show(`\n${oneLine(request.serverId)} asks for permissions (MGP §3):\n`);
      for (const permission of request.permissions) {
        const answer = await ask(
          `  ${oneLine(permission.name)} (risk ${oneLine(permission.risk ?? 'unknown')}) — approve? [y/N] `,
        );
        decisions[permission.name] = /^y(es)?$/i.test(answer) ? 'approved' : 'denied';
      }
      return { decisions };
    },
    async reviewSampling(serverId, params, signal) {
      show(
        `\n${oneLine(serverId)} asks the model:\n${requestDetail(params).replace(/^/gm, '  ')}\n`,
      );
      const answer = await ask('Send it to the model? [y/N] ', signal);
      if (signal.aborted) show('\n(withdrawn by the server)\n');
      return /^y(es)?$/i.test(answer) && !signal.aborted
        ? { action: 'approve', params }
        : { action: 'reject', reason: 'rejected at the terminal' };
    },
    async reviewCompletion(serverId, result, signal) {
      show(
        `\nThe model (${oneLine(result.model)}) answers ${oneLine(serverId)}:\n${answerText(result).replace(/^/gm, '  ')}\n`,
      );
      const answer = await ask(
        '[s]end it to the server, [e]dit it, [d]ecline (default decline): ',
        signal,
      );
      if (signal.aborted) {
        show('\n(withdrawn by the server)\n');
        return { action: 'reject', reason: 'withdrawn by the server' };
      }
      if (answer === 's') return { action: 'send', result };
      if (answer !== 'e') return { action: 'reject', reason: 'declined at the terminal' };
      const edited = await ask('  The answer to send instead (one line): ', signal);
      return signal.aborted
        ? { action: 'reject', reason: 'withdrawn by the server' }
        : { action: 'send', result: withAnswerText(result, edited) };
    },
    elicit: (serverId, params, signal) => elicitAtTerminal(serverId, params, signal, show, ask),
    async answerCallback(question) {
      if (question.type === 'notification') {
        show(`\n${oneLine(question.serverId)}: ${question.message}\n`);
        return undefined;
      }
      const options = question.options?.length
        ? ` [${question.options.map(oneLine).join('/')}]`
        : '';
      const answer = await ask(
        `\n${oneLine(question.serverId)} asks: ${question.message}${options} `,
      );
      return answer || undefined;
    },
    async approveRegistration(request) {
      const answer = await ask(
        `\nRegister server ${oneLine(request.id)} (${oneLine([request.command, ...request.args].join(' '))}, trust ${oneLine(request.trustLevel)})? [y/N] `,
      );
      return /^y(es)?$/i.test(answer);
    },
    approveScope: (question, signal) =>
      allowOrDeny(scopeTitle(question), scopeDetail(question), signal),
    approveInference: (question, signal) =>
      allowOrDeny(inferenceTitle(question), inferenceDetail(question), signal),
    close: () => reader.close(),
  };
}

/** Why a run without a terminal denies an MCPL question, and how to get it through (for stderr). */
export function mcplRefusal(question: ScopeQuestion | InferenceQuestion): string {
  const server = oneLine(question.serverId);
  const set = oneLine(question.featureSet);
  return 'label' in question
    ? `mgp: ${server} asks for the scope "${oneLine(question.label)}" (${set}) and there is no terminal to ask on: denied for this run (run it in a terminal, or list the scope in [servers.mcpl.scopes."${set}"] whitelist)`
    : `mgp: ${server} asks to use your model (${set}) and there is no terminal to ask on: denied for this run (run it in a terminal, or set inference = "allow" in [servers.mcpl])`;
}

/** What the server is told when a run without a terminal denies its question. */
export const NO_TERMINAL = 'mgp runs without a terminal, so no one can be asked';

/**
 * No terminal: approve tool calls and permissions as `--approve` says; answer a form elicitation with
 * its defaults when `--elicit accept-defaults` says so (SEP-1034); refuse everything else. MCPL
 * elevations and inference requests (§7.6, §11) are denied whatever `--approve` says, each with
 * `onMcplRefused` telling the operator why; only the config lets them through unasked.
 */
export function flagInteraction(
  flag: ApproveFlag | undefined,
  onRefused: (request: ToolApprovalRequest) => void,
  onPermissionsRefused: (request: PermissionRequest) => void,
  elicitFlag: ElicitFlag = 'decline',
  onMcplRefused: (question: ScopeQuestion | InferenceQuestion) => void = () => undefined,
): Interaction {
  const refuse = async (question: ScopeQuestion | InferenceQuestion): Promise<boolean> => {
    onMcplRefused(question);
    // Thrown, not false: nobody said no, and the audit and the server must not hear that a user did.
    throw new Error(NO_TERMINAL);
  };
  return {
    ...NOBODY_TO_ASK,
    approveScope: refuse,
    approveInference: refuse,
    async elicit(_serverId, params): Promise<ElicitResult> {
      if (elicitFlag !== 'accept-defaults' || params.mode === 'url') return { action: 'decline' };
      return { action: 'accept', content: elicitationDefaults(params.requestedSchema) };
    },
    async approveToolCall(request) {
      if (flag) return flag;
      onRefused(request);
      return 'deny';
    },
    async approvePermissions(request) {
      if (!flag) onPermissionsRefused(request);
      const decision = flag ? 'approved' : 'denied';
      return {
        decisions: Object.fromEntries(request.permissions.map((p) => [p.name, decision])),
        persist: false,
      };
    },
  };
}
