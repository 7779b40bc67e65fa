/**
 * What the @mgp participant writes into the chat: a tool call's outcome naming its server and tool
 * with a link to its trace in the Audit Trail, an excerpt of what the tool returned, and the kernel's
 * approval question with its answers as buttons. Whatever a server or model wrote is shown as code
 * or untrusted markdown: only the links the participant makes itself are live.
 */
import * as vscode from 'vscode';
import type {
  StartingToolCall,
  ToolApprovalAnswer,
  ToolApprovalRequest,
  ToolCallRecord,
} from '../../kernel';
import { code, fenced } from '../common/untrustedMarkdown';

export const ANSWER_COMMAND = 'mgp.chat.answerApproval';
export const AUDIT_COMMAND = 'mgp.showAuditTrail';

/** A link opening the Audit Trail filtered to one trace (MGP §6.5). */
export function traceLink(traceId: string): string {
  const args = encodeURIComponent(JSON.stringify([{ traceId }]));
  return `[trace ${traceId.slice(0, 8)}](command:${AUDIT_COMMAND}?${args} "Open the Audit Trail at this call")`;
}

function trusted(text: string): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString(text);
  markdown.isTrusted = { enabledCommands: [AUDIT_COMMAND] };
  return markdown;
}

const DECISIONS: Record<ToolCallRecord['decision'], string> = {
  ran: 'ran',
  refused: 'refused by the kernel',
  invalid: 'arguments rejected',
  unknown_tool: 'no such tool',
  failed: 'failed',
  cancelled: 'cancelled',
  not_run: 'not run',
};

/** Server and tool as code (a kernel tool by its name alone): nothing in them is live. */
export function toolTitle(
  server: string | undefined,
  tool: string | undefined,
  name: string,
): string {
  if (!server || !tool) return code(name);
  return server === 'mgp' ? code(tool) : `${code(server)} · ${code(tool)}`;
}

/** The tool's name above its output, when the output shows while the call runs. */
export function renderToolHeading(stream: vscode.ChatResponseStream, call: StartingToolCall): void {
  stream.markdown(`\n\n**${toolTitle(call.serverId, call.toolName, call.name)}**`);
}

/** One tool call's outcome: server and tool, what the kernel decided, the trace link, an excerpt. */
export function renderToolResult(
  stream: vscode.ChatResponseStream,
  record: ToolCallRecord,
  { shownAbove = false }: { shownAbove?: boolean } = {},
): void {
  const facts = [
    DECISIONS[record.decision] +
      (record.is_error && record.decision === 'ran' ? ' (the tool reported an error)' : ''),
    record.approval && record.approval !== 'not_required' ? `approval: ${record.approval}` : '',
    record.code !== undefined ? `code ${record.code}` : '',
    record.evicted?.length ? `unloaded ${record.evicted.map(code).join(', ')}` : '',
    record.trace_id ? traceLink(record.trace_id) : '',
  ].filter(Boolean);
  const title = toolTitle(record.server_id, record.tool_name, record.name);
  // Under output shown live, the outcome alone; else one part, so the excerpt stays under its
  // header. The fence keeps the server's text inert.
  stream.markdown(
    trusted(
      shownAbove
        ? `\n\n↳ ${facts.join(' · ')}\n\n`
        : `\n\n**${title}** — ${facts.join(' · ')}\n\n${fenced(excerptOf(record.result))}\n\n`,
    ),
  );
}

/** The first lines of a result, cut to a size a chat reads. */
function excerptOf(result: string): string {
  const shown = result.split('\n').slice(0, 12).join('\n').slice(0, 1500);
  return shown.length < result.length ? `${shown}\n…` : shown;
}

const ANSWERS: { answer: ToolApprovalAnswer; title: string }[] = [
  { answer: 'once', title: 'Allow once' },
  { answer: 'session', title: 'Allow for this session' },
  { answer: 'always', title: 'Always allow in this workspace' },
  { answer: 'deny', title: 'Deny' },
];

/** The kernel's approval question inline, its answers as buttons running ANSWER_COMMAND. */
export function renderApprovalQuestion(
  stream: vscode.ChatResponseStream,
  request: ToolApprovalRequest,
): void {
  const s = request.security;
  const args = JSON.stringify(request.args, null, 2);
  stream.markdown(
    [
      '',
      `**${s.risk_level === 'dangerous' ? '⚠ ' : ''}Allow ${code(request.serverId)} to run ${code(request.toolName)}?** (requested by ${code(request.agentId)})`,
      '',
      `Risk **${s.risk_level}** (from ${s.sources.risk_level ?? 'default'})${s.serverClaim ? ` — the server claims ${code(String(s.serverClaim))}` : ''} · side effects: ${s.side_effects.length ? s.side_effects.map(code).join(', ') : 'none declared'}${s.reversible === false ? ' · not reversible' : ''}${s.permissions_required.length ? ` · permissions: ${s.permissions_required.map(code).join(', ')}` : ''}`,
      '',
      fenced(args.length > 3000 ? `${args.slice(0, 3000)}\n…` : args, 'json'),
      request.description
        ? `*Description (from the server — untrusted):* ${code(request.description.split('\n')[0].slice(0, 300))}`
        : '*The server gave no description.*',
      '',
    ].join('\n'),
  );
  for (const { answer, title } of ANSWERS)
    stream.button({ command: ANSWER_COMMAND, title, arguments: [request.id, answer] });
}
