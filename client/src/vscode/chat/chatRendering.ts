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
import { requesterName, RISK_SOURCE_WORDS } from '@shared/approvalScopes';

/** An answer a chat button gives: the kernel's, or "Allow For…", which asks for the scope first. */
export type ChatApprovalAnswer = ToolApprovalAnswer | 'pick_scope';

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
        : `\n\n**${title}** — ${facts.join(' · ')}\n\n${discoveredList(record) ?? fenced(excerptOf(record.result))}\n\n`,
    ),
  );
}

/** The most found tools a discovery's summary lists. */
const LISTED_TOOLS = 8;

/**
 * What `mgp.tools.discover` found, as a short list of tools with their servers and relevance: the
 * model still gets the whole answer, the person reads what it found. Undefined for any other result,
 * or one that is not the discovery answer it claims to be.
 */
function discoveredList(record: ToolCallRecord): string | undefined {
  if (record.server_id !== 'mgp' || record.tool_name !== 'mgp.tools.discover') return undefined;
  let tools: unknown;
  try {
    tools = (JSON.parse(record.result) as { tools?: unknown }).tools;
  } catch {
    return undefined;
  }
  if (!Array.isArray(tools)) return undefined;
  if (!tools.length) return '*No tool found.*';
  const found = tools as { server_id?: unknown; name?: unknown; relevance_score?: unknown }[];
  const lines = found.slice(0, LISTED_TOOLS).map((tool) => {
    const server = typeof tool.server_id === 'string' ? tool.server_id : undefined;
    const name = typeof tool.name === 'string' ? tool.name : '?';
    const relevance =
      typeof tool.relevance_score === 'number'
        ? ` — ${Math.round(tool.relevance_score * 100)}%`
        : '';
    return `- ${toolTitle(server, name, name)}${relevance}`;
  });
  if (found.length > LISTED_TOOLS) lines.push(`- … and ${found.length - LISTED_TOOLS} more`);
  return `Found:\n\n${lines.join('\n')}`;
}

/** The first lines of a result, cut to a size a chat reads. */
function excerptOf(result: string): string {
  const shown = result.split('\n').slice(0, 12).join('\n').slice(0, 1500);
  return shown.length < result.length ? `${shown}\n…` : shown;
}

/** The dialog's answers (toolApprovalPrompt.ts): Allow, Allow For… (its scopes), Deny first when dangerous. */
function answers(request: ToolApprovalRequest): { answer: ChatApprovalAnswer; title: string }[] {
  const allow = [
    { answer: 'once' as const, title: 'Allow' },
    { answer: 'pick_scope' as const, title: 'Allow For…' },
  ];
  const deny = { answer: 'deny' as const, title: 'Deny' };
  return request.security.risk_level === 'dangerous' ? [deny, ...allow] : [...allow, deny];
}

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
      `**${s.risk_level === 'dangerous' ? '⚠ ' : ''}Allow ${code(request.serverId)} to run ${code(request.toolName)}?** (asked by ${code(requesterName(request.agentId))})`,
      '',
      `Risk **${s.risk_level}** (${RISK_SOURCE_WORDS[s.sources.risk_level ?? 'default'] ?? s.sources.risk_level})${s.serverClaim ? ` — the server claims ${code(String(s.serverClaim))}` : ''} · side effects: ${s.side_effects.length ? s.side_effects.map(code).join(', ') : 'none declared'}${s.reversible === false ? ' · not reversible' : ''}${s.permissions_required.length ? ` · permissions: ${s.permissions_required.map(code).join(', ')}` : ''}`,
      '',
      fenced(args.length > 3000 ? `${args.slice(0, 3000)}\n…` : args, 'json'),
      request.description
        ? `*Description (from the server — untrusted):* ${code(request.description.split('\n')[0].slice(0, 300))}`
        : '*The server gave no description.*',
      '',
    ].join('\n'),
  );
  for (const { answer, title } of answers(request))
    stream.button({ command: ANSWER_COMMAND, title, arguments: [request.id, answer] });
}
