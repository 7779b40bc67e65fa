/**
 * `mgp a2a agents|card|send|task|cancel`: the external A2A agents of the config (`[[a2a.external_agents]]`).
 * `send`, `task` and `cancel` are tool calls of the agent's server `a2a.<name>` through the kernel's
 * pipeline (access, approval, audit), as from any other caller; `card URL` reads a card the person
 * names, with no config. What a card says is the agent's words: shown escaped and labelled so.
 */
import { oneLine } from '@shared/untrustedText';
import {
  A2A_META,
  A2A_SERVER_PREFIX,
  A2A_TOOLS,
  a2aServerId,
  type AgentCardSummary,
  cardAt,
  type ConfiguredServer,
  DIALECT_NAMES,
} from '../kernel';
import { describeError } from './callCommand';
import { startCliKernel } from './cliKernel';
import { exitCodeOfError, exitCodeOfResult } from './exitCodes';
import { CommandLine, describeFlags, Flags, parseCommandLine, UsageError } from './flags';
import type { Io } from './io';
import { JSON_FLAG, KERNEL_FLAGS, KernelOptions, kernelOptions } from './options';

export const A2A_USAGE = `mgp a2a agents [--json]             the external agents of the config: reachability, the dialect
                                    each speaks (A2A 1.0, A2A 0.3, OpenFang's), their skills
mgp a2a card URL [--json]           read the agent card at URL (URL/.well-known/agent-card.json,
                                    then URL/.well-known/agent.json)
mgp a2a send AGENT "TEXT" [--stream] [--task-id ID] [--context-id ID] [--json]
                                    delegate: send TEXT to the agent and wait for its task to end,
                                    through the kernel's checks (approval, audit); --stream shows
                                    the task's states as they change; --task-id answers a task that
                                    asked for input
mgp a2a task AGENT ID [--json]      the agent's task ID: its state, messages and artifacts
mgp a2a cancel AGENT ID [--json]    cancel the agent's task ID
AGENT is the name in [[a2a.external_agents]]. send, task and cancel take the flags of mgp call
(--config, --cwd, --trust, --approve once|session). Exit status as mgp call's.`;

const SEND_FLAGS = {
  stream: { type: 'boolean' },
  'task-id': { type: 'string', value: 'ID' },
  'context-id': { type: 'string', value: 'ID' },
  ...JSON_FLAG,
  ...KERNEL_FLAGS,
} as const;

const ACTIONS = {
  agents: { ...JSON_FLAG, ...KERNEL_FLAGS },
  card: { ...JSON_FLAG },
  send: SEND_FLAGS,
  task: { ...JSON_FLAG, ...KERNEL_FLAGS },
  cancel: { ...JSON_FLAG, ...KERNEL_FLAGS },
} satisfies Record<string, Flags>;

type Action = keyof typeof ACTIONS;

function isAction(name: string | undefined): name is Action {
  return name !== undefined && Object.hasOwn(ACTIONS, name);
}

/** The card in words, each of the agent's own escaped and marked as its words. */
export function describeCard(card: AgentCardSummary): string[] {
  const lines = [
    `  speaks ${DIALECT_NAMES[card.dialect]}${card.protocolVersion ? ` (${oneLine(card.protocolVersion)})` : ''} at ${oneLine(card.endpoint)}, ${card.streaming ? 'streams' : 'polled'}`,
    `  its card says (the agent's words): "${oneLine(card.name)}": ${oneLine(card.description) || '(no description)'}`,
  ];
  for (const skill of card.skills)
    lines.push(
      `  skill (the agent's words): ${oneLine(skill.name)}: ${oneLine(skill.description)}`,
    );
  return lines;
}

async function agents(options: KernelOptions & { json: boolean }, io: Io): Promise<number> {
  const isAgent = (server: ConfiguredServer) => server.a2a !== undefined;
  const cli = await startCliKernel(options, io, isAgent);
  try {
    const rows = cli.kernel.manager
      .list()
      .filter((server) => server.config.a2a)
      .map((server) => ({
        name: server.config.a2a?.name ?? server.id,
        server_id: server.id,
        url: server.config.url,
        state: server.state,
        error: server.lastError,
        source: server.config.source,
        card: cli.kernel.a2a.cardOf(server.id) ?? null,
      }));
    if (options.json) io.out(JSON.stringify(rows, null, 2));
    else if (rows.length === 0) io.out('no external agents configured ([[a2a.external_agents]])');
    else
      for (const row of rows) {
        io.out(
          `${row.name}\t${row.server_id}\t${row.url}\t${row.state}${row.error ? `: ${row.error}` : ''}`,
        );
        if (row.card) for (const line of describeCard(row.card)) io.out(line);
      }
    return rows.some((row) => row.state !== 'connected') ? 1 : 0;
  } finally {
    await cli.close();
  }
}

async function card(url: string, json: boolean, io: Io): Promise<number> {
  try {
    new URL(url);
  } catch {
    throw new UsageError(`"${url}" is not a URL`);
  }
  try {
    const { summary, raw } = await cardAt(url);
    if (json) io.out(JSON.stringify({ summary, card: raw }, null, 2));
    else {
      io.out(`${oneLine(summary.name)} (${summary.cardUrl})`);
      for (const line of describeCard(summary)) io.out(line);
    }
    return 0;
  } catch (error) {
    io.err(`mgp a2a card: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

interface CallPlan {
  agent: string;
  tool: string;
  args: Record<string, unknown>;
  stream: boolean;
  json: boolean;
}

async function callAgent(options: KernelOptions, plan: CallPlan, io: Io): Promise<number> {
  const serverId = a2aServerId(plan.agent);
  const cli = await startCliKernel(options, io, serverId);
  try {
    if (!cli.kernel.manager.find(serverId)?.config.a2a)
      throw new Error(`no external agent "${plan.agent}" is configured`);
    const outcome = await cli.kernel.call({
      serverId,
      toolName: plan.tool,
      args: plan.args,
      onProgress: plan.stream
        ? (progress) => {
            if (progress.message) io.err(progress.message);
          }
        : undefined,
    });
    const result = outcome.result;
    if (plan.json)
      io.out(
        JSON.stringify(
          {
            ...result,
            _kernel: {
              trace_id: outcome.traceId,
              risk_level: outcome.security?.risk_level,
              a2a: result._meta?.[A2A_META],
            },
          },
          null,
          2,
        ),
      );
    else
      for (const item of result.content ?? [])
        io.out(
          item.type === 'text'
            ? item.text
            : `[${item.type}${'mimeType' in item ? ` ${String(item.mimeType)}` : ''}]`,
        );
    return exitCodeOfResult(result);
  } catch (error) {
    const described = describeError(error);
    if (plan.json) io.out(JSON.stringify({ error: described }, null, 2));
    io.err(
      `mgp a2a: ${described.code !== undefined ? `${described.code}: ` : ''}${described.message}`,
    );
    return exitCodeOfError(error);
  } finally {
    await cli.close();
  }
}

function agentName(raw: string | undefined): string {
  if (!raw) throw new UsageError('name an agent (its name in [[a2a.external_agents]])');
  return raw.startsWith(A2A_SERVER_PREFIX) ? raw.slice(A2A_SERVER_PREFIX.length) : raw;
}

/** `mgp a2a ACTION …`: each action's flags parsed once; bad usage names them. */
export async function runA2a(args: string[], io: Io): Promise<number> {
  const [action, ...rest] = args;
  if (action === '--help' || action === '-h') {
    io.out(A2A_USAGE);
    return 0;
  }
  if (!isAction(action))
    throw new UsageError(
      `${action ? `unknown action "${action}"` : 'no action'}: agents, card, send, task or cancel\n\n${A2A_USAGE}`,
    );
  const line = parseCommandLine(`mgp a2a ${action}`, rest, ACTIONS[action] as Flags);
  if (line.help) {
    io.out(A2A_USAGE);
    return 0;
  }
  const values = line.values as CommandLine<typeof SEND_FLAGS>['values'];
  const json = values.json === true;
  const [first, second, ...extra] = line.positionals;
  const takes = () => `; mgp a2a ${action} takes ${describeFlags(ACTIONS[action])}`;
  switch (action) {
    case 'agents':
      if (first !== undefined) throw new UsageError(`unexpected argument "${first}"${takes()}`);
      return agents({ ...kernelOptions(values), json }, io);
    case 'card':
      if (!first || second !== undefined)
        throw new UsageError(`name one URL, e.g. mgp a2a card https://agent.example.com${takes()}`);
      return card(first, json, io);
    case 'send': {
      if (!first || second === undefined || extra.length)
        throw new UsageError(
          `name an agent and the text to send, e.g. mgp a2a send research "Summarise …"${takes()}`,
        );
      const args: Record<string, unknown> = { message: second };
      if (values['task-id']) args.task_id = values['task-id'];
      if (values['context-id']) args.context_id = values['context-id'];
      return callAgent(
        kernelOptions(values),
        {
          agent: agentName(first),
          tool: A2A_TOOLS.delegate,
          args,
          stream: values.stream === true,
          json,
        },
        io,
      );
    }
    case 'task':
    case 'cancel':
      if (!first || second === undefined || extra.length)
        throw new UsageError(
          `name an agent and a task id, e.g. mgp a2a ${action} research 1f2e…${takes()}`,
        );
      return callAgent(
        kernelOptions(values),
        {
          agent: agentName(first),
          tool: action === 'task' ? A2A_TOOLS.getTask : A2A_TOOLS.cancelTask,
          args: { task_id: second },
          stream: false,
          json,
        },
        io,
      );
  }
}
