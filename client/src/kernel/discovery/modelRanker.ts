/**
 * The semantic strategy's built-in ranker: the static model shipped with the extension
 * (search/semantic/model.bin), offline. A tool is embedded per field (its name's words, the lead
 * of its description, its parameters), the fields' unit vectors blended by weights fit on the
 * training split; a query is embedded with its literal values replaced by the words for their kind
 * (queryText.ts). Similarities are cosines.
 *
 * The tools' vectors are computed off the caller's thread when a `ToolVectorSource` is given (the
 * kernel's worker, modelWorker.ts); a query costs one embedding and one dot product per tool.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeQuery } from '../search/queryText';
import { normalize, StaticEmbeddings } from '../search/semantic/staticModel';
import type { SemanticRanker } from './search';
import { parameterText, splitLead } from './toolText';
import type { ToolIndexEntry } from './types';

/** The model's file name, next to the bundle that loads it (esbuild.mjs copies it into dist/). */
export const BUILT_IN_MODEL = 'searchModel.bin';

/** Weight of each field of a tool in its vector. */
export interface ToolTextWeights {
  name: number;
  lead: number;
  params: number;
}

export const TOOL_TEXT_WEIGHTS: Readonly<ToolTextWeights> = Object.freeze({
  name: 1,
  lead: 1,
  params: 0.3,
});

/** The texts of a tool's fields, as the model reads them. */
export function toolText(
  entry: Pick<ToolIndexEntry, 'name' | 'description' | 'inputSchema' | 'annotations'>,
): {
  name: string;
  lead: string;
  params: string;
} {
  const title = typeof entry.annotations?.title === 'string' ? entry.annotations.title : '';
  return {
    name: `${entry.name} ${title}`,
    lead: splitLead(entry.description ?? '')[0],
    params: parameterText(entry.inputSchema),
  };
}

/** A tool's unit vector: its fields' unit vectors, weighted and summed. */
export function toolVector(
  model: StaticEmbeddings,
  text: { name: string; lead: string; params: string },
  weights: ToolTextWeights = TOOL_TEXT_WEIGHTS,
): Float32Array {
  const sum = new Float32Array(model.dims);
  for (const field of ['name', 'lead', 'params'] as const) {
    const v = model.embed(text[field]);
    for (let i = 0; i < sum.length; i++) sum[i] += weights[field] * v[i];
  }
  return normalize(sum);
}

/** Finds and reads the model: next to the bundle, or in the source tree (unbundled tests and tools). */
export function loadBuiltInModel(dir: string = __dirname): StaticEmbeddings {
  const candidates = [
    join(dir, BUILT_IN_MODEL),
    join(dir, '../search/semantic/model.bin'),
    join(dir, '../../../../../client/src/kernel/search/semantic/model.bin'),
  ];
  const file = candidates.find((f) => existsSync(f));
  if (!file) throw new Error(`the search model (${BUILT_IN_MODEL}) is missing`);
  return StaticEmbeddings.fromBytes(readFileSync(file));
}

/** Computes tool vectors (on a worker, or here). */
export type ToolVectorSource = (
  texts: ReadonlyArray<{ name: string; lead: string; params: string }>,
) => Promise<Float32Array[]>;

export class ModelRanker implements SemanticRanker {
  readonly name = 'built-in model';
  private model?: StaticEmbeddings;
  /** Vectors by tool text (tools of replicated servers share them), and by entry (what a query reads). */
  private readonly vectors = new Map<string, Float32Array>();
  private readonly byEntry = new WeakMap<ToolIndexEntry, Float32Array>();

  constructor(
    private readonly load: () => StaticEmbeddings = loadBuiltInModel,
    private readonly source?: ToolVectorSource,
    private readonly weights: ToolTextWeights = TOOL_TEXT_WEIGHTS,
  ) {}

  /** Ready once the model is loaded (the first `warm` or `rank` loads it). */
  available(): boolean {
    return true;
  }

  private ensureModel(): StaticEmbeddings {
    return (this.model ??= this.load());
  }

  /** Computes the vectors of tools not embedded yet (on the worker, when there is one). */
  async warm(entries: readonly ToolIndexEntry[]): Promise<void> {
    const missing = new Map<string, ReturnType<typeof toolText>>();
    const keys = new Map<ToolIndexEntry, string>();
    for (const e of entries) {
      if (this.byEntry.has(e)) continue;
      const text = toolText(e);
      const key = keyOf(text);
      keys.set(e, key);
      if (!this.vectors.has(key)) missing.set(key, text);
    }
    if (missing.size) {
      const texts = [...missing.values()];
      const vectors = this.source
        ? await this.source(texts)
        : texts.map((t) => toolVector(this.ensureModel(), t, this.weights));
      [...missing.keys()].forEach((key, i) => this.vectors.set(key, vectors[i]));
    }
    for (const [e, key] of keys) {
      const v = this.vectors.get(key);
      if (v) this.byEntry.set(e, v);
    }
  }

  async rank(query: string, entries: readonly ToolIndexEntry[]): Promise<Float32Array> {
    await this.warm(entries);
    return this.similarities(query, entries);
  }

  /** Cosines of the query to each entry (0 for an entry not embedded yet). */
  similarities(query: string, entries: readonly ToolIndexEntry[]): Float32Array {
    const q = this.ensureModel().embed(normalizeQuery(query));
    const out = new Float32Array(entries.length);
    for (let e = 0; e < entries.length; e++) {
      const v = this.byEntry.get(entries[e]);
      if (v) out[e] = dot(q, v);
    }
    return out;
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n = a.length - (a.length % 4);
  for (let i = 0; i < n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (let i = n; i < a.length; i++) s0 += a[i] * b[i];
  return s0 + s1 + s2 + s3;
}

function keyOf(text: { name: string; lead: string; params: string }): string {
  return `${text.name}\u0000${text.lead}\u0000${text.params}`;
}
