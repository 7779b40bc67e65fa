/**
 * MGP Kernel's tools for every VS Code agent (Copilot's agent mode and others), contributed as
 * `languageModelTools` and registered with `vscode.lm.registerTool`: `mgp_discover` (#mgpDiscover),
 * `mgp_call` (#mgpCall, lmCallTool.ts), `mgp_session` (#mgpSession), `mgp_read_resource`
 * (#mgpResource), `mgp_get_prompt` (#mgpPrompt). They act as `agent.copilot` (MGP §5), in one tool
 * session (§16.7), through the kernel's pipeline and audit.
 */
import * as vscode from 'vscode';
import {
  AgentSession,
  COPILOT_AGENT_ID,
  errorRejection,
  getPromptAs,
  KERNEL_SERVER_ID,
  readResourceAs,
} from '../../kernel';
import { callTool } from './lmCallTool';
import { Confirmations, registerGrantCommand } from './lmConfirmation';
import type { LmToolContext } from './lmToolContext';
import { charBudget, textResult } from './lmToolResult';
import type { EditorHost } from '../host/editorHost';

interface DiscoverInput {
  query: string;
  max_results?: number;
  risk_level_max?: 'safe' | 'moderate' | 'dangerous';
}

interface SessionInput {
  action?: 'list' | 'evict';
  tools?: string[];
}

interface ResourceInput {
  server: string;
  uri: string;
}

interface PromptInput {
  server: string;
  name: string;
  arguments?: Record<string, string>;
}

function failure(error: unknown): vscode.LanguageModelToolResult {
  return textResult(JSON.stringify(errorRejection(error)));
}

function discoverTool(context: LmToolContext): vscode.LanguageModelTool<DiscoverInput> {
  return {
    prepareInvocation: (options) => ({
      invocationMessage: `Searching MGP Kernel's tools for "${String(options.input.query).slice(0, 80)}"`,
    }),
    async invoke(options, token) {
      const abort = new AbortController();
      const listener = token.onCancellationRequested(() => abort.abort());
      try {
        const { query, max_results, risk_level_max } = options.input;
        const outcome = await context.kernel.call({
          serverId: KERNEL_SERVER_ID,
          toolName: 'mgp.tools.discover',
          args: {
            query,
            max_results: max_results ?? 5,
            ...(risk_level_max ? { filter: { risk_level_max } } : {}),
          },
          caller: context.session.caller,
          signal: abort.signal,
        });
        const found = (outcome.result.structuredContent?.tools ?? []) as {
          server_id: string;
          name: string;
          description: string;
          relevance_score: number;
          inputSchema: unknown;
          security?: { risk_level?: string };
        }[];
        // Loaded into the session (MGP §16.7): what it lists, least recently used evicted under the budget.
        for (const tool of found)
          context.session.tools.used({ serverId: tool.server_id, toolName: tool.name });
        const answer = {
          tools: found.map((tool) => ({
            server: tool.server_id,
            tool: tool.name,
            description: tool.description,
            risk_level: tool.security?.risk_level,
            relevance: tool.relevance_score,
            inputSchema: tool.inputSchema,
          })),
          total_available: outcome.result.structuredContent?.total_available,
          how_to_call:
            'mgp_call with {"server", "tool", "arguments"} matching the tool\'s inputSchema',
        };
        return textResult(JSON.stringify(answer), charBudget(options));
      } catch (error) {
        return failure(error);
      } finally {
        listener.dispose();
      }
    },
  };
}

function sessionTool(context: LmToolContext): vscode.LanguageModelTool<SessionInput> {
  return {
    async invoke(options) {
      try {
        if (options.input.action === 'evict') {
          const outcome = await context.kernel.call({
            serverId: KERNEL_SERVER_ID,
            toolName: 'mgp.tools.session.evict',
            args: { tools: options.input.tools ?? [] },
            caller: context.session.caller,
          });
          return textResult(JSON.stringify(outcome.result.structuredContent));
        }
        const cache = context.session.tools.session.cache;
        const describe = (e: {
          server_id: string;
          name: string;
          description: string;
          inputSchema: unknown;
        }) => ({
          server: e.server_id,
          tool: e.name,
          description: e.description,
          inputSchema: e.inputSchema,
        });
        const snapshot = cache.snapshot();
        return textResult(
          JSON.stringify({
            pinned: cache.pinnedEntries().map(describe),
            cached: cache.cachedEntries().reverse().map(describe),
            total_tokens: snapshot.total_tokens,
            max_tokens: snapshot.max_tokens,
          }),
          charBudget(options),
        );
      } catch (error) {
        return failure(error);
      }
    },
  };
}

function resourceTool(context: LmToolContext): vscode.LanguageModelTool<ResourceInput> {
  return {
    prepareInvocation: (options) => ({
      invocationMessage: `Reading ${options.input.uri} from ${options.input.server}`,
    }),
    async invoke(options) {
      try {
        const result = await readResourceAs(
          context.kernel,
          context.session.caller,
          options.input.server,
          options.input.uri,
        );
        const parts = result.contents.map((c) =>
          'text' in c && typeof c.text === 'string'
            ? c.text
            : `[${c.mimeType ?? 'binary'} content of ${c.uri}]`,
        );
        return textResult(
          `${options.input.server} · ${options.input.uri}:\n${parts.join('\n')}`,
          charBudget(options),
        );
      } catch (error) {
        return failure(error);
      }
    },
  };
}

function promptTool(context: LmToolContext): vscode.LanguageModelTool<PromptInput> {
  return {
    async invoke(options) {
      try {
        const result = await getPromptAs(
          context.kernel,
          context.session.caller,
          options.input.server,
          options.input.name,
          options.input.arguments ?? {},
        );
        const messages = result.messages.map(
          (m) => `${m.role}: ${m.content.type === 'text' ? m.content.text : `[${m.content.type}]`}`,
        );
        return textResult(messages.join('\n\n'), charBudget(options));
      } catch (error) {
        return failure(error);
      }
    },
  };
}

/** Registers the tools (when this VS Code has the language-model API) and the grant command. */
export function registerLanguageModelTools(
  _context: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  const { kernel, interaction } = host;
  const session = new AgentSession(kernel, { agentId: COPILOT_AGENT_ID });
  const context: LmToolContext = {
    kernel,
    interaction,
    session,
    confirmations: new Confirmations(),
  };
  return [
    vscode.lm.registerTool('mgp_discover', discoverTool(context)),
    vscode.lm.registerTool('mgp_call', callTool(context)),
    vscode.lm.registerTool('mgp_session', sessionTool(context)),
    vscode.lm.registerTool('mgp_read_resource', resourceTool(context)),
    vscode.lm.registerTool('mgp_get_prompt', promptTool(context)),
    registerGrantCommand(kernel),
    new vscode.Disposable(() => session.close()),
  ];
}
