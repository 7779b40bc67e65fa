/**
 * Where the `mgp` command keeps sign-ins: the OS keyring when one answers, else a file only the user
 * can read under the state folder, and then it says so once on stderr. `@napi-rs/keyring` is an
 * optional native dependency loaded at run time; whether the keyring answers is decided once per run
 * by a probe (write, read and delete an entry) in a child process, so a keyring that hangs (a locked
 * one waiting for a prompt nobody sees) costs a few seconds, never the whole command.
 * MGP_OAUTH_TOKEN_STORE=file skips the keyring.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import {
  type AnchorKeyStore,
  FileSecrets,
  KEYRING_SERVICE,
  KeyringModule,
  KeyringSecrets,
  MigratingSecrets,
  type SecretKeyValue,
} from '../kernel';

export const KEYRING_MODULE = '@napi-rs/keyring';
const PROBE_TIMEOUT_MS = 5_000;

const PROBE = `
const [path, service, account] = process.argv.slice(1);
const { AsyncEntry } = require(path);
(async () => {
  const entry = new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
  const value = 'probe ' + Math.random();
  await entry.setPassword(value);
  const back = await entry.getPassword();
  await entry.deleteCredential();
  if (back !== value) throw new Error('it did not give back what was written');
})().then(() => process.exit(0), (e) => {
  process.stderr.write(String((e && e.message) || e));
  process.exit(1);
});`;

/** Why the keyring can't be used, or undefined when it answered the probe. */
export function probeKeyring(modulePath: string, timeoutMs = PROBE_TIMEOUT_MS) {
  const account = `${KEYRING_SERVICE}.probe/${process.pid}`;
  return new Promise<string | undefined>((resolve) => {
    execFile(
      process.execPath,
      ['-e', PROBE, modulePath, KEYRING_SERVICE, account],
      { timeout: timeoutMs, killSignal: 'SIGKILL', env: process.env },
      (error, _stdout, stderr) => {
        if (!error) resolve(undefined);
        else if (error.killed)
          resolve(`the OS keyring did not answer within ${timeoutMs / 1000} s`);
        else resolve(`the OS keyring failed: ${stderr.trim().split('\n')[0] || error.message}`);
      },
    );
  });
}

function resolveKeyringModule(): string | undefined {
  try {
    return require.resolve(KEYRING_MODULE);
  } catch {
    return undefined;
  }
}

interface Choice {
  secrets: SecretKeyValue;
  /** Why the file is used instead of the keyring (said once on stderr). */
  fallback?: string;
}

async function choose(tokenFile: string, env: Record<string, string | undefined>): Promise<Choice> {
  const file = new FileSecrets(tokenFile);
  if (env.MGP_OAUTH_TOKEN_STORE === 'file') return { secrets: file };
  const modulePath = resolveKeyringModule();
  if (!modulePath) return { secrets: file, fallback: `${KEYRING_MODULE} is not installed` };
  const failure = await probeKeyring(modulePath);
  if (failure) return { secrets: file, fallback: failure };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const keyring = require(modulePath) as KeyringModule;
  return { secrets: new MigratingSecrets(new KeyringSecrets(keyring), file) };
}

/** The CLI's secret store: chosen at its first use, the fallback said once through `warn`. */
export class CliSecrets implements SecretKeyValue {
  private choice?: Promise<Choice>;
  private chosen?: SecretKeyValue;

  constructor(
    private readonly tokenFile: string,
    private readonly warn: (line: string) => void,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {}

  /** The store in use, probing the keyring if that is not decided yet. */
  async ready(): Promise<SecretKeyValue> {
    this.choice ??= choose(this.tokenFile, this.env).then((choice) => {
      if (choice.fallback)
        this.warn(
          `mgp: sign-ins are kept in ${choice.secrets.description}, not the OS keyring: ${choice.fallback}`,
        );
      this.chosen = choice.secrets;
      return choice;
    });
    return (await this.choice).secrets;
  }

  get description(): string {
    return this.chosen?.description ?? `the OS keyring, or ${this.tokenFile} without one`;
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.ready()).get(key);
  }

  async set(key: string, value: string): Promise<void> {
    return (await this.ready()).set(key, value);
  }

  async delete(key: string): Promise<void> {
    return (await this.ready()).delete(key);
  }
}

/**
 * Where the mgp command keeps the keys that seal its audit logs' chain.json (audit/anchorSeal.ts):
 * the OS keyring, else `audit-keys.json` in the state folder, readable by the user only. Said by
 * `mgp audit verify`, not warned about at each run.
 */
export function cliAnchorKeys(
  stateRoot: string,
  env: Record<string, string | undefined> = process.env,
): AnchorKeyStore {
  const secrets = new CliSecrets(join(stateRoot, 'audit-keys.json'), () => undefined, env);
  return {
    kind: 'cli',
    get description() {
      return secrets.description;
    },
    get: (name) => secrets.get(name),
    set: (name, value) => secrets.set(name, value),
  };
}
