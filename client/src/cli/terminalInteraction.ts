/**
 * How the `mgp` command asks the operator: on a terminal it asks on stderr and reads the answer from
 * stdin; without one it cannot ask, so it refuses (or, with `--approve once|session`, approves tool
 * calls and permissions without asking, as the flag says).
 */
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import {
  Interaction,
  NOBODY_TO_ASK,
  PermissionRequest,
  ToolApprovalAnswer,
  ToolApprovalRequest,
} from '../kernel/host/interaction';
import { oneLine, visibleText } from '@shared/untrustedText';
import { elicitationDefaults } from '../kernel/host/elicitationDefaults';

export type ApproveFlag = 'once' | 'session';
/** `--elicit`: how a run without a terminal answers a server's elicitation. */
export type ElicitFlag = 'accept-defaults' | 'decline';

export interface TerminalStreams {
  input: Readable;
  output: Writable;
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

/**
 * Lines from one readline over the input, handed out one per question. (A readline per question would
 * swallow answers typed ahead, or piped in, into the first one.)
 */
class LineReader {
  private readonly lines: string[] = [];
  private readonly waiting: ((line: string) => void)[] = [];
  private reader: Interface | undefined;

  constructor(private readonly input: Readable) {}

  next(): Promise<string> {
    this.reader ??= this.open();
    const line = this.lines.shift();
    return line !== undefined
      ? Promise.resolve(line)
      : new Promise((resolve) => this.waiting.push(resolve));
  }

  private open(): Interface {
    const reader = createInterface({ input: this.input, terminal: false });
    reader.on('line', (line) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else this.lines.push(line);
    });
    reader.on('close', () => this.waiting.splice(0).forEach((resolve) => resolve('')));
    return reader;
  }

  close(): void {
    this.reader?.close();
  }
}

/** Asks on a terminal. */
export function terminalInteraction(streams: TerminalStreams): Interaction & { close(): void } {
  const reader = new LineReader(streams.input);
  // Everything shown here may hold a server's or a model's text: controls and bidi made visible.
  const show = (text: string) => streams.output.write(visibleText(text));
  const ask = async (question: string): Promise<string> => {
    show(question);
    return (await reader.next()).trim();
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
    async reviewSampling(serverId, params) {
      const last = params.messages[params.messages.length - 1];
      const text =
        last && !Array.isArray(last.content) && last.content.type === 'text'
          ? last.content.text
          : '(non-text content)';
      show(
        `\n${oneLine(serverId)} asks the model (up to ${params.maxTokens} tokens):\n  ${text}\n`,
      );
      const answer = await ask('Send it to the model? [y/N] ');
      return /^y(es)?$/i.test(answer)
        ? { action: 'approve', params }
        : { action: 'reject', reason: 'rejected at the terminal' };
    },
    async elicit(serverId, params): Promise<ElicitResult> {
      if (params.mode === 'url') {
        show(
          `\n${oneLine(serverId)} asks you to open ${oneLine(params.url)}\n  ${params.message}\n`,
        );
        const answer = await ask('Open it yourself, then confirm here. Done? [y/N] ');
        return { action: /^y(es)?$/i.test(answer) ? 'accept' : 'decline' };
      }
      show(`\n${oneLine(serverId)} asks: ${params.message}\n`);
      const content: Record<string, string | number | boolean> = {};
      for (const [name, property] of Object.entries(params.requestedSchema.properties)) {
        const answer = await ask(
          `  ${oneLine(property.title ?? name)}${property.description ? ` (${oneLine(property.description)})` : ''}: `,
        );
        if (answer === '') continue;
        content[name] =
          property.type === 'number' || property.type === 'integer'
            ? Number(answer)
            : property.type === 'boolean'
              ? /^(y|yes|true)$/i.test(answer)
              : answer;
      }
      return { action: 'accept', content };
    },
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
    close: () => reader.close(),
  };
}

/**
 * No terminal: approve tool calls and permissions as `--approve` says; answer a form elicitation with
 * its defaults when `--elicit accept-defaults` says so (SEP-1034); refuse everything else.
 */
export function flagInteraction(
  flag: ApproveFlag | undefined,
  onRefused: (request: ToolApprovalRequest) => void,
  onPermissionsRefused: (request: PermissionRequest) => void,
  elicitFlag: ElicitFlag = 'decline',
): Interaction {
  return {
    ...NOBODY_TO_ASK,
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
