/**
 * What sandbox this machine can give: bubblewrap on Linux (user namespaces must be allowed; the probe
 * runs it once), Seatbelt (`sandbox-exec`) on macOS, nothing elsewhere.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { SandboxKind } from './isolation';

export type SandboxPlatform =
  { available: true; kind: SandboxKind; program: string } | { available: false; reason: string };

const PROBE_TIMEOUT_MS = 10_000;
const probes = new Map<string, Promise<SandboxPlatform>>();

function onPath(
  name: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  for (const dir of ['/usr/bin', '/bin', '/usr/local/bin'])
    if (existsSync(join(dir, name))) return join(dir, name);
  return undefined;
}

/** bubblewrap runs a trivial confined command: the same namespaces a server gets. */
function probeBubblewrap(program: string): Promise<SandboxPlatform> {
  return new Promise((resolve) => {
    const args = ['--unshare-user', '--unshare-pid', '--cap-drop', 'ALL', '--ro-bind', '/', '/'];
    const child = spawn(program, [...args, '--proc', '/proc', '--', 'true'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ available: false, reason: `${program} cannot run: ${error.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ available: true, kind: 'bubblewrap', program });
      const why = stderr.trim().split('\n')[0] || `exit code ${code}`;
      resolve({
        available: false,
        reason: `bubblewrap cannot create a sandbox here (${why}); are user namespaces disabled?`,
      });
    });
  });
}

async function probe(env: Readonly<Record<string, string | undefined>>): Promise<SandboxPlatform> {
  if (process.platform === 'darwin') {
    const program = '/usr/bin/sandbox-exec';
    return existsSync(program)
      ? { available: true, kind: 'seatbelt', program }
      : { available: false, reason: 'sandbox-exec is missing from this Mac' };
  }
  if (process.platform !== 'linux')
    return { available: false, reason: `MGP Kernel has no sandbox for ${process.platform} yet` };
  const program = env.MGP_BWRAP || onPath('bwrap', env);
  if (!program)
    return {
      available: false,
      reason:
        'bubblewrap (bwrap) is not installed: install it (Debian/Ubuntu: apt install bubblewrap)',
    };
  return probeBubblewrap(program);
}

/**
 * The platform's sandbox, probed once per program. `MGP_BWRAP` names the bubblewrap to use (your
 * environment, not a config file).
 */
export function sandboxPlatform(
  env: Readonly<Record<string, string | undefined>>,
): Promise<SandboxPlatform> {
  const key = `${process.platform}:${env.MGP_BWRAP ?? ''}:${env.PATH ?? ''}`;
  let found = probes.get(key);
  if (!found) probes.set(key, (found = probe(env)));
  return found;
}
