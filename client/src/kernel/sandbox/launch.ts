/**
 * How one stdio server is started: inside the platform's sandbox as its policy says, or unconfined
 * when the policy allows that and says why. A sandboxed server's HOME is a fresh folder in its own
 * temporary folder (unless its config sets HOME): your home stays readable, less the denied paths,
 * and nothing it writes there outlives it. A server whose policy requires a sandbox the platform
 * cannot give does not start (the error says what is missing).
 */
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { SandboxPolicy } from '../config/types';
import { KernelError } from '../domain/errors';
import { bubblewrapArgs, HIDDEN_FOLDERS } from './bubblewrap';
import { type AddressGuard, openHostBridges, type HostBridges } from './hostBridges';
import type { Isolation } from './isolation';
import { absolutePath, existingPath, type ExistingPath } from './paths';
import { sandboxPlatform, type SandboxPlatform } from './platform';
import { seatbeltProfile } from './seatbelt';
import { seccompFilter } from './seccomp';

/** The program inside a sandbox with a network of its own that bridges the allowed ports. */
export const BRIDGE_SCRIPT = 'sandboxBridge.js';

export interface LaunchRequest {
  serverId: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  policy: SandboxPolicy;
  /** The folder of the config file that declares the server: its relative paths start there. */
  configFolder: string;
  /** Writable for every sandboxed server: the workspace folder(s). */
  workspaceFolders: readonly string[];
  home: string;
  hostEnv: Readonly<Record<string, string | undefined>>;
  /** Where the proxy of a `domains` sandbox may connect. */
  guard: AddressGuard;
}

export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  isolation: Isolation;
  /** Removes the server's temporary folder and closes its bridges, once it has exited. */
  dispose(): Promise<void>;
}

const unconfined = (request: LaunchRequest, reason: string): Launch => ({
  command: request.command,
  args: request.args,
  env: request.env,
  cwd: request.cwd,
  isolation: { sandboxed: false, reason },
  dispose: async () => undefined,
});

function under(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The server's own files that lie in a folder the sandbox replaces (a checkout in /tmp): the topmost
 * folder below it stays readable, so the files next to its program do too.
 */
function ownFilesToKeep(request: LaunchRequest, extra: string[]): string[] {
  const candidates = [
    request.cwd,
    request.configFolder,
    request.command,
    ...request.args,
    ...extra,
  ];
  const kept = new Set<string>();
  for (const candidate of candidates.filter((c) => isAbsolute(c))) {
    const real = existingPath(candidate)?.path;
    const hidden = real && HIDDEN_FOLDERS.find((folder) => under(real, folder) && real !== folder);
    if (!real || !hidden) continue;
    kept.add(join(hidden, relative(hidden, real).split(sep)[0]));
  }
  return [...kept];
}

function decidePaths(
  request: Pick<LaunchRequest, 'policy' | 'home' | 'configFolder' | 'workspaceFolders'>,
) {
  const base = { home: request.home, folder: request.configFolder };
  const allowed = new Set(request.policy.allowRead.map((p) => absolutePath(p, base)));
  const denyRead = request.policy.denyRead
    .map((p) => absolutePath(p, base))
    .filter((p) => !allowed.has(p))
    .map(existingPath)
    .filter((p): p is ExistingPath => p !== undefined);
  const write = [
    ...request.workspaceFolders,
    ...request.policy.write.map((p) => absolutePath(p, base)),
  ]
    .map(existingPath)
    .filter((p): p is ExistingPath => p?.directory === true)
    .map((p) => p.path);
  return { denyRead, write: [...new Set(write)] };
}

function isolationOf(
  platform: Extract<SandboxPlatform, { available: true }>,
  policy: SandboxPolicy,
  write: string[],
): Isolation {
  const { network, ports, domains } = policy;
  return { sandboxed: true, kind: platform.kind, write, network, ports, domains };
}

/** The bridge program, run with the kernel's own Node (an editor's executable runs as Node when asked). */
function bridgeCommand(
  request: LaunchRequest,
  folder: string,
): { command: string[]; env: Record<string, string> } {
  const script = join(__dirname, BRIDGE_SCRIPT);
  const added = request.env.ELECTRON_RUN_AS_NODE === undefined;
  const ports = request.policy.network === 'loopback' ? request.policy.ports : [];
  return {
    command: [
      process.execPath,
      script,
      '--folder',
      folder,
      ...ports.flatMap((port) => ['--port', String(port)]),
      ...(request.policy.network === 'domains' ? ['--proxy'] : []),
      ...(added ? ['--drop-env', 'ELECTRON_RUN_AS_NODE'] : []),
      '--',
    ],
    env: { ...request.env, ELECTRON_RUN_AS_NODE: '1' },
  };
}

export type ForeseenLaunch = Pick<
  LaunchRequest,
  'serverId' | 'policy' | 'configFolder' | 'workspaceFolders' | 'home' | 'hostEnv'
>;

/** How the server would run if it started now, without starting it (`mgp servers`). */
export async function foreseeIsolation(request: ForeseenLaunch): Promise<Isolation> {
  if (request.policy.mode === 'off')
    return { sandboxed: false, reason: 'the sandbox is off in your config' };
  const platform = await sandboxPlatform(request.hostEnv);
  if (!platform.available)
    return {
      sandboxed: false,
      reason: platform.reason,
      ...(request.policy.mode === 'required' ? { refused: true } : {}),
    };
  return isolationOf(platform, request.policy, decidePaths(request).write);
}

export async function planLaunch(request: LaunchRequest): Promise<Launch> {
  if (request.policy.mode === 'off')
    return unconfined(request, 'the sandbox is off in your config');
  const platform = await sandboxPlatform(request.hostEnv);
  if (!platform.available) {
    if (request.policy.mode === 'required')
      throw new KernelError(
        'SandboxUnavailable',
        `server "${request.serverId}" must run in a sandbox, and none is available: ${platform.reason}. It was not started.`,
      );
    return unconfined(request, platform.reason);
  }
  const root = await mkdtemp(join(tmpdir(), `mgp-sandbox-${safeName(request.serverId)}-`));
  let bridges: HostBridges | undefined;
  const dispose = async () => {
    await bridges?.close();
    await rm(root, { recursive: true, force: true });
  };
  try {
    const tmp = join(root, 'tmp');
    await mkdir(join(tmp, 'home'), { mode: 0o700, recursive: true });
    const paths = decidePaths(request);
    const isolation = isolationOf(platform, request.policy, paths.write);
    if (platform.kind === 'seatbelt') {
      bridges = await bridgesFor(request, root, true);
      return {
        ...seatbeltLaunch(platform.program, request, paths, tmp, bridges),
        isolation,
        dispose,
      };
    }
    bridges = await bridgesFor(request, root, false);
    const { seccomp, ...launch } = await bubblewrapLaunch(
      platform.program,
      request,
      paths,
      root,
      !!bridges,
    );
    let filterOpen = seccomp !== undefined;
    return {
      ...launch,
      isolation,
      dispose: async () => {
        if (filterOpen && seccomp !== undefined) closeSync(seccomp);
        filterOpen = false;
        await dispose();
      },
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

const safeName = (id: string) => id.replace(/[^\w.-]/g, '_');

/** Only a sandbox whose network is limited but not gone needs the kernel's end of a bridge. */
async function bridgesFor(
  request: LaunchRequest,
  root: string,
  onLoopback: boolean,
): Promise<HostBridges | undefined> {
  const { network, ports, domains } = request.policy;
  if (network === 'domains' || (network === 'loopback' && !onLoopback)) {
    const folder = join(root, 'bridge');
    await mkdir(folder, { mode: 0o700 });
    return openHostBridges({
      folder,
      ports: network === 'loopback' ? ports : [],
      domains: network === 'domains' ? domains : undefined,
      proxyOnLoopback: onLoopback,
      guard: request.guard,
    });
  }
  return undefined;
}

type Decided = ReturnType<typeof decidePaths>;
type Started = Omit<Launch, 'isolation' | 'dispose'>;

function proxyEnv(port: number): Record<string, string> {
  const proxy = `http://127.0.0.1:${port}`;
  return {
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    NODE_USE_ENV_PROXY: '1',
  };
}

function seatbeltLaunch(
  program: string,
  request: LaunchRequest,
  paths: Decided,
  tmp: string,
  bridges: HostBridges | undefined,
): Started {
  const proxyPort = bridges?.proxyPort;
  const profile = seatbeltProfile({
    ...paths,
    tmp,
    network: request.policy.network,
    loopbackPorts: proxyPort !== undefined ? [proxyPort] : request.policy.ports,
  });
  return {
    command: program,
    args: ['-p', profile, request.command, ...request.args],
    env: {
      HOME: join(tmp, 'home'),
      ...request.env,
      TMPDIR: tmp,
      ...(proxyPort !== undefined ? proxyEnv(proxyPort) : {}),
    },
    cwd: request.cwd,
  };
}

/** The seccomp filter as an open file the server's process gets as fd 3, or none for this machine. */
async function seccompFile(root: string): Promise<number | undefined> {
  const filter = seccompFilter();
  if (!filter) return undefined;
  const path = join(root, 'seccomp.bpf');
  await writeFile(path, filter, { mode: 0o400 });
  return openSync(path, 'r');
}

async function bubblewrapLaunch(
  program: string,
  request: LaunchRequest,
  paths: Decided,
  root: string,
  bridged: boolean,
): Promise<Started & { seccomp?: number }> {
  const unreadableFile = join(root, 'unreadable');
  await writeFile(unreadableFile, '', { mode: 0o000 });
  const seccomp = await seccompFile(root);
  const bridge = bridged ? bridgeCommand(request, join(root, 'bridge')) : undefined;
  const args = bubblewrapArgs({
    ...paths,
    keepReadable: ownFilesToKeep(request, bridge ? [join(__dirname, BRIDGE_SCRIPT), root] : []),
    tmp: join(root, 'tmp'),
    unreadableFile,
    network: request.policy.network,
    cwd: request.cwd,
    ...(seccomp !== undefined ? { seccompFd: 3 } : {}),
  });
  return {
    command: program,
    args: [...args, '--', ...(bridge?.command ?? []), request.command, ...request.args],
    env: { HOME: '/tmp/home', ...(bridge?.env ?? request.env), TMPDIR: '/tmp' },
    cwd: request.cwd,
    ...(seccomp !== undefined ? { extraFds: [seccomp], seccomp } : {}),
  };
}
