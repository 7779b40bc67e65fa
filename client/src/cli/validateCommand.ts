/**
 * `mgp validate server`: a server's MGP compliance, tier by tier (MGP §17.8), as the kernel's own
 * connection code sees it. The target is a command line after `--` (stdio), `--url URL` (Streamable
 * HTTP, falling back to SSE; OAuth as for `mgp call`), or `--config FILE --server ID`.
 * One line per check, then "Result: Tier N compliant (k/11 extensions)"; `--json` the report,
 * `--junit FILE` for CI, `--badge FILE` the tier badge (SVG) with its Markdown line.
 * Exit 1 when a check FAILs, or the server is below `--require-tier N`; 2 on bad usage.
 */
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import {
  badgeMarkdown,
  badgeSvg,
  describeTarget,
  kernelSandbox,
  stateDirectory,
  validateServer,
  type ValidationTarget,
} from '../kernel';
import { cliAuthorizations, signInFlow } from './cliAuthorization';
import { type CommandLine, parseCommandLine, UsageError } from './flags';
import type { Io } from './io';
import { loadCliConfig } from './options';
import {
  runValidateClient,
  VALIDATE_CLIENT_FLAGS,
  validateClientOptions,
} from './validateClientCommand';
import { finishReport, positiveNumber, printCheck, requiredTier } from './validateOutput';

export const VALIDATE_SERVER_FLAGS = {
  url: { type: 'string', value: 'URL' },
  transport: { type: 'string', value: 'http|sse' },
  config: { type: 'string', value: 'FILE' },
  server: { type: 'string', value: 'ID' },
  json: { type: 'boolean' },
  junit: { type: 'string', value: 'FILE' },
  badge: { type: 'string', value: 'FILE' },
  'require-tier': { type: 'string', value: 'N' },
  'allow-dangerous': { type: 'boolean' },
  timeout: { type: 'string', value: 'SECONDS' },
} as const;

export const VALIDATE_USAGE = `mgp validate server -- CMD [ARGS...]     validate a stdio server started with this command
mgp validate server --url URL [--transport http|sse]
                                         validate a Streamable HTTP (or SSE) server; OAuth as for mgp call
mgp validate server --config FILE --server ID
                                         validate a server of a config file
Options:
  --json               the report as JSON (a stable interface)
  --junit FILE         also write the checks as JUnit XML, for CI
  --badge FILE         also write the tier badge as SVG, and print its Markdown line
  --require-tier N     exit 1 unless the server reaches MGP Tier N (1-4)
  --allow-dangerous    let checks call tools the server marks dangerous (never without it)
  --timeout SECONDS    how long one check may take before it FAILs as hanging (default 10)
Each check names its spec section and ends PASS, MISSING (an optional part not implemented),
FAIL (implemented wrongly: what was expected, what came) or SKIPPED (could not be judged, and why).
The tier is the highest MGP tier (MGP §17.5) all of whose checks, and all below, pass.
Exit status: 0 when no check fails (and the tier is reached), 1 otherwise, 2 on bad usage.`;

export const VALIDATE_CLIENT_USAGE = `mgp validate client --command "CMD ARGS..."
                                         validate an MCP/MGP client: for each scenario a probe server
                                         (Streamable HTTP on 127.0.0.1) is started and CMD run with no
                                         shell, the server's URL added as its last argument and the
                                         scenario in MGP_VALIDATE_SCENARIO (and MCP_CONFORMANCE_SCENARIO),
                                         what it asks as JSON in MGP_VALIDATE_CONTEXT (and
                                         MCP_CONFORMANCE_CONTEXT); the checks judge what the server saw
Options:
  --json               the report as JSON (a stable interface)
  --junit FILE         also write the checks as JUnit XML, for CI
  --require-tier N     exit 1 unless the client reaches MGP Tier N (1-4)
  --timeout SECONDS    how long the client may take for one scenario before its process group is
                       killed and the scenario FAILs (default 30)
Checks, statuses, the tier and the exit status are as for mgp validate server.`;

export interface ValidateServerCliOptions {
  target: ValidationTarget;
  json: boolean;
  junit?: string;
  badge?: string;
  requireTier?: number;
  allowDangerous: boolean;
  timeoutMs?: number;
}

export function validateServerOptions(
  line: CommandLine<typeof VALIDATE_SERVER_FLAGS>,
  command: string[],
  cwd = process.cwd(),
): ValidateServerCliOptions & { configFile?: string; serverId?: string } {
  const { values, positionals } = line;
  if (positionals.length)
    throw new UsageError(
      `unexpected argument "${positionals[0]}": put the server's command after --`,
    );
  const targets = [command.length > 0, values.url !== undefined, values.config !== undefined];
  if (targets.filter(Boolean).length !== 1)
    throw new UsageError(
      'name one server: -- CMD ARGS..., --url URL, or --config FILE --server ID',
    );
  if (values.config !== undefined && !values.server)
    throw new UsageError('--config needs --server ID');
  if (values.server !== undefined && values.config === undefined)
    throw new UsageError('--server goes with --config FILE');
  if (values.transport !== undefined && values.transport !== 'http' && values.transport !== 'sse')
    throw new UsageError('--transport must be http or sse');
  if (values.transport !== undefined && values.url === undefined)
    throw new UsageError('--transport goes with --url');
  const timeout = positiveNumber('timeout', values.timeout);
  const common = {
    json: values.json === true,
    junit: values.junit,
    badge: values.badge,
    requireTier: requiredTier(values['require-tier']),
    allowDangerous: values['allow-dangerous'] === true,
    timeoutMs: timeout === undefined ? undefined : timeout * 1000,
  };
  if (values.url !== undefined) {
    let url: URL;
    try {
      url = new URL(values.url);
    } catch {
      throw new UsageError(`--url ${values.url} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError('--url must be http: or https:');
    return {
      ...common,
      target: {
        kind: 'url',
        url: values.url,
        transport: values.transport as 'http' | 'sse' | undefined,
        cwd,
      },
    };
  }
  if (values.config !== undefined)
    return {
      ...common,
      // Loaded when the command runs (validateServerCommand); a placeholder until then.
      target: { kind: 'command', command: '', args: [], cwd },
      configFile: values.config,
      serverId: values.server,
    };
  const [program, ...args] = command;
  return { ...common, target: { kind: 'command', command: program, args, cwd } };
}

export async function runValidateServer(
  options: ValidateServerCliOptions & { configFile?: string; serverId?: string },
  io: Io,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  let target = options.target;
  if (options.configFile) {
    const config = await loadCliConfig({ config: options.configFile });
    const ids = config.servers.map((server) => server.id);
    if (!ids.includes(options.serverId ?? ''))
      throw new UsageError(
        `${options.configFile} has no server "${options.serverId}"${ids.length ? ` (it has ${ids.join(', ')})` : ''}`,
      );
    target = { kind: 'config', config, serverId: options.serverId ?? '' };
  }
  // A config's stdio server runs in the sandbox its policy asks for, as `mgp call` would run it.
  const sandbox = options.configFile ? kernelSandbox(env, [process.cwd()]) : undefined;
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY);
  const stateDir = stateDirectory({ workspaceFolder: process.cwd(), env, home: homedir() });
  const authorization = cliAuthorizations(stateDir, signInFlow(env, interactive), io, env);
  if (!options.json)
    io.out(
      `Validating ${target.kind === 'config' ? `server "${target.serverId}" of ${options.configFile}` : describeTarget(target)}`,
    );
  const report = await validateServer({
    target,
    hostEnv: env,
    authorization,
    sandbox,
    allowDangerous: options.allowDangerous,
    checkTimeoutMs: options.timeoutMs,
    onResult: options.json ? undefined : (check) => printCheck(io, check),
  });
  const code = await finishReport(report, options, io);
  if (options.badge) {
    await writeFile(resolve(options.badge), badgeSvg(report));
    const line = `Badge: ${badgeMarkdown(report, options.badge)}`;
    if (options.json) io.err(line);
    else io.out(line);
  }
  return code;
}

/** `mgp validate server …` or `mgp validate client …`, each with its own flags. */
export async function runValidate(args: string[], io: Io): Promise<number> {
  const [kind, ...rest] = args;
  const dashes = rest.indexOf('--');
  const own = dashes === -1 ? rest : rest.slice(0, dashes);
  const command = dashes === -1 ? [] : rest.slice(dashes + 1);
  if (kind === 'server') {
    const line = parseCommandLine('mgp validate server', own, VALIDATE_SERVER_FLAGS);
    if (line.help) {
      io.out(VALIDATE_USAGE);
      return 0;
    }
    return runValidateServer(validateServerOptions(line, command), io);
  }
  if (kind === 'client') {
    const line = parseCommandLine('mgp validate client', rest, VALIDATE_CLIENT_FLAGS);
    if (line.help) {
      io.out(VALIDATE_CLIENT_USAGE);
      return 0;
    }
    return runValidateClient(validateClientOptions(line), io);
  }
  if (kind === undefined || kind === '--help' || kind === '-h') {
    io.out(`${VALIDATE_USAGE}\n\n${VALIDATE_CLIENT_USAGE}`);
    return kind === undefined ? 2 : 0;
  }
  throw new UsageError(`validate what? "server" or "client", not "${kind}"`);
}
