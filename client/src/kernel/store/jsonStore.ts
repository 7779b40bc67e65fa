/**
 * A small durable JSON document store: one document per file, for state the kernel must not lose
 * or half-write (access grants, approval decisions).
 *
 * - `load()` reads the file: a missing file gives the default value; a file that is not valid JSON
 *   (or that `validate` rejects) is kept aside as `<name>.corrupt-<timestamp>` and the store starts
 *   from the default value, reporting what it did, so that nothing is silently thrown away.
 * - `update(mutator)` runs one at a time, in call order. The mutator gets a copy of the document
 *   (change it in place or return a new one); the result is written atomically (temp file, fsync,
 *   rename, fsync of the directory) before the promise resolves and before the in-memory value
 *   changes. A mutator that throws, or a write that fails, leaves both the file and the value as
 *   they were.
 *
 * One process owns a store file: two processes updating the same file concurrently each keep their
 * own copy in memory, and the last write wins.
 */
import { mkdir, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isCode, removeStaleTemps, writeFileAtomic } from './atomicFile';

export interface JsonStoreOptions<T> {
  /** The document's file; its directory is created when missing. */
  path: string;
  /** The value of a missing (or corrupt) document. Called each time a fresh default is needed. */
  defaultValue: () => T;
  /** Rejects a parsed document that does not have the expected shape (it is then treated as corrupt). */
  validate?: (value: unknown) => value is T;
  /** Told when a corrupt document was kept aside. */
  onCorrupt?: (report: CorruptReport) => void;
  /** Indentation of the written JSON; 2 by default, 0 for a single line. */
  indent?: number;
  /** For tests: the time used in the name of a corrupt file. */
  now?: () => Date;
}

export interface CorruptReport {
  path: string;
  /** Where the corrupt content now is. */
  movedTo: string;
  reason: string;
}

export type LoadStatus = 'loaded' | 'missing' | 'corrupt';

export interface LoadResult<T> {
  value: T;
  status: LoadStatus;
  corrupt?: CorruptReport;
}

export type Mutator<T> = (draft: T) => T | void | Promise<T | void>;

export class JsonStore<T> {
  private current: T | undefined;
  private loading: Promise<LoadResult<T>> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: JsonStoreOptions<T>) {}

  get path(): string {
    return this.options.path;
  }

  /** The document in memory (the default value until `load()` has run). Do not mutate it: use `update`. */
  get value(): T {
    return this.current ?? this.options.defaultValue();
  }

  /** Reads the document from disk (once; later calls return the first result). */
  load(): Promise<LoadResult<T>> {
    this.loading ??= this.readDocument().then((result) => {
      this.current = result.value;
      return result;
    });
    return this.loading;
  }

  /** Applies `mutator` after every earlier update, writes the result atomically and returns it. */
  update(mutator: Mutator<T>): Promise<T> {
    const run = this.queue.then(async () => {
      await this.load();
      const draft = structuredClone(this.value);
      const returned = await mutator(draft);
      const next = returned === undefined ? draft : returned;
      await this.write(next);
      this.current = next;
      return next;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(value: T): Promise<void> {
    const text = `${JSON.stringify(value, null, this.options.indent ?? 2)}\n`;
    await mkdir(dirname(this.path), { recursive: true });
    await writeFileAtomic(this.path, text);
  }

  private async readDocument(): Promise<LoadResult<T>> {
    await removeStaleTemps(this.path);
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if (isCode(error, 'ENOENT')) return { value: this.options.defaultValue(), status: 'missing' };
      throw error;
    }
    const problem = this.checkDocument(text);
    if (problem.ok) return { value: problem.value, status: 'loaded' };
    const corrupt = await this.keepAside(problem.reason);
    this.options.onCorrupt?.(corrupt);
    return { value: this.options.defaultValue(), status: 'corrupt', corrupt };
  }

  private checkDocument(text: string): { ok: true; value: T } | { ok: false; reason: string } {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return {
        ok: false,
        reason: `not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      };
    }
    if (this.options.validate && !this.options.validate(parsed))
      return { ok: false, reason: 'not a document of the expected shape' };
    return { ok: true, value: parsed as T };
  }

  private async keepAside(reason: string): Promise<CorruptReport> {
    const stamp = (this.options.now?.() ?? new Date()).toISOString().replace(/:/g, '-');
    const movedTo = `${this.path}.corrupt-${stamp}`;
    await rename(this.path, movedTo);
    return { path: this.path, movedTo, reason };
  }
}
