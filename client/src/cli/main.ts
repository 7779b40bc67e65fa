import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { MGP_KERNEL_VERSION } from '../../../shared/src/version';
import { loadKernelConfig } from '../kernel/config/load';
import type { ConfigProblem } from '../kernel/config/model';
import { serverTarget } from '../kernel/status';
import { runCheck } from './check';
import type { Io } from './io';

const USAGE = `mgp ${MGP_KERNEL_VERSION}: the MGP Kernel, headless

Usage:
  mgp check FILE... [--json]         check config files (mgp.toml, mcp.toml, servers.toml, OpenFang
                                     config.toml) with the language server's diagnostics
  mgp servers [--json] [--cwd DIR]   list the servers configured for DIR (default: the current folder)
  mgp --version                      print the version
  mgp --help                         print this help

Config files are read in this order, the nearer winning for the same server id: DIR/mgp.toml,
DIR/mcp.toml, ~/.config/mgp/servers.toml, $MGP_CONFIG_PATH, DIR/config.toml and
~/.openfang/config.toml (OpenFang).
\`--json\` prints diagnostics as [{file, range:{start:{line,character},end:{line,character}}, severity,
code, message}] with 0-based positions: a stable interface for scripts.
Exit status: 0 on success, 1 when a config file has errors, 2 on bad usage.`;


function formatProblem(problem: ConfigProblem): string {
  return `${problem.file}:${problem.line}:${problem.column}: ${problem.severity}: ${problem.message}${problem.key ? ` [${problem.key}]` : ''}`;
}

async function listServers(args: string[], io: Io): Promise<number> {
  const json = args.includes('--json');
  const cwdAt = args.indexOf('--cwd');
  if (cwdAt >= 0 && !args[cwdAt + 1]) {
    io.err('mgp servers: --cwd needs a folder');
    return 2;
  }
  const folder = resolve(cwdAt >= 0 ? args[cwdAt + 1] : process.cwd());
  const config = await loadKernelConfig({ workspaceFolders: [folder], home: homedir(), env: process.env });
  for (const problem of config.problems) io.err(formatProblem(problem));
  if (json) {
    const servers = config.servers.map(({ id, transport, command, args: serverArgs, url, source }) => ({ id, transport, command, args: serverArgs, url, source }));
    io.out(JSON.stringify(servers, null, 2));
  } else if (config.servers.length === 0) {
    io.out(`no servers configured for ${folder}`);
  } else {
    for (const server of config.servers) {
      io.out(`${server.id}\t${server.transport}\t${serverTarget(server)}\t(${server.source.file}:${server.source.line})`);
    }
  }
  return config.problems.some((p) => p.severity === 'error') ? 1 : 0;
}

export async function runCli(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
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
    case 'servers':
      return listServers(rest, io);
    case 'check':
      return runCheck(rest, io);
    default:
      io.err(`mgp: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2), { out: (t) => console.log(t), err: (t) => console.error(t) }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`mgp: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
