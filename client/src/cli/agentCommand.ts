/**
 * `mgp agent "TASK"`: the kernel's agent loop in the terminal, on the OpenAI-compatible endpoint of
 * `MGP_MODEL_URL` (`MGP_MODEL`, `MGP_MODEL_KEY`), as `agent.cli`. The model starts with the
 * meta-tools and finds the rest; every call goes through the kernel's checks. On a terminal the
 * operator is asked when the approval policy says so; without one, `--approve once|session` answers,
 * and with neither the policy decides and calls that need an approval are refused, as for `mgp call`.
 */
import {
  type AgentObserver,
  type AgentRunRecord,
  AgentSession,
  type ChatModel,
  isChatModel,
  CLI_AGENT_ID,
  DEFAULT_LOOP_GUARD,
  DEFAULT_MAX_STEPS,
  type ToolCallRecord,
} from '../kernel';
import { CliEnvironment, startCliKernel } from './cliKernel';
import type { Io } from './io';
import { EXIT, exitCodeOfRun } from './exitCodes';
import { CommandLine, UsageError, wholeNumber } from './flags';
import { JSON_FLAG, KERNEL_FLAGS, KernelOptions, kernelOptions } from './options';

export const AGENT_USAGE = `mgp agent "TASK" [--max-steps N] [--loop-guard N] [--approve once|session] [--json]
                                     run an agent on the model of MGP_MODEL_URL (MGP_MODEL,
                                     MGP_MODEL_KEY) as agent.cli: it finds tools with the MGP §16
                                     meta-tools and calls them through the kernel's checks.
                                     --max-steps: inferences at most (${DEFAULT_MAX_STEPS}); --loop-guard: identical
                                     calls in a row that stop it (${DEFAULT_LOOP_GUARD}); --json: the whole transcript.
                                     Exit 0 answered, 3 a call was refused, 4 a limit
                                     stopped it, 1 the model failed; Ctrl-C cancels (130)`;

export const AGENT_FLAGS = {
  'max-steps': { type: 'string', value: 'N' },
  'loop-guard': { type: 'string', value: 'N' },
  ...JSON_FLAG,
  ...KERNEL_FLAGS,
} as const;

export interface AgentOptions extends KernelOptions {
  task: string;
  maxSteps: number;
  loopGuard: number;
  json: boolean;
}

export function agentOptions({
  values,
  positionals,
}: CommandLine<typeof AGENT_FLAGS>): AgentOptions {
  const task = positionals.join(' ').trim();
  if (!task) throw new UsageError('say what the agent should do, e.g. mgp agent "list my notes"');
  return {
    ...kernelOptions(values),
    task,
    maxSteps: wholeNumber('max-steps', values['max-steps'], DEFAULT_MAX_STEPS, 1),
    loopGuard: wholeNumber('loop-guard', values['loop-guard'], DEFAULT_LOOP_GUARD, 2),
    json: values.json === true,
  };
}

function shortJson(value: unknown, max = 160): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function outcomeLine(record: ToolCallRecord): string {
  const facts = [
    record.decision,
    record.approval ? `approval ${record.approval}` : '',
    record.code !== undefined ? `code ${record.code}` : '',
    record.evicted?.length ? `evicted ${record.evicted.join(', ')}` : '',
    record.trace_id ? `trace ${record.trace_id}` : '',
  ].filter(Boolean);
  const first = record.result.split('\n')[0];
  return `  ${facts.join(' · ')}\n  ${first.length > 200 ? `${first.slice(0, 200)}…` : first}`;
}

/** What a person at the terminal sees: the answer on stdout as it streams, the calls on stderr. */
function terminalObserver(io: Io): AgentObserver {
  const write = io.write ?? ((text: string) => void process.stdout.write(text));
  let midLine = false;
  const endLine = () => {
    if (midLine) write('\n');
    midLine = false;
  };
  return {
    onText: (delta) => {
      write(delta);
      midLine = !delta.endsWith('\n');
    },
    onToolCall: (call) => {
      endLine();
      const name = call.serverId === 'mgp' ? call.toolName : `${call.serverId}.${call.toolName}`;
      io.err(`→ ${name} ${shortJson(call.args)}`);
    },
    onToolResult: (record) => {
      if (!record.trace_id) io.err(`→ ${record.name} ${shortJson(record.arguments)}`);
      io.err(outcomeLine(record));
    },
    onStepEnd: () => endLine(),
  };
}

/** `mgp agent "TASK"`. */
export async function runAgent(
  options: AgentOptions,
  io: Io,
  environment: CliEnvironment = {},
): Promise<number> {
  const { task, maxSteps, loopGuard, json } = options;
  const env = environment.env ?? process.env;
  if (!env.MGP_MODEL_URL) {
    io.err(
      'mgp agent: no model: set MGP_MODEL_URL to an OpenAI-compatible endpoint (e.g. http://localhost:11434/v1), MGP_MODEL to its model, and MGP_MODEL_KEY if it needs a key',
    );
    return EXIT.usage;
  }
  const cli = await startCliKernel(options, io, undefined, environment);
  const model: ChatModel | undefined = cli.kernel.models.available.find(isChatModel);
  if (!model) {
    await cli.close();
    io.err('mgp agent: the configured model endpoint cannot chat with tools');
    return EXIT.usage;
  }
  const session = new AgentSession(cli.kernel, { agentId: CLI_AGENT_ID });
  const controller = new AbortController();
  const cancel = () => controller.abort();
  process.once('SIGINT', cancel);
  let record: AgentRunRecord;
  try {
    record = await session.run({
      model,
      task,
      maxSteps,
      loopGuard,
      signal: controller.signal,
      observer: json ? {} : terminalObserver(io),
    });
  } finally {
    process.off('SIGINT', cancel);
    session.close();
    await cli.close();
  }
  if (json) io.out(JSON.stringify(record, null, 2));
  else if (record.stop.reason !== 'answered') io.err(`mgp agent: ${record.stop.message}`);
  return exitCodeOfRun(record);
}
