import { homedir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { visibleText } from '@shared/untrustedText';
import { MGP_KERNEL_VERSION } from '@shared/version';
import {
  CLI_OPERATOR,
  type ConfigProblem,
  describeIsolation,
  endGroupsOnSignals,
  LaunchApprovals,
  MemoryAuditSink,
  serverTarget,
  stateDirectory,
  Switches,
} from '../kernel';
import { EXIT_CODES_HELP } from './exitCodes';
import { isolationOf } from './serverIsolation';
import { AGENT_FLAGS, AGENT_USAGE, agentOptions, runAgent } from './agentCommand';
import { A2A_USAGE, runA2a } from './a2aCommands';
import { runAudit } from './auditCommands';
import { runAuth } from './authCommands';
import { CALL_FLAGS, callOptions, runCall } from './callCommand';
import {
  CATALOG_FLAGS,
  COMPLETE_FLAGS,
  completeOptions,
  promptsOptions,
  resourcesOptions,
  runComplete,
  runPrompts,
  runResources,
} from './catalogCommands';
import { CHECK_FLAGS, checkOptions, runCheck } from './check';
import { CommandLine, Flags, parseCommandLine, UsageError } from './flags';
import {
  ACCESS_FLAGS,
  accessOptions,
  DISCOVER_FLAGS,
  discoverOptions,
  EVENTS_FLAGS,
  eventsOptions,
  runAccess,
  runDiscover,
  runEvents,
  runTools,
  TOOLS_FLAGS,
  toolsOptions,
} from './kernelCommands';
import {
  CHANNELS_FLAGS,
  channelsOptions,
  CHECKPOINTS_FLAGS,
  checkpointsOptions,
  FEATURE_SETS_FLAGS,
  featureSetsOptions,
  runChannels,
  runCheckpoints,
  runFeatureSets,
} from './mcplCommands';
import {
  CONFIG_FLAGS,
  configOptions,
  ConfigOptions,
  JSON_FLAG,
  loadCliConfig,
  workspaceFolderOf,
} from './options';
import { Io, processIo, visibleIo } from './io';
import { isTrustLine, runTrust, TRUST_FLAGS, TRUST_USAGE, trustOptions } from './trustCommands';
import { allowCommand, StartApproval, startApprovals } from './workspaceTrust';
import { runValidate } from './validateCommand';
import { runInit } from './initCommand';
import { runServe, SERVE_FLAGS, SERVE_USAGE, serveOptions } from './serveCommand';
import { METRICS_FLAGS, METRICS_USAGE, metricsOptions, runMetrics } from './metricsCommand';
import {
  isSwitchLine,
  runSwitch,
  SWITCH_FLAGS,
  SWITCH_USAGE,
  switchOptions,
} from './switchCommands';

const USAGE = `mgp ${MGP_KERNEL_VERSION}: the MGP Kernel, headless

Usage:
  mgp check FILE... [--json]         check config files (mgp.toml, mcp.toml, servers.toml, OpenFang
                                     config.toml) with the language server's diagnostics
  mgp servers [--json] [--cwd DIR]   list the servers configured for DIR (default: the current folder),
                                     marking those turned off and those that wait for your yes
  mgp servers off|on SERVER          turn a server off (it does not start, here or in the editor)
                                     or on again
  mgp servers allow|revoke SERVER... let servers declared in this folder's config start (as they
                                     are defined now), here and in the editor, or take that back
  mgp tools off|on SERVER.TOOL       turn one tool off (offered to no one, calls refused) or on
  mgp tools [--server ID] [--kernel-tools] [--json]
                                     start the servers and list their tools under kernel names,
                                     with each tool's effective risk level
  mgp call SERVER TOOL [--args JSON] [--approve once|session] [--elicit accept-defaults|decline]
           [--stream | --task] [--json] [--seed N] [--prng lcg|xoroshiro] [--repeat N]
                                     call one tool through the kernel's checks (access, approval,
                                     validators, audit). On a terminal it asks when the approval
                                     policy says so; without one it refuses unless --approve is given.
                                     Exit 1 when the tool reports isError, 3 when refused.
                                     SERVER "mgp" calls the kernel's own tools (mgp.health.ping…);
                                     --stream prints the output as it streams (MGP §12), Ctrl-C cancels;
                                     --task runs a tool that allows it as an MCP task: its status on
                                     stderr, then its result; Ctrl-C cancels the task (tasks/cancel);
                                     without a terminal, --elicit answers a server's form with its
                                     defaults (SEP-1034) or declines it (the default);
                                     --seed/--prng go to a tool whose schema declares them (MCP draft
                                     §2), --repeat N says how many of N results were identical
  mgp discover "QUERY" [--strategy keyword|semantic|category] [--max N] [--json]
                                     find tools by what you need (MGP §16)
  ${AGENT_USAGE}
  mgp events [--channels a,b.*] [--min-severity info|warning|error] [--count N] [--json]
                                     follow the events servers publish (MGP §13)
  mgp resources [list|templates] [--server ID] [--json]
                                     the servers' resources, or their resource templates
  mgp resources read URI [--arg NAME=VALUE]... [--server ID] [--json]
                                     read a resource; a template URI is expanded (RFC 6570) with
                                     the --arg values, one for each of its variables
  mgp prompts [list] [--server ID] [--json]
  mgp prompts get NAME [--arg NAME=VALUE]... [--server ID] [--json]
                                     a prompt's messages with its arguments filled in
  mgp complete ARGUMENT [START] --server ID --prompt NAME|--template URI [--arg NAME=VALUE]...
                                     the values the server suggests for a prompt's argument or a
                                     template's variable (completion/complete); --arg gives the
                                     arguments already chosen
  mgp access query|grant|revoke --agent ID --server ID [--tool NAME] [--permission allow|deny]
                [--justification TEXT] [--expires ISO] [--json]
                                     agent access control (MGP §5)
  mgp audit tail|export|verify …     the workspace's audit log (mgp audit --help)
  mgp featuresets [list] | enable|disable|reset SET --server ID [--json]
                                     MCPL feature sets, and your switches (MCPL §6)
  mgp checkpoints [list] | rollback CHECKPOINT --server ID --set NAME [--json]
                                     MCPL state checkpoints kept for the workspace (MCPL §8)
  mgp channels [list] | read CHANNEL --server ID [--wait S] | post CHANNEL TEXT --server ID [--json]
                                     MCPL channels (MCPL §14)
  mgp auth login|logout SERVER, mgp auth status
                                     OAuth sign-in to http and sse servers: the browser, with a
                                     loopback redirect; MGP_OAUTH_FLOW=browser|headless|none chooses
                                     how any command signs in (on a terminal: browser; else none)
${A2A_USAGE.replace(/^/gm, '  ').trimStart()}
  mgp validate server -- CMD ARGS... | --url URL | --config FILE --server ID
           [--json] [--junit FILE] [--badge FILE] [--require-tier N] [--allow-dangerous]
                                     which MGP tier a server reaches (MGP §17.8): one line per check
                                     with its spec section, PASS, MISSING or FAIL (mgp validate --help)
  mgp validate client --command "CMD ARGS..." [--json] [--junit FILE] [--require-tier N]
           [--timeout SECONDS]       which MGP tier a client reaches: CMD is run once per scenario
                                     against a probe server whose URL is its last argument
  mgp init server [DIR]              write a minimal MGP server (TypeScript, the SDK and the server
                                     kit, a validate script) into DIR; never over a file that is there
  mgp serve [--expose meta|all]      the kernel as an MCP server on stdio, for other MCP clients:
                                     their calls take the kernel's checks (mgp serve --help)
  mgp metrics [--http PORT]          the metrics of the editor's kernel on this folder, when turned
                                     on there (mgp metrics --help)
  Every command that reads config takes --config FILE (that file only) or --cwd DIR.
  Every command that starts servers takes --trust: a server declared in the folder's own config
  starts only once you allowed it; on a terminal you are asked, without one it does not start
  unless you allowed it (mgp servers allow, or in the editor), pass --trust (this run only) or
  name it in MGP_PREAPPROVED_SERVERS. Your own config files need no approval.
  A flag a command does not take is bad usage; the message names the flags it takes.
  mgp --version                      print the version
  mgp --help                         print this help

Config files are read in this order, the nearer winning for the same server id: DIR/mgp.toml,
DIR/mcp.toml, ~/.config/mgp/servers.toml, $MGP_CONFIG_PATH, DIR/config.toml and
~/.openfang/config.toml (OpenFang).
\`--json\` prints diagnostics as [{file, range:{start:{line,character},end:{line,character}}, severity,
code, message}] with 0-based positions: a stable interface for scripts.
Exit status: 0 on success, 1 when a config file has errors, 2 on bad usage.
${EXIT_CODES_HELP}`;

function formatProblem(problem: ConfigProblem): string {
  return `${problem.file}:${problem.line}:${problem.column}: ${problem.severity}: ${problem.message}${problem.key ? ` [${problem.key}]` : ''}`;
}

const SERVERS_FLAGS = { ...JSON_FLAG, ...CONFIG_FLAGS } as const;

function serversOptions({
  values,
  positionals,
}: CommandLine<typeof SERVERS_FLAGS>): ConfigOptions & { json: boolean } {
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  return { ...configOptions(values), json: values.json === true };
}

/** The switches of the workspace the options name (which servers are turned off), and its allowed servers. */
async function recordsOf(
  options: ConfigOptions,
): Promise<{ switches: Switches; launches: LaunchApprovals }> {
  const env = process.env;
  const stateDir = stateDirectory({
    workspaceFolder: workspaceFolderOf(options),
    env,
    home: homedir(),
  });
  const switches = new Switches(stateDir);
  // Read only: nothing is granted here, so nothing is audited.
  const launches = new LaunchApprovals({
    stateDir,
    env,
    audit: new MemoryAuditSink(),
    operator: CLI_OPERATOR.agentId,
  });
  await Promise.all([switches.load(), launches.refresh()]);
  return { switches, launches };
}

const WAITING: Partial<Record<StartApproval, string>> = {
  new: 'waits for your yes',
  changed: 'changed since you allowed it',
};

async function listServers(options: ConfigOptions & { json: boolean }, io: Io): Promise<number> {
  const config = await loadCliConfig(options);
  const { switches, launches } = await recordsOf(options);
  const approval = startApprovals(config, launches);
  for (const problem of config.problems) io.err(formatProblem(problem));
  if (options.json) {
    const servers = await Promise.all(
      config.servers.map(async (server) => ({
        id: server.id,
        transport: server.transport,
        command: server.command,
        args: server.args,
        url: server.url,
        source: server.source,
        enabled: !switches.serverOff(server.id),
        approval: approval(server),
        isolation: await isolationOf(server, workspaceFolderOf(options)),
        ...(server.blockedByPolicy ? { blocked_by_policy: server.blockedByPolicy } : {}),
      })),
    );
    io.out(JSON.stringify(servers, null, 2));
  } else if (config.servers.length === 0) {
    io.out('no servers configured');
  } else {
    for (const server of config.servers) {
      const isolation = await isolationOf(server, workspaceFolderOf(options));
      const blocked = server.blockedByPolicy;
      const waiting = blocked
        ? `blocked by policy: ${blocked.reason} (${blocked.file}:${blocked.line})`
        : WAITING[approval(server)];
      io.out(
        `${server.id}\t${server.transport}\t${serverTarget(server)}\t(${server.source.file}:${server.source.line})${switches.serverOff(server.id) ? '\toff' : ''}${waiting ? `\t${waiting}` : ''}${isolation ? `\t${describeIsolation(isolation)}` : ''}`,
      );
    }
    const waiting = config.servers.filter(
      (server) => !server.blockedByPolicy && WAITING[approval(server)],
    );
    if (waiting.length)
      io.err(
        `To let the servers of this folder that wait for your yes start: ${allowCommand(
          waiting.map((server) => server.id),
          options.cwd,
        )}`,
      );
  }
  return config.problems.some((p) => p.severity === 'error') ? 1 : 0;
}

/** A command: its flags, how it runs once they are parsed into its options, its own --help. */
interface Command<F extends Flags> {
  flags: F;
  run(line: CommandLine<F>, io: Io): Promise<number>;
  usage?: string;
}

function command<F extends Flags>(
  flags: F,
  run: Command<F>['run'],
  usage?: string,
): Command<Flags> {
  return { flags, run, usage } as unknown as Command<Flags>;
}

/** Each command with its flags; `audit` and `auth` have commands of their own and parse them. */
const COMMANDS: Record<string, Command<Flags>> = {
  servers: command(SERVERS_FLAGS, (line, io) => listServers(serversOptions(line), io)),
  check: command(CHECK_FLAGS, (line, io) => runCheck(checkOptions(line), io)),
  tools: command(TOOLS_FLAGS, (line, io) => runTools(toolsOptions(line), io)),
  call: command(CALL_FLAGS, (line, io) => runCall(callOptions(line), io)),
  discover: command(DISCOVER_FLAGS, (line, io) => runDiscover(discoverOptions(line), io)),
  events: command(EVENTS_FLAGS, (line, io) => runEvents(eventsOptions(line), io)),
  agent: command(AGENT_FLAGS, (line, io) => runAgent(agentOptions(line), io)),
  resources: command(CATALOG_FLAGS, (line, io) => runResources(resourcesOptions(line), io)),
  prompts: command(CATALOG_FLAGS, (line, io) => runPrompts(promptsOptions(line), io)),
  complete: command(COMPLETE_FLAGS, (line, io) => runComplete(completeOptions(line), io)),
  access: command(ACCESS_FLAGS, (line, io) => runAccess(accessOptions(line), io)),
  featuresets: command(FEATURE_SETS_FLAGS, (line, io) =>
    runFeatureSets(featureSetsOptions(line), io),
  ),
  checkpoints: command(CHECKPOINTS_FLAGS, (line, io) =>
    runCheckpoints(checkpointsOptions(line), io),
  ),
  channels: command(CHANNELS_FLAGS, (line, io) => runChannels(channelsOptions(line), io)),
  serve: command(SERVE_FLAGS, (line, io) => runServe(serveOptions(line), io), SERVE_USAGE),
  metrics: command(
    METRICS_FLAGS,
    (line, io) => runMetrics(metricsOptions(line), io),
    METRICS_USAGE,
  ),
};

/** `mgp servers off|on …` and `mgp tools off|on …`: the switches, with flags of their own. */
function switchCommand(kind: 'servers' | 'tools'): Command<Flags> {
  return command(
    SWITCH_FLAGS,
    (line, io) => runSwitch(switchOptions(kind, line), io),
    SWITCH_USAGE,
  );
}

/** `mgp servers allow|revoke …`: the person's yes to the folder's servers. */
const TRUST_COMMAND = command(
  TRUST_FLAGS,
  (line, io) => runTrust(trustOptions(line), io),
  TRUST_USAGE,
);

export async function runCli(argv: string[], output: Io): Promise<number> {
  const io = visibleIo(output);
  const [name, ...rest] = argv;
  switch (name) {
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      io.out(USAGE);
      return 0;
    case '--version':
    case '-v':
      io.out(MGP_KERNEL_VERSION);
      return 0;
    case 'audit':
      return runAudit(rest, io);
  }
  try {
    if (name === 'auth') return await runAuth(rest, io);
    if (name === 'a2a') return await runA2a(rest, io);
    if (name === 'validate') return await runValidate(rest, io);
    if (name === 'init') return await runInit(rest, io);
    const known = isSwitchLine(name, rest)
      ? switchCommand(name)
      : isTrustLine(name, rest)
        ? TRUST_COMMAND
        : Object.hasOwn(COMMANDS, name)
          ? COMMANDS[name]
          : undefined;
    if (!known) {
      io.err(`mgp: unknown command "${name}"\n\n${USAGE}`);
      return 2;
    }
    const line = parseCommandLine(`mgp ${name}`, rest, known.flags);
    if (line.help) {
      io.out(known.usage ?? USAGE);
      return 0;
    }
    return await known.run(line, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`mgp ${name}: ${error.message}`);
    return 2;
  }
}

if (require.main === module) {
  // The shell grammar (tree-sitter-bash, WebAssembly) has a lexer function large enough that V8's
  // optimizing compile of it, started in the background once it runs hot, takes seconds, and a
  // process waits for such compiles before it exits. A command that lasts a second does not need
  // optimized WebAssembly: the baseline compiler alone, for this process only.
  setFlagsFromString('--liftoff-only');
  endGroupsOnSignals();
  runCli(process.argv.slice(2), processIo).then(
    (code) => exitWhenFlushed(code),
    (error: unknown) => {
      processIo.err(visibleText(`mgp: ${error instanceof Error ? error.message : String(error)}`));
      exitWhenFlushed(1);
    },
  );
}

/**
 * Exits once what was written reached stdout and stderr: on a pipe, writes are asynchronous, and
 * process.exit() alone drops what is still queued (a long listing piped into another program).
 */
function exitWhenFlushed(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}
