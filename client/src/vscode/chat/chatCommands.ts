/**
 * The @mgp participant's slash commands: `/tools` (what this conversation has loaded), `/servers`
 * (the servers and their state), `/audit` (this conversation's calls, each linked to its trace).
 */
import * as vscode from 'vscode';
import type { AgentSession, Kernel } from '../../kernel';
import { AUDIT_COMMAND, toolTitle, traceLink } from './chatRendering';
import { code } from '../common/untrustedMarkdown';

/** One call of the conversation, as kept in the chat's own result metadata. */
export interface CallSummary {
  server?: string;
  tool?: string;
  name: string;
  decision: string;
  traceId?: string;
}

function trusted(text: string): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString(text);
  markdown.isTrusted = { enabledCommands: [AUDIT_COMMAND] };
  return markdown;
}

export function showTools(stream: vscode.ChatResponseStream, session: AgentSession): void {
  const offered = session.tools.offer();
  const cache = session.tools.session.cache;
  const snapshot = cache.snapshot();
  const tokens = new Map(
    [...cache.pinnedEntries(), ...cache.cachedEntries()].map((e) => [e.tool_id, cache.tokensOf(e)]),
  );
  const line = (id: string) => `- ${code(id)} (${tokens.get(id) ?? 0} tokens)`;
  stream.markdown(
    [
      `**Offered to the model now** (${offered.tokens} tokens): ${offered.tools.map((t) => code(t.name)).join(', ')}`,
      '',
      `**Pinned** (${snapshot.pinned.length}):`,
      ...(snapshot.pinned.length ? snapshot.pinned.map(line) : ['- none']),
      '',
      `**Loaded in this conversation** (${snapshot.cached.length}, most recently used first):`,
      ...(snapshot.cached.length
        ? snapshot.cached.map(line)
        : ['- none yet: ask for something and the agent discovers what it needs']),
      '',
      `Tool context: ${snapshot.total_tokens} of ${snapshot.max_tokens} tokens (\`[kernel.tool_context_budget]\`).`,
    ].join('\n'),
  );
}

export function showServers(stream: vscode.ChatResponseStream, kernel: Kernel): void {
  const servers = kernel.manager.list();
  if (!servers.length) {
    stream.markdown('No server is configured. Add one to `mgp.toml` (**MGP: Create mgp.toml**).');
    return;
  }
  stream.markdown(
    [
      '| Server | State | Tools | Protocol |',
      '| --- | --- | --- | --- |',
      ...servers.map(
        (s) =>
          `| ${code(s.id)} | ${s.state} | ${s.tools.length} | ${kernel.mgp.of(s.id) ? 'MGP' : 'MCP'} |`,
      ),
    ].join('\n'),
  );
}

export function showAudit(stream: vscode.ChatResponseStream, calls: readonly CallSummary[]): void {
  if (!calls.length) {
    stream.markdown('This conversation has made no tool call yet.');
  } else {
    stream.markdown(
      trusted(
        [
          `**This conversation's tool calls** (${calls.length}), each linked to its records in the Audit Trail:`,
          '',
          ...calls.map(
            (c) =>
              `- ${toolTitle(c.server, c.tool, c.name)} — ${c.decision}${c.traceId ? ` · ${traceLink(c.traceId)}` : ''}`,
          ),
        ].join('\n'),
      ),
    );
  }
  stream.button({ command: AUDIT_COMMAND, title: 'Open the Audit Trail' });
}
