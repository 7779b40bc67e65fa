// Starts code-server (VS Code's workbench and Node extension host) on Node 24, offline and quiet.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { codeServerEntry, node24, node24Dir } from './paths.mjs';

export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'chat.disableAIFeatures': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'window.restoreWindows': 'none',
  'workbench.colorTheme': 'Default Dark Modern',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Scratch folders for one code-server instance: user data, extensions, XDG dirs, temp, logs. */
export function prepareProfile(scratch, settings = {}) {
  const dirs = {
    scratch,
    userData: join(scratch, 'user-data'),
    extensions: join(scratch, 'extensions'),
    xdg: join(scratch, 'xdg'),
    tmp: join(scratch, 'tmp'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeSettings(dirs, settings);
  return dirs;
}

export function writeSettings(dirs, settings) {
  writeFileSync(
    join(dirs.userData, 'User/settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2),
  );
}

export function scratchEnv(dirs, extra = {}) {
  return {
    ...process.env,
    PATH: `${join(node24Dir, 'bin')}:${process.env.PATH}`,
    XDG_CONFIG_HOME: join(dirs.xdg, 'config'),
    XDG_DATA_HOME: join(dirs.xdg, 'data'),
    XDG_CACHE_HOME: join(dirs.xdg, 'cache'),
    // The kernel's state and audit log (location.ts): fresh for each run, never in $HOME.
    XDG_STATE_HOME: join(dirs.xdg, 'state'),
    TMPDIR: dirs.tmp,
    ...extra,
  };
}

export function installVsix(dirs, vsix) {
  const result = spawnSync(
    node24,
    [
      codeServerEntry,
      '--extensions-dir',
      dirs.extensions,
      '--user-data-dir',
      dirs.userData,
      '--install-extension',
      vsix,
      '--force',
    ],
    {
      env: scratchEnv(dirs),
      encoding: 'utf8',
    },
  );
  if (result.status !== 0)
    throw new Error(`installing ${vsix} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout.trim();
}

async function waitHealthy(url, child, deadlineMs) {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${deadlineMs} ms`);
}

/**
 * `smokeTestDriver` (the suites' default) lets playwright and the host suite drive the workbench, at a
 * price: the workbench then shows no notification toasts and refuses dialogs (the Workspace Trust
 * question among them). The demo (`npm start`, `scripts/demoServer.mjs`) starts without it.
 * @param {{dirs: ReturnType<typeof prepareProfile>, workspace: string, trust?: boolean, env?: Record<string,string>, port?: number, smokeTestDriver?: boolean}} options
 */
export async function startCodeServer({
  dirs,
  workspace,
  trust = true,
  env = {},
  port,
  smokeTestDriver = true,
}) {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [
    codeServerEntry,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...(trust ? ['--disable-workspace-trust'] : []),
    ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    workspace,
  ];
  const logFd = openSync(join(dirs.scratch, 'code-server.log'), 'a');
  const child = spawn(node24, args, {
    env: scratchEnv(dirs, env),
    detached: true,
    stdio: ['ignore', logFd, logFd],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await waitHealthy(url, child, 30000);
  } catch (error) {
    stopGroup(child);
    throw error;
  }
  return {
    url,
    port,
    async stop() {
      stopGroup(child);
      const timer = setTimeout(() => stopGroup(child, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function stopGroup(child, signal = 'SIGTERM') {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
