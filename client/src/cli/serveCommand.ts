/**
 * `mgp serve`: the kernel as an MCP server (the gateway), for MCP clients outside the editor (Claude
 * Code, Claude Desktop, Cursor…). On stdio by default; `--http PORT` serves Streamable HTTP on
 * 127.0.0.1 with a bearer token. Approvals are asked of the client through elicitation; a client that
 * cannot be asked gets what the policy allows without asking, and nothing that needs approval.
 */
import { homedir } from 'node:os';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  elicitedApprovals,
  EndedSession,
  type ExposeMode,
  type NameStyle,
  findEditor,
  Gateway,
  HttpFront,
  KernelMetrics,
  oauthAuth,
  openEditorSession,
  relay,
  stateDirectory,
} from '../kernel';
import { oneLine } from '@shared/untrustedText';
import { runA2aServe } from './a2aServe';
import { startCliKernel } from './cliKernel';
import { stopSignal } from './stopSignal';
import { CommandLine, oneOf, UsageError, wholeNumber } from './flags';
import type { Io } from './io';
import {
  TEAM_FLAGS,
  TEAM_USAGE,
  teamOptions,
  teamResourceServer,
  type TeamOptions,
} from './teamGateway';
import {
  CONFIG_FLAGS,
  ConfigOptions,
  configOptions,
  TRUST_FLAG,
  workspaceFolderOf,
} from './options';

export const SERVE_USAGE = `mgp serve [--http PORT [--idle-timeout SECONDS] [--bind ADDRESS] [--oauth-issuer URL …] [--metrics]] [--expose meta|all] [--names spec|safe] [--config FILE | --cwd DIR] [--standalone] [--trust]
  Serves the kernel as an MCP server: every call an MCP client makes goes through the kernel's
  access control, approvals, validators and audit trail, as agent.gateway.<client name>.
  On stdio by default. --http PORT serves Streamable HTTP on 127.0.0.1:PORT/mcp (0: a free port)
  and prints the URL and a new bearer token: clients send "Authorization: Bearer TOKEN".
  A session with no request open for --idle-timeout SECONDS (default ${DEFAULT_IDLE_TIMEOUT_MS / 1000})
  ends; of 64 sessions at once (16 per client name), the least recently active idle one gives way
  to a new client.
  --expose meta (default) lists the discovery meta-tools (MGP §16), and each tool as it is found;
  --expose all lists every connected server's tools. Resources and prompts are listed either way.
  Names: one server's tools keep their names; with several, each is named by its server
  (server.tool), the same whichever servers are up. A client that speaks MGP gets the names as MGP
  writes them (mgp.tools.discover); any other gets names a model API accepts ([A-Za-z0-9_-], at
  most 64 characters: mgp_tools_discover, server__tool). --names spec|safe gives every client one
  style. A call may use any of a tool's names.
  On stdio, when VS Code with MGP Kernel is open on the folder (--cwd, else the current one), it
  attaches to that editor's kernel over a local socket: approvals are asked in the editor and the
  calls are in its audit log. --standalone (or --config, or --http) runs a kernel of its own:
  approvals are then asked of the MCP client (elicitation); a client that cannot answer gets only
  what the approval policy allows without asking.
  A server declared in the folder's own config files starts only once you allowed it (mgp servers
  allow SERVER, or in the editor): mgp serve cannot ask you, and its MCP client cannot allow it.
  --trust starts them for this run.
  --a2a PORT serves the kernel as an A2A agent instead, on 127.0.0.1:PORT (--a2a-host ADDRESS to
  bind elsewhere): its card at /.well-known/agent-card.json (A2A 1.0 and 0.3) and agent.json
  (OpenFang), JSON-RPC (1.0 and 0.3, streaming over SSE) and OpenFang's endpoints under /a2a, a
  bearer token (MGP_A2A_TOKEN, else a new one, printed) on all but the cards. A task runs the agent
  loop on MGP_MODEL_URL's model as agent.a2a.peer; what needs an approval is refused. MGP_A2A_NAME
  names the agent.
${TEAM_USAGE}`;

export const SERVE_FLAGS = {
  http: { type: 'string', value: 'PORT' },
  a2a: { type: 'string', value: 'PORT' },
  'a2a-host': { type: 'string', value: 'ADDRESS' },
  'idle-timeout': { type: 'string', value: 'SECONDS' },
  expose: { type: 'string', value: 'meta|all' },
  names: { type: 'string', value: 'spec|safe' },
  standalone: { type: 'boolean' },
  ...TEAM_FLAGS,
  ...TRUST_FLAG,
  ...CONFIG_FLAGS,
} as const;

export interface ServeOptions extends ConfigOptions {
  expose: ExposeMode;
  /** The style of names every client is given; left out, chosen per client. */
  names?: NameStyle;
  /** The HTTP port, when serving Streamable HTTP instead of stdio. */
  httpPort?: number;
  /** How long an HTTP session may stay idle before it ends. */
  idleTimeoutMs?: number;
  /** Run a kernel of its own even when an editor is open on the folder. */
  standalone: boolean;
  /** Start the folder's servers without the person's recorded yes (workspaceTrust.ts). */
  trust: boolean;
  /** A team's gateway: where it listens, OAuth, limits per person, metrics (teamGateway.ts). */
  team?: TeamOptions;
  /** `--a2a PORT`: serve the kernel as an A2A agent instead (a2aServe.ts). */
  a2aPort?: number;
  a2aHost?: string;
}

export function serveOptions({
  values,
  positionals,
}: CommandLine<typeof SERVE_FLAGS>): ServeOptions {
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const options = {
    ...configOptions(values),
    expose: oneOf('expose', values.expose, ['meta', 'all'] as const) ?? 'meta',
    names: oneOf('names', values.names, ['spec', 'safe'] as const),
    standalone: values.standalone === true,
    trust: values.trust === true,
  };
  if (values.a2a !== undefined) {
    const port = Number(values.a2a);
    if (!/^\d+$/.test(values.a2a) || port > 65535)
      throw new UsageError('--a2a takes a port number (0 for any free port)');
    if (values.http !== undefined) throw new UsageError('--a2a and --http do not go together');
    return { ...options, a2aPort: port, a2aHost: values['a2a-host'] };
  }
  if (values['a2a-host'] !== undefined) throw new UsageError('--a2a-host goes with --a2a PORT');
  const http = values.http;
  const idle = values['idle-timeout'];
  const team = teamOptions(values, http !== undefined);
  if (http === undefined) {
    if (idle !== undefined) throw new UsageError('--idle-timeout is for --http sessions');
    return options;
  }
  const port = Number(http);
  if (!/^\d+$/.test(http) || port > 65535)
    throw new UsageError('--http takes a port number (0 for any free port)');
  const seconds = wholeNumber('idle-timeout', idle, DEFAULT_IDLE_TIMEOUT_MS / 1000, 1);
  return { ...options, httpPort: port, idleTimeoutMs: seconds * 1000, team };
}

/** Resolves when the client closes stdin (or the process is told to stop). */
function stdioClosed(transport: StdioServerTransport): Promise<void> {
  return Promise.race([
    stopSignal(),
    new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
    }),
  ]);
}

/** The editor's session on this folder, when an editor is open on it and answers. */
async function editorSession(options: ServeOptions, io: Io): Promise<Transport | undefined> {
  if (options.httpPort !== undefined || options.standalone) return undefined;
  if (options.config !== undefined) return undefined;
  const folder = workspaceFolderOf(options);
  const editor = await findEditor(
    stateDirectory({ workspaceFolder: folder, env: process.env, home: homedir() }),
  );
  if (!editor) return undefined;
  try {
    const session = await openEditorSession(editor, {
      expose: options.expose,
      names: options.names,
    });
    io.err(`mgp serve: attached to the editor's kernel on ${folder}: approvals are asked there`);
    return session;
  } catch (error) {
    io.err(
      `mgp serve: the editor's kernel did not answer (${error instanceof Error ? error.message : String(error)}): serving a kernel of its own`,
    );
    return undefined;
  }
}

/** Relays stdio to the editor's session until either side closes. */
async function serveAttached(session: Transport): Promise<number> {
  const stdio = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', () => resolve());
    void stopSignal().then(resolve);
  });
  await relay(stdio, session);
  const sessionClosed = new Promise<void>((resolve) => {
    const previous = session.onclose;
    session.onclose = () => {
      previous?.();
      resolve();
    };
  });
  await Promise.race([ended, sessionClosed]);
  await session.close();
  await stdio.close();
  return 0;
}

function sessionEndedLine({ id, client, why }: EndedSession, idleMs = DEFAULT_IDLE_TIMEOUT_MS) {
  const reason =
    why === 'idle' ? `idle for ${idleMs / 1000} s` : 'given up to make room for a newer session';
  return `mgp serve: session ${id.slice(0, 8)} of "${oneLine(client)}" ended: ${reason}`;
}

export async function runServe(options: ServeOptions, io: Io): Promise<number> {
  if (options.a2aPort !== undefined)
    return runA2aServe({ ...options, a2aPort: options.a2aPort }, io);
  const attached = await editorSession(options, io);
  if (attached) return serveAttached(attached);
  // The kernel asks its approvals of the gateway's clients: the gateway comes after the kernel.
  const late: { gateway?: Gateway } = {};
  const interaction = elicitedApprovals(
    (traceId) => late.gateway?.callOf(traceId),
    (request, why) =>
      io.err(
        `mgp serve: ${request.serverId}.${request.toolName} needs approval and ${why}: denied`,
      ),
  );
  const cli = await startCliKernel(options, io, undefined, {
    interactive: false,
    interaction,
    background: true,
  });
  const served = new Gateway(cli.kernel, {
    expose: options.expose,
    names: options.names,
    ready: cli.started,
  });
  late.gateway = served;
  try {
    if (options.httpPort === undefined) {
      const transport = new StdioServerTransport();
      const done = stdioClosed(transport);
      await served.connect(transport);
      await done;
    } else {
      const team = options.team ?? { metrics: false };
      const resourceServer = await teamResourceServer(team);
      // The sessions gauge reads the front, which listens only after the metrics exist.
      const listening: { front?: HttpFront } = {};
      const metrics = team.metrics
        ? new KernelMetrics({
            onRecord: (listener) => cli.trail.onRecord(listener),
            manager: cli.kernel.manager,
            sessions: () => listening.front?.sessionCount ?? 0,
          })
        : undefined;
      const front = await HttpFront.listen({
        port: options.httpPort,
        bind: team.bind,
        auth: resourceServer && ((token) => oauthAuth(resourceServer, token)),
        perUser: team.perUser,
        metrics: metrics && (() => metrics.text()),
        connect: async (transport, user) => void (await served.connect(transport, user)),
        idleTimeoutMs: options.idleTimeoutMs,
        onSessionEnded: (ended) => {
          if (ended.why !== 'closed') io.err(sessionEndedLine(ended, options.idleTimeoutMs));
        },
      });
      listening.front = front;
      resourceServer?.listening(front.url);
      io.out(`MCP endpoint: ${front.url}`);
      if (resourceServer) {
        io.out(`OAuth resource: ${resourceServer.resource} (issuer ${team.oauth?.issuer})`);
        if (metrics) io.out(`Metrics token: ${front.token}`);
      } else io.out(`Bearer token: ${front.token}`);
      if (metrics) io.out(`Metrics: ${front.url.replace(/\/mcp$/, '/metrics')}`);
      await stopSignal();
      metrics?.dispose();
      await front.close();
    }
  } finally {
    await served.close();
    await cli.close();
  }
  return 0;
}
