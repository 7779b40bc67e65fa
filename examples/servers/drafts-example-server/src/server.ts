/**
 * An MCP server that speaks the MCP draft extensions (Nov 2025): seeded results that say the seed
 * they used (§2), a job whose events come by phase (§4), the implicit cognition fields taken and
 * echoed (§1), and the client resource hints it was told (§5). Over Streamable HTTP its streams are
 * resumable (index.ts). To a client that knows nothing of the draft it is a plain MCP server.
 */
import { randomInt } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { createPrng, type PrngName } from './prng';
import { TOOLS } from './tools';

const PHASES = ['observe', 'abstract', 'decide', 'act', 'verify'] as const;
const WORDS = ['lattice', 'phase', 'signal', 'orbit', 'field', 'bound', 'kernel', 'trace', 'lock'];

type Args = Record<string, unknown>;

export interface DraftServerHooks {
  /** Told each event a call sent (its count so far), with the call's JSON-RPC id. */
  eventSent?(requestId: string | number, count: number): void;
}

function seedOf(args: Args): number {
  return Number.isSafeInteger(args.seed) ? (args.seed as number) : randomInt(0, 2 ** 31);
}

function prngOf(args: Args): PrngName {
  return args.prng === 'lcg' ? 'lcg' : 'xoroshiro';
}

function rollDice(args: Args): CallToolResult {
  const count = Number.isSafeInteger(args.count) ? (args.count as number) : 5;
  const sides = Number.isSafeInteger(args.sides) ? (args.sides as number) : 6;
  const seed = seedOf(args);
  const prng = createPrng(prngOf(args), seed);
  const rolls = Array.from({ length: count }, () => 1 + Math.floor(prng.next() * sides));
  return {
    content: [{ type: 'text', text: `Rolled ${rolls.join(', ')} (d${sides}).` }],
    structuredContent: { rolls, sides },
    _meta: { seed_used: seed, determinism: 'strict' },
  };
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new Error('cancelled'));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('cancelled'));
    });
  });

interface CallContext {
  requestId: string | number;
  progressToken?: string | number;
  signal: AbortSignal;
  send(notification: ServerNotification): Promise<void>;
}

async function research(args: Args, call: CallContext, hooks: DraftServerHooks) {
  const query = typeof args.query === 'string' ? args.query : '';
  const steps = Number.isSafeInteger(args.steps) ? (args.steps as number) : 2;
  const stepMs = Number.isSafeInteger(args.step_ms) ? (args.step_ms as number) : 150;
  const seed = seedOf(args);
  const prng = createPrng('xoroshiro', seed);
  const meta = {
    seed_used: seed,
    determinism: 'best_effort',
    ...(args.resource_hints ? { resource_used: args.resource_hints } : {}),
  };
  const notes: string[] = [];
  let id = 0;
  for (const phase of PHASES)
    for (let step = 1; step <= steps; step++) {
      await wait(stepMs, call.signal);
      const word = WORDS[Math.floor(prng.next() * WORDS.length)];
      notes.push(word);
      id += 1;
      await call.send({
        method: 'notifications/job/event',
        params: {
          ...(call.progressToken !== undefined ? { progressToken: call.progressToken } : {}),
          id,
          ts: new Date().toISOString(),
          phase,
          event_type: `${phase}_step`,
          payload: { content: `${phase} ${step}/${steps}: ${word}` },
          meta,
        },
      } as unknown as ServerNotification);
      hooks.eventSent?.(call.requestId, id);
    }
  const received = Object.fromEntries(
    ['agent_mode', 'algebra', 'resource_hints'].filter((k) => k in args).map((k) => [k, args[k]]),
  );
  return {
    content: [{ type: 'text', text: `On "${query}": ${notes.join(' ')}.` }],
    structuredContent: { events: id, received },
    _meta: { seed_used: seed, determinism: 'best_effort' },
  } satisfies CallToolResult;
}

export function createDraftServer(hooks: DraftServerHooks = {}): Server {
  const server = new Server(
    { name: 'drafts-example-server', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Args;
    switch (request.params.name) {
      case 'roll_dice':
        return rollDice(args);
      case 'research':
        return research(
          args,
          {
            requestId: extra.requestId,
            progressToken: request.params._meta?.progressToken,
            signal: extra.signal,
            send: (notification) => extra.sendNotification(notification),
          },
          hooks,
        );
      case 'echo_arguments':
        return {
          content: [{ type: 'text', text: JSON.stringify(args) }],
          structuredContent: { received: args },
        };
      case 'client_hints': {
        const hints = server.getClientCapabilities()?.experimental?.client_resource_hints ?? null;
        return {
          content: [{ type: 'text', text: JSON.stringify(hints) }],
          structuredContent: { hints },
        };
      }
      default:
        throw new McpError(ErrorCode.InvalidParams, `no tool ${request.params.name}`);
    }
  });
  return server;
}
