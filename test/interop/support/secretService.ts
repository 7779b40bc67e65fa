/**
 * A real Secret Service for the tests: a private D-Bus session bus (dbus-daemon) with
 * gnome-keyring-daemon on it, its login keyring created and unlocked with a password on stdin. Its
 * home, data and runtime folders are the test's own, so the person's own keyring is never touched.
 * Entries are read back with secret-tool (libsecret), not through the library under test.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface SecretService {
  /** The variables a process needs to reach this Secret Service. */
  env: Record<string, string>;
  /** The secret kept for `attributes`, or undefined when there is none. */
  lookup(attributes: Record<string, string>): Promise<string | undefined>;
  /** The attribute `username` of every entry with these attributes. */
  accounts(attributes: Record<string, string>): Promise<string[]>;
  stop(): Promise<void>;
}

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    // A program that exits before it reads its input (no Secret Service to ask) closes the pipe
    // under the write: EPIPE. Its exit code and stderr say what happened.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** dbus-daemon prints the bus address on its first line once it listens. */
function startBus(env: NodeJS.ProcessEnv): Promise<{ bus: ChildProcess; address: string }> {
  return new Promise((resolve, reject) => {
    const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    bus.on('error', reject);
    bus.on('exit', (code) => reject(new Error(`dbus-daemon exited with ${code} before listening`)));
    bus.stdout.on('data', (chunk) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve({ bus, address: out.slice(0, newline).trim() });
    });
  });
}

const attributeArgs = (attributes: Record<string, string>) => Object.entries(attributes).flat();

export async function startSecretService(dir: string): Promise<SecretService> {
  for (const sub of ['home', 'data', 'run'])
    mkdirSync(join(dir, sub), { recursive: true, mode: 0o700 });
  const base = {
    ...process.env,
    HOME: join(dir, 'home'),
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_RUNTIME_DIR: join(dir, 'run'),
  };
  const { bus, address } = await startBus(base);
  const env = { ...base, DBUS_SESSION_BUS_ADDRESS: address } as Record<string, string>;
  const started = await run(
    'gnome-keyring-daemon',
    ['--unlock', '--components=secrets'],
    env,
    'keyring password',
  );
  if (started.code !== 0) throw new Error(`gnome-keyring-daemon: ${started.err}`);
  // The daemon forks before it owns its name: a client that asks sooner would have the bus start
  // a second, locked daemon. Wait for the name to be owned (gdbus does not activate it).
  const owned = await run(
    'gdbus',
    ['wait', '--session', '--timeout', '20', 'org.freedesktop.secrets'],
    env,
  );
  if (owned.code !== 0) throw new Error(`the Secret Service never came up: ${owned.err}`);
  return {
    env: {
      DBUS_SESSION_BUS_ADDRESS: address,
      HOME: base.HOME,
      XDG_RUNTIME_DIR: base.XDG_RUNTIME_DIR,
    },
    async lookup(attributes) {
      const found = await run('secret-tool', ['lookup', ...attributeArgs(attributes)], env);
      return found.code === 0 ? found.out : undefined;
    },
    async accounts(attributes) {
      const found = await run(
        'secret-tool',
        ['search', '--all', ...attributeArgs(attributes)],
        env,
      );
      return [...(found.out + found.err).matchAll(/^attribute\.username = (.*)$/gm)].map(
        (m) => m[1],
      );
    },
    // gnome-keyring-daemon leaves when its bus does.
    stop: () =>
      new Promise<void>((resolve) => {
        if (bus.exitCode !== null) return resolve();
        bus.removeAllListeners('exit');
        bus.on('exit', () => resolve());
        bus.kill('SIGTERM');
      }),
  };
}
