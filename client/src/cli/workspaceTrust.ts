/**
 * `mgp`'s start gate, the editor's rule on the terminal: a server declared in a workspace file (the
 * folder's `mgp.toml`, `mcp.toml`, OpenFang `config.toml`) starts only once the person allowed it
 * as it is defined now. Your own config (`~/.config/mgp/servers.toml`, `$MGP_CONFIG_PATH`, a file
 * named with `--config`) needs no yes.
 *
 * The yes is the one the editor keeps (kernel/security/launchApprovals.ts): given in either, it holds
 * in both. On a terminal, a server not allowed yet is asked about before anything starts; without
 * one (piped, or `mgp serve`, whose stdin is its MCP client's stream: that client must not be able to
 * allow a launch) it does not start, and the refusal says what to run. `--trust` allows this run's
 * servers for this run only; `MGP_PREAPPROVED_SERVERS` allows the ones it names.
 */
import {
  type ConfiguredServer,
  type KernelConfig,
  type LaunchApprovals,
  launchDetails,
  type LaunchStanding,
  launchTarget,
  shellWord,
} from '../kernel';
import { oneLine } from '@shared/untrustedText';
import type { Io } from './io';

export interface WorkspaceTrustOptions {
  approvals: LaunchApprovals;
  config: KernelConfig;
  /** The servers this command starts. */
  servers: readonly ConfiguredServer[];
  /** `--trust`: allow them for this run. */
  trust: boolean;
  /** Asks on the terminal and returns the answer; undefined when there is no terminal to ask on. */
  ask?: (question: string) => Promise<string>;
  /** The folder whose state keeps the yes: named in the command the refusal suggests, so it runs from anywhere. */
  folder: string;
  io: Io;
}

/** The start gate for the kernel: true, or why the server waits. */
export type StartGate = (server: ConfiguredServer) => true | string;

/** The files the config read from the workspace folder: their servers need the person's yes. */
export function workspaceFiles(config: KernelConfig): Set<string> {
  return new Set(
    config.files.filter((f) => f.location.origin === 'workspace').map((f) => f.location.path),
  );
}

/** What a server's start waits for: nothing (your own config, or allowed), or the person's yes. */
export type StartApproval = 'not needed' | LaunchStanding;

/** Each server's standing with the record as last read: workspace servers need a yes. */
export function startApprovals(
  config: KernelConfig,
  approvals: LaunchApprovals,
): (server: ConfiguredServer) => StartApproval {
  const inWorkspace = workspaceFiles(config);
  return (server) =>
    inWorkspace.has(server.source.file) ? approvals.standing(server) : 'not needed';
}

/** The command that allows these servers for good, as the person would type it. */
export function allowCommand(ids: readonly string[], cwd?: string): string {
  const where = cwd === undefined ? '' : ` --cwd ${shellWord(cwd)}`;
  return `mgp servers allow ${ids.map(shellWord).join(' ')}${where}`;
}

/** The server as the question and the refusal show it: where it is declared and all that runs. */
export function launchDescription(server: ConfiguredServer, changed: boolean): string {
  const heading = changed
    ? `MCP server ${oneLine(server.id)} from this folder changed since you allowed it`
    : `MCP server ${oneLine(server.id)} comes from this folder and you have not allowed it to start`;
  return [
    heading,
    `  declared in ${oneLine(server.source.file)}:${server.source.line}`,
    ...[launchTarget(server), ...launchDetails(server)].map((line) => `  ${line}`),
  ].join('\n');
}

const TERMINAL_QUESTION =
  '  It runs with your permissions: start only servers you trust.\n  Start it? [y]es, and remember it for this folder; [o]nce, for this run; [N]o: ';

/** Asks about each server waiting for a yes, or refuses it; returns the gate the kernel starts through. */
export async function settleWorkspaceServers(options: WorkspaceTrustOptions): Promise<StartGate> {
  const { approvals, io } = options;
  await approvals.refresh();
  const approval = startApprovals(options.config, approvals);
  const waitsFor = (server: ConfiguredServer) => {
    // The managed policy keeps it from starting: asking, or --trust, would change nothing.
    if (server.blockedByPolicy) return undefined;
    const standing = approval(server);
    return standing === 'new' || standing === 'changed' ? standing : undefined;
  };
  const waiting = options.servers.filter(waitsFor);
  if (options.trust) {
    await approvals.allow(waiting, { via: 'flag', remember: false });
    for (const server of waiting)
      io.err(`mgp: --trust: starting ${oneLine(server.id)} (${launchTarget(server)}) for this run`);
  } else if (options.ask) {
    for (const server of waiting) await askAbout(server, options.ask, options);
  } else if (waiting.length) {
    for (const server of waiting)
      io.err(`mgp: ${launchDescription(server, waitsFor(server) === 'changed')}`);
    io.err(refusalAdvice(waiting, options.folder));
  }
  return (server) => {
    const standing = waitsFor(server);
    if (!standing) return true;
    const why = standing === 'changed' ? 'changed since you allowed it' : 'you have not allowed it';
    return `${why} (${allowCommand([server.id], options.folder)})`;
  };
}

async function askAbout(
  server: ConfiguredServer,
  ask: (question: string) => Promise<string>,
  options: WorkspaceTrustOptions,
): Promise<void> {
  const changed = options.approvals.standing(server) === 'changed';
  const answer = await ask(`\n${launchDescription(server, changed)}\n${TERMINAL_QUESTION}`);
  if (/^y(es)?$/i.test(answer))
    await options.approvals.allow([server], { via: 'terminal', remember: true });
  else if (/^o(nce)?$/i.test(answer))
    await options.approvals.allow([server], { via: 'terminal', remember: false });
  else options.io.err(`mgp: ${oneLine(server.id)} not started: you said no`);
}

function refusalAdvice(waiting: readonly ConfiguredServer[], folder: string): string {
  const ids = waiting.map((server) => server.id);
  return [
    `mgp: not started: there is no terminal to ask you on. To allow ${ids.length === 1 ? 'it' : 'them'} here and in the editor:`,
    `  ${allowCommand(ids, folder)}`,
    `  or for this run only: add --trust; or set MGP_PREAPPROVED_SERVERS=${ids.map(shellWord).join(',')}`,
  ].join('\n');
}
