/**
 * The semantic strategy's ranker (MGP §16.4): cosine similarity between sentence embeddings of the
 * query and of each tool, from an embedding endpoint (llm/openAiEmbeddings.ts). A tool is embedded
 * as its name's words, its server and its description's lead sentence, once per distinct text; a
 * query then costs one embedding call. After a failed call the ranker reports itself unavailable for
 * a while, so discovery answers by keywords (with `fallback_strategy: "keyword"`) instead of waiting
 * on a dead endpoint at every query.
 */
import type { SimilarityRanker } from './search';
import { splitWords } from '../search/text';
import { splitLead } from './toolText';
import type { ToolIndexEntry } from './types';

/** Vectors for texts, in their order. */
export type EmbedTexts = (texts: readonly string[]) => Promise<number[][]>;

export interface EmbeddingRankerOptions {
  /** Shown as the ranker's name (the model and endpoint). */
  name?: string;
  /** Texts per embedding call when tools are embedded. */
  batchSize?: number;
  /** How long a failed endpoint is left alone. */
  retryAfterMs?: number;
}

/** The text a tool is embedded as: `post search (notion): Search by title`. */
export function embeddingText(entry: ToolIndexEntry): string {
  const [lead] = splitLead(entry.description ?? '');
  return `${splitWords(entry.name).join(' ')} (${entry.server_id}): ${lead.replace(/\s+/g, ' ')}`;
}

export class EmbeddingRanker implements SimilarityRanker {
  readonly name: string;
  private readonly vectors = new Map<string, Float32Array>();
  /** Texts by entry: a tool relisted with another name or description gets a new entry (toolIndex.ts). */
  private readonly texts = new WeakMap<ToolIndexEntry, string>();
  private readonly batchSize: number;
  private readonly retryAfterMs: number;
  private failedUntil = 0;
  private lastError?: string;
  /** Embedding of tools runs one batch list at a time, so that texts asked for twice at once are embedded once. */
  private embedding: Promise<void> = Promise.resolve();

  constructor(
    private readonly embed: EmbedTexts,
    options: EmbeddingRankerOptions = {},
  ) {
    this.name = options.name ?? 'embeddings';
    this.batchSize = options.batchSize ?? 64;
    this.retryAfterMs = options.retryAfterMs ?? 30_000;
  }

  available(): boolean {
    return Date.now() >= this.failedUntil;
  }

  /** Why the last call failed, while the ranker waits to retry. */
  get error(): string | undefined {
    return this.available() ? undefined : this.lastError;
  }

  /** Embeds the tools not embedded yet (so that the first query does not wait for them). */
  async warm(entries: readonly ToolIndexEntry[]): Promise<void> {
    await this.guard(() => this.embedMissing(entries.map((e) => this.textOf(e))));
  }

  async rank(query: string, entries: readonly ToolIndexEntry[]): Promise<number[]> {
    return this.guard(async () => {
      const texts = entries.map((e) => this.textOf(e));
      await this.embedMissing(texts);
      const [vector] = await this.embed([query]);
      const q = unit(vector);
      const similarities = texts.map((text) => dot(q, this.vectors.get(text)!));
      this.forgetAllBut(texts);
      return similarities;
    });
  }

  private textOf(entry: ToolIndexEntry): string {
    let text = this.texts.get(entry);
    if (text === undefined) this.texts.set(entry, (text = embeddingText(entry)));
    return text;
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.failedUntil = Date.now() + this.retryAfterMs;
      this.lastError = error instanceof Error ? error.message : String(error);
      throw error;
    }
  }

  private embedMissing(texts: readonly string[]): Promise<void> {
    const run = this.embedding.then(() => this.embedNow(texts));
    this.embedding = run.catch(() => undefined);
    return run;
  }

  private async embedNow(texts: readonly string[]): Promise<void> {
    const missing = [...new Set(texts.filter((text) => !this.vectors.has(text)))];
    for (let i = 0; i < missing.length; i += this.batchSize) {
      const batch = missing.slice(i, i + this.batchSize);
      const vectors = await this.embed(batch);
      batch.forEach((text, j) => this.vectors.set(text, unit(vectors[j])));
    }
  }

  /** Keeps the vectors of the tools indexed now once many more are held (servers come and go). */
  private forgetAllBut(texts: readonly string[]): void {
    if (this.vectors.size <= 2 * texts.length + 1000) return;
    const keep = new Set(texts);
    for (const text of this.vectors.keys()) if (!keep.has(text)) this.vectors.delete(text);
  }
}

function unit(vector: readonly number[]): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return Float32Array.from(vector, (x) => x / norm);
}

function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length)
    throw new Error(
      `the embedding model answered vectors of ${a.length} and ${b.length} dimensions`,
    );
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}
