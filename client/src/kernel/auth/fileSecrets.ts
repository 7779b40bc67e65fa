/**
 * Secrets in one JSON file that only the user can read (mode 0600 in a 0700 folder), written
 * atomically: the CLI's store where the OS has no keyring to use.
 */
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isCode, writeFileAtomic } from '../store/atomicFile';
import type { SecretKeyValue } from './authStore';

export class FileSecrets implements SecretKeyValue {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  get description(): string {
    return `${this.path} (readable by you only)`;
  }

  private async readAll(): Promise<Record<string, string>> {
    try {
      const value: unknown = JSON.parse(await readFile(this.path, 'utf8'));
      return typeof value === 'object' && value !== null ? (value as Record<string, string>) : {};
    } catch (error) {
      if (isCode(error, 'ENOENT')) return {};
      throw new Error(`${this.path} is not readable JSON: ${String(error)}`);
    }
  }

  /** Changes run one after another, so two writes in one process never lose each other. */
  private change(edit: (all: Record<string, string>) => void): Promise<void> {
    const next = this.queue.then(async () => {
      const all = await this.readAll();
      edit(all);
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      await writeFileAtomic(this.path, JSON.stringify(all, null, 2), 0o600);
      await chmod(this.path, 0o600);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  async get(key: string): Promise<string | undefined> {
    await this.queue;
    return (await this.readAll())[key];
  }

  set(key: string, value: string): Promise<void> {
    return this.change((all) => {
      all[key] = value;
    });
  }

  delete(key: string): Promise<void> {
    return this.change((all) => {
      delete all[key];
    });
  }
}
