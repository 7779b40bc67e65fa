/**
 * A ranker for the semantic strategy over the static model (model.bin, built by build-model.mjs),
 * offline: the model the extension once shipped, kept here to measure against. A tool is embedded per field (its name's words, the lead
 * of its description, its parameters), the fields' unit vectors blended by weights fit on the
 * training split; a query is embedded with its literal values replaced by the words for their kind
 * (queryText.ts). Similarities are cosines.
 *
 * The tools' vectors are computed by a `ToolVectorSource` when one is given (here otherwise), once
 * per tool definition, and kept by index slot in a `VectorIndex`; a query costs one embedding and a
 * two-stage nearest-neighbour search.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeQuery } from '../../../client/src/kernel/search/queryText';
import type { SemanticMatches } from '../../../client/src/kernel/search/fusion';
import type { NeighbourRanker } from '../../../client/src/kernel/discovery/search';
import type { ToolIndex } from '../../../client/src/kernel/discovery/toolIndex';
import { parameterText, splitLead } from '../../../client/src/kernel/discovery/toolText';
import type { ToolIndexEntry } from '../../../client/src/kernel/discovery/types';
import { normalize, StaticEmbeddings } from './staticModel';
import { VectorIndex } from './vectorIndex';

/** The model's file name, next to the bundle that loads it (load.mjs copies it there). */
export const MODEL_FILE = 'model.bin';

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

/** The texts of a tool's fields, as the model reads them (`paramsOf` reads the parameters' text). */
export function toolText(
  entry: Pick<ToolIndexEntry, 'name' | 'description' | 'inputSchema' | 'annotations'>,
  paramsOf: (schema: Record<string, unknown>) => string = parameterText,
): {
  name: string;
  lead: string;
  params: string;
} {
  const title = typeof entry.annotations?.title === 'string' ? entry.annotations.title : '';
  return {
    name: `${entry.name} ${title}`,
    lead: splitLead(entry.description ?? '')[0],
    params: paramsOf(entry.inputSchema),
  };
}

/** A tool's unit vector: its fields' unit vectors, weighted and summed. */
export function toolVector(
  model: StaticEmbeddings,
  text: { name: string; lead: string; params: string },
  weights: ToolTextWeights = TOOL_TEXT_WEIGHTS,
  embed: (text: string) => Float32Array = (t) => model.embed(t),
): Float32Array {
  const sum = new Float32Array(model.dims);
  for (const field of ['name', 'lead', 'params'] as const) {
    const v = embed(text[field]);
    for (let i = 0; i < sum.length; i++) sum[i] += weights[field] * v[i];
  }
  return normalize(sum);
}

/**
 * The vectors of many tools (`toolVector` of each). Field texts repeat across tools (a server's
 * tools share parameter schemas, replicated servers share names and descriptions), so each distinct
 * field text of the batch is embedded once.
 */
export function toolVectors(
  model: StaticEmbeddings,
  texts: ReadonlyArray<{ name: string; lead: string; params: string }>,
  weights: ToolTextWeights = TOOL_TEXT_WEIGHTS,
): Float32Array[] {
  const embedded = new Map<string, Float32Array>();
  const embed = (text: string) => {
    let v = embedded.get(text);
    if (!v) embedded.set(text, (v = model.embed(text)));
    return v;
  };
  return texts.map((t) => toolVector(model, t, weights, embed));
}

/** Reads the model from `dir` (where load.mjs put it, next to the bundle). */
export function loadStaticModel(dir: string = __dirname): StaticEmbeddings {
  const file = join(dir, MODEL_FILE);
  if (!existsSync(file)) throw new Error(`the static model (${file}) is missing`);
  return StaticEmbeddings.fromBytes(readFileSync(file));
}

/** Computes tool vectors (elsewhere, or here). */
export type ToolVectorSource = (
  texts: ReadonlyArray<{ name: string; lead: string; params: string }>,
) => Promise<Float32Array[]>;

/**
 * The leading coordinates the first stage of a search scores on (the model's dimensions are its
 * principal components, largest first: build-model.mjs), and how many tools it passes to the second
 * (at least four times the neighbours asked for). Chosen on the dev split at 10,000 tools (the
 * synthetic corpus, compare-model.mjs), by recall of the exact 10 nearest: 32 coordinates and 512
 * tools 0.939, 48 and 512 0.981, 64 and 256 0.983, 64 and 384 0.993. The first stage sums in
 * float32 SIMD, about a quarter of the cost per product of the exact second stage, so 64 and 256
 * (0.64 M products, then 65 k exact) cost less than 48 and 512 (0.48 M, then 131 k): the model's
 * side of a search took 0.81 ms against 0.98 ms at the median in one run.
 */
export const COARSE_DIMS = 64;

export const COARSE_POOL = 256;

export interface ModelRankerOptions {
  /** Reads the model (default: model.bin next to the bundle). */
  load?: () => StaticEmbeddings;
  /** Computes tools' vectors; without one they are computed here. */
  source?: ToolVectorSource;
  weights?: ToolTextWeights;
  coarseDims?: number;
  pool?: number;
}

/** The model's vectors of one index's tools, by slot, as of one revision of the index. */
interface IndexVectors {
  table: VectorIndex;
  /** The entry each slot's vector was computed for (a changed tool gets a new entry). */
  entries: Array<ToolIndexEntry | undefined>;
  /** The mean of the visible tools' vectors: a query's mean similarity is its dot product with it. */
  mean: Float32Array;
  revision: number;
  /** The update under way, and the revision it brings the vectors to. */
  updating?: { revision: number; done: Promise<void> };
}

export class ModelRanker implements NeighbourRanker {
  readonly name = 'static model';
  private model?: StaticEmbeddings;
  /** Vectors by tool text: tools of replicated servers, and a server's tools after it reconnects, share them. */
  private readonly vectors = new Map<string, Float32Array>();
  private readonly byIndex = new WeakMap<ToolIndex, IndexVectors>();

  private readonly load: () => StaticEmbeddings;
  private readonly source?: ToolVectorSource;
  private readonly weights: ToolTextWeights;
  private readonly coarseDims: number;
  private readonly pool: number;

  constructor(options: ModelRankerOptions = {}) {
    this.load = options.load ?? loadStaticModel;
    this.source = options.source;
    this.weights = options.weights ?? TOOL_TEXT_WEIGHTS;
    this.coarseDims = options.coarseDims ?? COARSE_DIMS;
    this.pool = options.pool ?? COARSE_POOL;
  }

  /** Ready once the model is loaded (the first `warm` or `match` loads it). */
  available(): boolean {
    return true;
  }

  private ensureModel(): StaticEmbeddings {
    return (this.model ??= this.load());
  }

  /** Brings the vectors of an index's tools up to date (the new ones computed by the source, when there is one). */
  async warm(index: ToolIndex): Promise<void> {
    const state = this.stateOf(index);
    while (state.revision !== index.revision) {
      if (state.updating?.revision !== index.revision) {
        // A failed update is forgotten, so that the next search tries again.
        const updating = {
          revision: index.revision,
          done: this.update(index, state, index.revision).finally(() => {
            if (state.updating === updating) state.updating = undefined;
          }),
        };
        state.updating = updating;
      }
      await state.updating.done;
    }
  }

  async match(
    query: string,
    index: ToolIndex,
    keep: (doc: number) => boolean,
    k: number,
  ): Promise<SemanticMatches> {
    await this.warm(index);
    const { table, mean } = this.stateOf(index);
    const model = this.ensureModel();
    // A query vector of its own: the fusion reads it after an await, when other searches may have run.
    const q = new Float32Array(model.dims);
    model.addText(normalizeQuery(query), q);
    normalize(q);
    return {
      nearest: table.nearest(q, k, keep, Math.max(this.pool, 4 * k)),
      mean: dot(q, mean),
      similarityAt: (doc) => table.similarityAt(q, doc),
    };
  }

  private stateOf(index: ToolIndex): IndexVectors {
    let state = this.byIndex.get(index);
    if (!state) {
      const dims = this.ensureModel().dims;
      state = {
        table: new VectorIndex({ dims, coarseDims: Math.min(this.coarseDims, dims) }),
        entries: [],
        mean: new Float32Array(dims),
        revision: -1,
      };
      this.byIndex.set(index, state);
    }
    return state;
  }

  private async update(index: ToolIndex, state: IndexVectors, revision: number): Promise<void> {
    const stale: number[] = [];
    const missing = new Map<string, ReturnType<typeof toolText>>();
    const keys: string[] = [];
    const seen: Array<ToolIndexEntry | undefined> = [];
    // Tools of a server share their schemas' objects, often: each is read once.
    const paramTexts = new Map<Record<string, unknown>, string>();
    const paramsOf = (schema: Record<string, unknown>) => {
      let text = paramTexts.get(schema);
      if (text === undefined) paramTexts.set(schema, (text = parameterText(schema)));
      return text;
    };
    for (let doc = 0; doc < index.slotCount; doc++) {
      const entry = index.entryAt(doc);
      if (entry === state.entries[doc]) continue;
      stale.push(doc);
      seen.push(entry);
      const text = entry && toolText(entry, paramsOf);
      const key = text ? keyOf(text) : '';
      keys.push(key);
      if (text && !this.vectors.has(key)) missing.set(key, text);
    }
    if (missing.size) {
      const texts = [...missing.values()];
      const computed = this.source
        ? await this.source(texts)
        : toolVectors(this.ensureModel(), texts, this.weights);
      [...missing.keys()].forEach((key, i) => this.vectors.set(key, computed[i]));
    }
    // The index may have changed while the source computed: this brings it to `revision` only.
    stale.forEach((doc, i) => {
      const vector = this.vectors.get(keys[i]);
      if (vector) state.table.set(doc, vector);
      else state.table.delete(doc);
      state.entries[doc] = seen[i];
    });
    state.mean = state.table.meanOf((doc) => index.visibleAt(doc));
    state.revision = revision;
    this.forgetUnused(state);
  }

  /** Keeps the text cache from growing without bound as servers come and go. */
  private forgetUnused(state: IndexVectors): void {
    if (this.vectors.size <= 2 * state.entries.length + 1000) return;
    const used = new Set(state.entries.map((e) => (e ? keyOf(toolText(e)) : '')));
    for (const key of this.vectors.keys()) if (!used.has(key)) this.vectors.delete(key);
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

function keyOf(text: { name: string; lead: string; params: string }): string {
  return `${text.name}\u0000${text.lead}\u0000${text.params}`;
}
