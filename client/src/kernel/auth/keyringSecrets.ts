/**
 * Secrets in the OS keyring (the Secret Service on Linux, the Keychain on macOS, the Credential
 * Manager on Windows) through `@napi-rs/keyring`, and the read-through move of sign-ins an older run
 * kept in the user-only file. The module is native and optional: the CLI loads it at run time
 * (cliSecrets.ts), so this file only knows the part of its API it uses.
 */
import type { SecretKeyValue } from './authStore';
import { joinValue, partCount, partKey, splitValue } from './keyringChunks';

/** The part of `@napi-rs/keyring`'s AsyncEntry used here. */
export interface KeyringEntry {
  setPassword(password: string, signal?: AbortSignal): Promise<void>;
  getPassword(signal?: AbortSignal): Promise<string | null>;
  deleteCredential(signal?: AbortSignal): Promise<boolean>;
}

export interface KeyringModule {
  AsyncEntry: new (
    service: string,
    account: string,
    options?: { linux?: { store?: 'secret-service' | 'keyutils' } },
  ) => KeyringEntry;
}

/** The keyring's service name: each sign-in is an account under it, named by its key. */
export const KEYRING_SERVICE = 'mgp';

/** A keyring that stops answering turns into an error rather than a CLI that waits forever. */
const OPERATION_TIMEOUT_MS = 10_000;

export class KeyringSecrets implements SecretKeyValue {
  readonly description = `the OS keyring (service "${KEYRING_SERVICE}")`;

  constructor(private readonly keyring: KeyringModule) {}

  private entry(key: string): KeyringEntry {
    // On Linux only the Secret Service keeps secrets across a reboot; the kernel keyring, the
    // library's fallback, forgets them, which would lose a sign-in silently.
    return new this.keyring.AsyncEntry(KEYRING_SERVICE, key, {
      linux: { store: 'secret-service' },
    });
  }

  async get(key: string): Promise<string | undefined> {
    const first = await this.read(key);
    return first === undefined
      ? undefined
      : joinValue(first, (index) => this.read(partKey(key, index)));
  }

  /** Writes the parts after the first before it, so a reader never finds a header without them. */
  async set(key: string, value: string): Promise<void> {
    const before = await this.read(key);
    const [first, ...rest] = splitValue(value);
    for (const [i, part] of rest.entries()) await this.write(partKey(key, i + 1), part);
    await this.write(key, first);
    const stale = before === undefined ? 0 : partCount(before);
    for (let index = rest.length + 1; index < stale; index++)
      await this.remove(partKey(key, index));
  }

  async delete(key: string): Promise<void> {
    const first = await this.read(key);
    await this.remove(key);
    const count = first === undefined ? 1 : partCount(first);
    for (let index = 1; index < count; index++) await this.remove(partKey(key, index));
  }

  private async read(name: string): Promise<string | undefined> {
    const value = await this.entry(name).getPassword(AbortSignal.timeout(OPERATION_TIMEOUT_MS));
    return value ?? undefined;
  }

  private write(name: string, value: string): Promise<void> {
    return this.entry(name).setPassword(value, AbortSignal.timeout(OPERATION_TIMEOUT_MS));
  }

  private async remove(name: string): Promise<void> {
    await this.entry(name).deleteCredential(AbortSignal.timeout(OPERATION_TIMEOUT_MS));
  }
}

/**
 * The keyring first; a sign-in found only in the file (kept there by an earlier run without a
 * keyring) is moved into the keyring when first read, so the person stays signed in.
 */
export class MigratingSecrets implements SecretKeyValue {
  constructor(
    private readonly keyring: SecretKeyValue,
    private readonly file: SecretKeyValue,
  ) {}

  get description(): string {
    return this.keyring.description;
  }

  async get(key: string): Promise<string | undefined> {
    const value = await this.keyring.get(key);
    if (value !== undefined) return value;
    const old = await this.file.get(key);
    if (old === undefined) return undefined;
    await this.keyring.set(key, old);
    await this.file.delete(key);
    return old;
  }

  async set(key: string, value: string): Promise<void> {
    await this.keyring.set(key, value);
    await this.forgetInFile(key);
  }

  async delete(key: string): Promise<void> {
    await this.keyring.delete(key);
    await this.forgetInFile(key);
  }

  /** Only a file that has the key is rewritten: no empty file appears where there was none. */
  private async forgetInFile(key: string): Promise<void> {
    if ((await this.file.get(key)) !== undefined) await this.file.delete(key);
  }
}
