/**
 * `mgp validate client --command "CMD"`: a client's MGP compliance, tier by tier (MGP §17.8), judged
 * from what a probe server saw it do in each scenario. Output, `--json`, `--junit FILE`,
 * `--require-tier N` and the exit status are those of `mgp validate server`.
 */
import { clientArgv, validateClient } from '../kernel';
import { type CommandLine, UsageError } from './flags';
import type { Io } from './io';
import { finishReport, positiveNumber, printCheck, requiredTier } from './validateOutput';

export const VALIDATE_CLIENT_FLAGS = {
  command: { type: 'string', value: 'CMD' },
  json: { type: 'boolean' },
  junit: { type: 'string', value: 'FILE' },
  'require-tier': { type: 'string', value: 'N' },
  timeout: { type: 'string', value: 'SECONDS' },
} as const;

export interface ValidateClientCliOptions {
  command: string;
  json: boolean;
  junit?: string;
  requireTier?: number;
  timeoutMs?: number;
}

export function validateClientOptions(
  line: CommandLine<typeof VALIDATE_CLIENT_FLAGS>,
): ValidateClientCliOptions {
  const { values, positionals } = line;
  if (positionals.length)
    throw new UsageError(
      `unexpected argument "${positionals[0]}": give the client's command line as one --command "CMD ARGS..."`,
    );
  if (values.command === undefined)
    throw new UsageError('name the client: --command "CMD ARGS..."');
  try {
    clientArgv(values.command);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const timeout = positiveNumber('timeout', values.timeout);
  return {
    command: values.command,
    json: values.json === true,
    junit: values.junit,
    requireTier: requiredTier(values['require-tier']),
    timeoutMs: timeout === undefined ? undefined : timeout * 1000,
  };
}

export async function runValidateClient(
  options: ValidateClientCliOptions,
  io: Io,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  if (!options.json) io.out(`Validating the client ${options.command}`);
  const report = await validateClient({
    command: options.command,
    timeoutMs: options.timeoutMs,
    env,
    onResult: options.json ? undefined : (check) => printCheck(io, check),
  });
  return finishReport(report, options, io);
}
