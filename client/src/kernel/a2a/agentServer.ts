/**
 * An external agent as an MCP server in the kernel's own process: the kernel connects to it like to
 * any other server (connection/transportChoice.ts, `inProcess`), so every delegation is a tool call
 * through the one pipeline (access by agent identity, approval, validators, the result cap, audit).
 * Opening it reads the agent's card (discovery at start: a failure is that agent's error, never the
 * kernel's); its tools are `delegate`, `get_task` and `cancel_task`, described from the card with
 * the agent's words bounded, escaped and labelled as its own.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { oneLine } from '@shared/untrustedText';
import { A2A_TOOLS } from '../config/a2aAgents';
import type { ConfiguredServer } from '../config/types';
import { MGP_KERNEL_VERSION } from '@shared/version';
import {
  agentDestinations,
  agentFetch,
  MAX_AGENT_MESSAGE_BYTES,
  MAX_CARD_BYTES,
} from './agentFetch';
import { fetchAgentCard } from './card';
import { delegationResult } from './content';
import { delegate } from './delegation';
import type { A2aDirectory } from './directory';
import { OpenFangPeer } from './openfangPeer';
import { sdkPeer } from './sdkPeer';
import { type A2aPeer, type AgentCardSummary, DIALECT_NAMES } from './types';
import type { GuardedFetchOptions } from '../net/guardedFetch';

/** Longest tool description made from a card. */
const MAX_DESCRIPTION = 4000;

export interface AgentServerOptions {
  server: ConfiguredServer;
  /** The agent's resolved headers (its bearer key). */
  headers: Record<string, string>;
  directory: A2aDirectory;
  log(level: string, message: string): void;
  /** Tests give their own resolver and restrictions. */
  guard?: Pick<GuardedFetchOptions, 'resolve' | 'restrictionOf'>;
}

/** The tool description: what delegating does, then the card's words, labelled and bounded. */
export function delegateDescription(name: string, card: AgentCardSummary): string {
  const lines = [
    `Delegate a task to the external A2A agent "${oneLine(name)}" at ${oneLine(card.endpoint)} (${DIALECT_NAMES[card.dialect]}): sends your message to that agent, follows its task to the end and returns the agent's messages and artifacts. The message leaves this machine: include only what the agent needs. If the agent asks for more input, the answer comes from the user (or from you when you know it): call again with task_id.`,
    `The agent describes itself as follows (its own words, not verified): name "${oneLine(card.name)}"; ${oneLine(card.description) || 'no description'}`,
  ];
  if (card.skills.length) {
    lines.push("Its skills (the agent's words):");
    for (const skill of card.skills)
      lines.push(`- ${oneLine(skill.name)}: ${oneLine(skill.description)}`);
  }
  const text = lines.join('\n');
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

function tools(name: string, card: AgentCardSummary): Tool[] {
  const taskId = { type: 'string', minLength: 1, description: "The agent's task id" };
  return [
    {
      name: A2A_TOOLS.delegate,
      title: `Delegate to ${oneLine(name)}`,
      description: delegateDescription(name, card),
      inputSchema: {
        type: 'object',
        properties: {
          message: { type: 'string', minLength: 1, description: 'What to ask the agent' },
          task_id: {
            type: 'string',
            minLength: 1,
            description: 'To answer a task that needs input: its id',
          },
          context_id: {
            type: 'string',
            minLength: 1,
            description: 'To continue an earlier conversation with this agent: its context id',
          },
        },
        required: ['message'],
        additionalProperties: false,
      },
      annotations: { openWorldHint: true, destructiveHint: false },
    },
    {
      name: A2A_TOOLS.getTask,
      title: `Task of ${oneLine(name)}`,
      description: `Reads a task of the external A2A agent "${oneLine(name)}": its state, messages and artifacts.`,
      inputSchema: {
        type: 'object',
        properties: { task_id: taskId },
        required: ['task_id'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    {
      name: A2A_TOOLS.cancelTask,
      title: `Cancel a task of ${oneLine(name)}`,
      description: `Cancels a task of the external A2A agent "${oneLine(name)}".`,
      inputSchema: {
        type: 'object',
        properties: { task_id: taskId },
        required: ['task_id'],
        additionalProperties: false,
      },
      annotations: { openWorldHint: true, destructiveHint: true },
    },
  ];
}

function stringArg(args: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = args?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Reads the agent's card and serves the agent in process; the transport the kernel connects over.
 * Throws (the agent's start error) when the card cannot be read or used.
 */
export async function openAgentServer(options: AgentServerOptions): Promise<Transport> {
  const { server, directory } = options;
  const name = server.a2a?.name ?? server.id;
  const fetchWith = (maxBytes: number) =>
    agentFetch({
      url: server.url ?? '',
      named: agentDestinations(server),
      headers: options.headers,
      maxBytes,
      onRefused: (message) => options.log('warning', message),
      guard: options.guard,
    });
  const { summary: card, raw } = await fetchAgentCard(server.url ?? '', fetchWith(MAX_CARD_BYTES));
  const fetch = fetchWith(MAX_AGENT_MESSAGE_BYTES);
  const peer: A2aPeer =
    card.dialect === 'openfang' ? new OpenFangPeer(card, fetch) : await sdkPeer(card, raw, fetch);
  directory.cardRead(server.id, card);
  options.log(
    'info',
    `agent card read from ${card.cardUrl}: "${oneLine(card.name)}", ${DIALECT_NAMES[card.dialect]}, ${card.skills.length} skill(s), ${card.streaming ? 'streams' : 'polled'}`,
  );
  const mcp = new Server(
    { name: server.id, version: MGP_KERNEL_VERSION, title: `A2A agent ${oneLine(name)}` },
    { capabilities: { tools: {} } },
  );
  mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools(name, card) }));
  mcp.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const args = request.params.arguments;
    const taskId = stringArg(args, 'task_id');
    switch (request.params.name) {
      case A2A_TOOLS.delegate: {
        const text = stringArg(args, 'message') ?? '';
        const progressToken = request.params._meta?.progressToken;
        let step = 0;
        const { task, timedOut } = await delegate(
          peer,
          { text, taskId, contextId: stringArg(args, 'context_id') },
          {
            signal: extra.signal,
            deadlineMs: server.a2a?.timeoutMs ?? 300_000,
            onState: (seen) => {
              directory.taskSeen(server.id, seen, text);
              if (progressToken !== undefined)
                void extra
                  .sendNotification({
                    method: 'notifications/progress',
                    params: {
                      progressToken,
                      progress: ++step,
                      message: `task ${seen.id}: ${seen.state}`,
                    },
                  })
                  .catch(() => undefined);
            },
          },
        );
        directory.taskSeen(server.id, task, text);
        return delegationResult(card, name, task, timedOut);
      }
      case A2A_TOOLS.getTask:
      case A2A_TOOLS.cancelTask: {
        if (!taskId) throw new McpError(ErrorCode.InvalidParams, 'task_id is required');
        const task =
          request.params.name === A2A_TOOLS.getTask
            ? await peer.get(taskId, extra.signal)
            : await peer.cancel(taskId, extra.signal);
        directory.taskSeen(server.id, task);
        return delegationResult(card, name, task);
      }
      default:
        throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
    }
  });
  const [client, inside] = InMemoryTransport.createLinkedPair();
  await mcp.connect(inside);
  return client;
}
