/**
 * The tools, one feature set each, named in `_meta` (`mcpl/featureSet`, and `mcpl/scopeArgument`
 * for the scoped one): the host learns from it which set a call belongs to and which argument is
 * its scope label (MCPL leaves that to the host, §7.7).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ChatRooms } from './chatRoom';
import type { Notebooks } from './notebook';
import type { McplSession } from './session';
import { AnyResult, FeatureSetName, Json, Methods, textResult } from './wire';

export interface ToolDeps {
  server: Server;
  session: McplSession;
  notebooks: Notebooks;
  rooms: ChatRooms;
  /** Deltas of inference/chunk notifications, by the request id they name (§11.4). */
  chunks: Map<string | number, string[]>;
}

interface Tool {
  name: string;
  featureSet: FeatureSetName;
  description: string;
  properties: Record<string, { type: string; description: string }>;
  required: string[];
  scopeArgument?: string;
  run(args: Json, params: Json, deps: ToolDeps): Promise<Json>;
}

const str = (description: string) => ({ type: 'string', description });

function arg(args: Json, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || !value)
    throw new McpError(ErrorCode.InvalidParams, `"${name}" must be a non-empty string`);
  return value;
}

const ask = (deps: ToolDeps, method: string, params: Json) =>
  deps.server.request({ method, params }, AnyResult, { timeout: 120_000 });

const annotations = new Map<string, string[]>();
let events = 0;

export const TOOLS: Tool[] = [
  {
    name: 'remember',
    featureSet: 'memory.facts',
    description: 'Write a fact into the notebook (a new checkpoint)',
    properties: { fact: str('The fact to remember') },
    required: ['fact'],
    run: async (args, params, { notebooks }) => {
      const fact = arg(args, 'fact');
      const state = notebooks.add(params, fact);
      return textResult(`Remembered "${fact}" (${state.checkpoint})`, { state });
    },
  },
  {
    name: 'forget',
    featureSet: 'memory.facts',
    description: 'Take a fact out of the notebook (a new checkpoint)',
    properties: { fact: str('The fact to forget, as it was written') },
    required: ['fact'],
    run: async (args, params, { notebooks }) => {
      const fact = arg(args, 'fact');
      const state = notebooks.remove(params, fact);
      if (!state) return { ...textResult(`The notebook holds no "${fact}"`), isError: true };
      return textResult(`Forgot "${fact}" (${state.checkpoint})`, { state });
    },
  },
  {
    name: 'recall',
    featureSet: 'memory.facts',
    description: 'List the facts in the notebook',
    properties: {},
    required: [],
    run: async (_args, params, { notebooks }) => {
      const facts = notebooks.facts(params);
      return textResult(facts.length ? facts.map((f) => `- ${f}`).join('\n') : '(no facts)', {
        structuredContent: { facts },
      });
    },
  },
  {
    name: 'annotate',
    featureSet: 'files.annotate',
    description: 'Attach a note to a file path (the path is the scope the host approves)',
    properties: { path: str('The file path'), note: str('The note') },
    required: ['path', 'note'],
    scopeArgument: 'path',
    run: async (args, params) => {
      const path = arg(args, 'path');
      const scope = params.scope as Json | undefined;
      if (!scope || scope.label !== path)
        throw new McpError(
          ErrorCode.InvalidParams,
          `the call carries no scope for ${path} (MCPL §7.7)`,
        );
      const notes = annotations.get(path) ?? [];
      notes.push(arg(args, 'note'));
      annotations.set(path, notes);
      return textResult(`${path} has ${notes.length} note(s)`, { structuredContent: { scope } });
    },
  },
  {
    name: 'request_access',
    featureSet: 'files.annotate',
    description: 'Ask the host for a scope with scope/elevate and report the answer',
    properties: { path: str('The path to ask for'), reason: str('Why') },
    required: ['path'],
    run: async (args, _params, deps) => {
      const path = arg(args, 'path');
      const reason = typeof args.reason === 'string' ? args.reason : undefined;
      const answer = await ask(deps, Methods.scopeElevate, {
        featureSet: 'files.annotate',
        scope: { label: path, payload: { path, ...(reason ? { reason } : {}) } },
      });
      return textResult(JSON.stringify(answer), { structuredContent: answer });
    },
  },
  {
    name: 'raise_alert',
    featureSet: 'alerts.push',
    description: 'Send the host a push event with this text and report its answer',
    properties: {
      text: str('What happened'),
      eventId: str('A stable id (a retry reuses it)'),
      featureSet: str("The tag to send (default alerts.push): try the host's checks (MCPL §6.6)"),
    },
    required: ['text'],
    run: async (args, _params, deps) => {
      const answer = await ask(deps, Methods.pushEvent, {
        featureSet: typeof args.featureSet === 'string' ? args.featureSet : 'alerts.push',
        eventId: typeof args.eventId === 'string' ? args.eventId : `evt_${process.pid}_${++events}`,
        timestamp: new Date().toISOString(),
        origin: { server: 'mcpl-example-server', source: 'raise_alert' },
        payload: { content: [{ type: 'text', text: arg(args, 'text') }] },
      });
      return textResult(JSON.stringify(answer), { structuredContent: answer });
    },
  },
  {
    name: 'summarize_notebook',
    featureSet: 'assist.summarize',
    description: "Summarize the notebook with the host's model (inference/request, streamed)",
    properties: {},
    required: [],
    run: async (_args, params, deps) => {
      const facts = deps.notebooks.facts(params);
      const before = new Set(deps.chunks.keys());
      const answer = await ask(deps, Methods.inferenceRequest, {
        featureSet: 'assist.summarize',
        stream: true,
        messages: [
          {
            role: 'user',
            content: `Summarize these facts in one sentence:\n${facts.map((f) => `- ${f}`).join('\n') || '(none)'}`,
          },
        ],
        preferences: { maxTokens: 200 },
      });
      const streams = [...deps.chunks.keys()].filter((id) => !before.has(id));
      const streamed = streams.length === 1 ? deps.chunks.get(streams[0])!.join('') : undefined;
      for (const id of streams) deps.chunks.delete(id);
      return textResult(String(answer.content ?? ''), {
        structuredContent: { ...answer, streamed },
      });
    },
  },
  {
    name: 'which_model',
    featureSet: 'assist.summarize',
    description: 'Ask the host which model it would use (model/info)',
    properties: {},
    required: [],
    run: async (_args, _params, deps) => {
      const answer = await ask(deps, Methods.modelInfo, {});
      return textResult(JSON.stringify(answer), { structuredContent: answer });
    },
  },
  {
    name: 'room_say',
    featureSet: 'chat.room',
    description: 'Someone says something in a chat room: the host gets it as channels/incoming',
    properties: {
      text: str('What they say'),
      author: str('Who says it (default Ada)'),
      channelId: str('The room (default room:general)'),
    },
    required: ['text'],
    run: async (args, _params, deps) => {
      const channelId = typeof args.channelId === 'string' ? args.channelId : 'room:general';
      const author = typeof args.author === 'string' ? args.author : 'Ada';
      const incoming = deps.rooms.say(channelId, author, arg(args, 'text'));
      const answer = await ask(deps, Methods.channelsIncoming, {
        featureSet: 'chat.room',
        ...incoming,
      });
      return textResult(JSON.stringify(answer), { structuredContent: answer });
    },
  },
  {
    name: 'room_log',
    featureSet: 'chat.room',
    description: 'What was said in a chat room, the host posts among it',
    properties: { channelId: str('The room (default room:general)') },
    required: [],
    run: async (args, _params, { rooms }) => {
      const channelId = typeof args.channelId === 'string' ? args.channelId : 'room:general';
      const messages = rooms.room(channelId).messages;
      return textResult(messages.map((m) => `${m.author}: ${m.text}`).join('\n') || '(empty)', {
        structuredContent: { messages },
      });
    },
  },
];

export function listTools(): Json[] {
  return TOOLS.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: { type: 'object', properties: tool.properties, required: tool.required },
    _meta: {
      'mcpl/featureSet': tool.featureSet,
      ...(tool.scopeArgument ? { 'mcpl/scopeArgument': tool.scopeArgument } : {}),
    },
  }));
}

/** tools/call, its params as sent (with MCPL's `state`, `checkpoint`, `scope`). */
export async function callTool(params: Json, deps: ToolDeps): Promise<Json> {
  const tool = TOOLS.find((t) => t.name === params.name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${String(params.name)}`);
  if (deps.session.hostSpeaksMcpl) deps.session.require(tool.featureSet);
  const args = (params.arguments ?? {}) as Json;
  try {
    return await tool.run(args, params, deps);
  } catch (error) {
    if (error instanceof McpError && error.code !== ErrorCode.InvalidParams)
      return { ...textResult(`${tool.name}: ${error.message}`), isError: true };
    throw error;
  }
}
