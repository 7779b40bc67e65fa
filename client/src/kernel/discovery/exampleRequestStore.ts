/**
 * Example requests on disk, one small JSON file per tool definition (named by `exampleRequestKey`), so
 * a tool's requests are written once by the model and read back in every later session. A file that
 * does not parse counts as missing and is written again.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface StoredRequests {
  requests: string[];
  /** The model that wrote them, as it names itself. */
  model: string;
}

export class ExampleRequestStore {
  private readonly known = new Map<string, readonly string[] | null>();

  constructor(private readonly dir: string) {}

  /** The requests stored for a key, or undefined when none are. */
  get(key: string): readonly string[] | undefined {
    if (!this.known.has(key)) this.known.set(key, this.read(key));
    return this.known.get(key) ?? undefined;
  }

  set(key: string, requests: readonly string[], model: string): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileOf(key);
    const stored: StoredRequests = { requests: [...requests], model };
    writeFileSync(`${file}.tmp`, JSON.stringify(stored), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
    this.known.set(key, requests);
  }

  private read(key: string): readonly string[] | null {
    const file = this.fileOf(key);
    try {
      const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<StoredRequests>;
      const requests = stored.requests;
      return Array.isArray(requests) && requests.every((r) => typeof r === 'string')
        ? requests
        : null;
    } catch {
      return null;
    }
  }

  private fileOf(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`not an example-request key: ${key}`);
    return join(this.dir, `${key}.json`);
  }
}
