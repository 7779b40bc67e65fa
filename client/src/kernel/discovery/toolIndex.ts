/**
 * The kernel's tool index (MGP §16.4): every connected server's tools plus the kernel's own tools,
 * kept up to date one server at a time (on `notifications/tools/list_changed` and on state changes)
 * and searchable by BM25F over the tools' fields.
 */
import { toolAction, type Action } from '../search/actions';
import { Bm25Index } from '../search/bm25';
import { FuzzyVocabulary } from '../search/fuzzy';
import { Ranker, type RankableIndex } from '../search/ranking';
import { analyze } from '../search/text';
import { toolIdOf } from '../domain/toolId';
import { discoverable } from './visibility';
import { DEFAULT_ANALYSIS, INDEX_FIELDS, type AnalysisOptions } from './analysis';
import { normalizeSecurity, ToolTexts } from './toolText';
import type { ServerTool, ToolIndexEntry, ToolStatus } from './types';

export { normalizeSecurity, parameterText, splitLead, toEntry, type TermIds } from './toolText';

export interface ToolIndexOptions {
  analysis?: Partial<AnalysisOptions>;
}

interface Slot {
  entry: ToolIndexEntry;
  doc: number;
  /** The word lists counted in the typo vocabulary (to uncount them). */
  words: ReadonlyArray<readonly string[]>;
  /** The name's distinct terms, without the prefix the server puts on every tool (`slack_`, `browser_`). */
  nameTerms: readonly string[];
  /** The example requests indexed with the tool (`ServerTool.exampleRequests`), one per line. */
  examples: string;
}

/** Actions by their code in `ToolIndex.actions` (0: none). */
const ACTIONS: ReadonlyArray<Action | undefined> = [undefined, 'read', 'write', 'delete'];

/** Name terms (the first ones) and server id terms kept per slot for the search gains. */
const NAME_ROW = 8;
const ROW = 2 + NAME_ROW + 4;

export class ToolIndex implements RankableIndex {
  readonly analysis: AnalysisOptions;
  private readonly bm25: Bm25Index;
  private readonly texts: ToolTexts;
  private readonly slots = new Map<string, Slot>();
  private readonly byDoc: Array<Slot | undefined> = [];
  private readonly byServer = new Map<string, Set<string>>();
  /** Lower-case names, and lower-case tool ids that are not lower-case already → tool ids. */
  private readonly byLowerName = new Map<string, string | string[]>();
  readonly vocabulary = new FuzzyVocabulary();
  private version = 0;
  /** The keyword ranking of this index's tools. */
  readonly ranker: Ranker = new Ranker(this);
  private serverTerms = { revision: -1, terms: new Set<string>() };
  /** Per BM25 slot: 1 when the tool passes the default discovery filter. */
  private visible = new Uint8Array(64);
  /** Per BM25 slot: the action of the tool's name (an index in `ACTIONS`). */
  private actions = new Uint8Array(64);
  /** Per BM25 slot, ROW numbers: name term count, server term count, name term ids, server term ids. */
  private termRows = new Int32Array(64 * ROW);

  constructor(options: ToolIndexOptions = {}) {
    this.analysis = {
      ...DEFAULT_ANALYSIS,
      ...options.analysis,
      weights: { ...DEFAULT_ANALYSIS.weights, ...options.analysis?.weights },
    };
    const weights = this.analysis.fields ? INDEX_FIELDS.map((f) => this.analysis.weights[f]) : [1];
    this.bm25 = new Bm25Index({ k1: this.analysis.k1, b: this.analysis.b, weights });
    this.texts = new ToolTexts(this.analysis, (term) => this.bm25.intern(term));
  }

  /** Bumped on every change; caches keyed on it stay valid while it holds. */
  get revision(): number {
    return this.version;
  }

  get size(): number {
    return this.slots.size;
  }

  get scorer(): Bm25Index {
    return this.bm25;
  }

  /** Analyses text the way this index does (for queries). */
  terms(text: string): string[] {
    return analyze(text, { stem: this.analysis.stem, camelCase: this.analysis.splitIdentifiers });
  }

  private insert(
    tool: ServerTool,
    serverId: string,
    status: ToolStatus,
    kernel: boolean,
    prefixTerms: ReadonlySet<string>,
  ): void {
    const words = this.texts.wordsOfTool(tool, serverId);
    const entry = this.texts.entry(serverId, tool, status, kernel, words);
    this.delete(entry.tool_id);
    const doc = this.bm25.add(this.texts.fieldsOf(entry, tool.exampleRequests));
    const counted = [words.name, words.server, words.title, words.description];
    this.vocabulary.addAll(counted);
    const nameTerms = this.nameTerms(entry.name, prefixTerms);
    const slot = { entry, doc, words: counted, nameTerms, examples: examplesOf(tool) };
    this.slots.set(entry.tool_id, slot);
    this.byDoc[doc] = slot;
    this.setVisible(doc, entry);
    this.setAction(doc, toolAction(words.name));
    this.setTermRows(doc, slot);
    let ids = this.byServer.get(entry.server_id);
    if (!ids) this.byServer.set(entry.server_id, (ids = new Set()));
    ids.add(entry.tool_id);
    for (const key of this.lowerKeys(entry)) {
      const named = this.byLowerName.get(key);
      if (named === undefined) this.byLowerName.set(key, entry.tool_id);
      else if (typeof named === 'string') {
        if (named !== entry.tool_id) this.byLowerName.set(key, [named, entry.tool_id]);
      } else if (!named.includes(entry.tool_id)) named.push(entry.tool_id);
    }
  }

  private lowerKeys(entry: ToolIndexEntry): string[] {
    const name = entry.name.toLowerCase();
    const id = entry.tool_id.toLowerCase();
    return id === entry.tool_id || id === name ? [name] : [name, id];
  }

  private delete(toolId: string): void {
    const slot = this.slots.get(toolId);
    if (!slot) return;
    this.bm25.remove(slot.doc);
    this.vocabulary.removeAll(slot.words);
    this.slots.delete(toolId);
    this.byDoc[slot.doc] = undefined;
    this.visible[slot.doc] = 0;
    this.byServer.get(slot.entry.server_id)?.delete(toolId);
    for (const key of this.lowerKeys(slot.entry)) {
      const named = this.byLowerName.get(key);
      if (named === toolId) this.byLowerName.delete(key);
      else if (Array.isArray(named)) {
        const rest = named.filter((id) => id !== toolId);
        this.byLowerName.set(key, rest.length === 1 ? rest[0] : rest);
      }
    }
  }

  /**
   * Replaces one server's tools (after `tools/list`, e.g. on list_changed). Tools whose definition
   * did not change keep their index slot; only added, changed and removed tools are re-indexed.
   */
  upsertServer(
    serverId: string,
    tools: readonly ServerTool[],
    status: ToolStatus = 'connected',
    kernel = false,
  ): void {
    const held = this.byServer.get(serverId);
    const previous = held?.size ? new Set(held) : undefined;
    const prefixTerms = this.sharedNameTerms(tools);
    for (const tool of tools) {
      const toolId = kernel ? tool.name : toolIdOf(serverId, tool.name);
      previous?.delete(toolId);
      const slot = this.slots.get(toolId);
      if (
        slot &&
        slot.entry.server_id === serverId &&
        slot.entry.kernel === kernel &&
        sameDefinition(slot.entry, tool) &&
        slot.examples === examplesOf(tool)
      ) {
        slot.entry.status = status;
        slot.nameTerms = this.nameTerms(tool.name, prefixTerms);
        this.setVisible(slot.doc, slot.entry);
        this.setTermRows(slot.doc, slot);
        continue;
      }
      this.insert(tool, serverId, status, kernel, prefixTerms);
    }
    for (const stale of previous ?? []) this.delete(stale);
    if (!this.byServer.get(serverId)?.size) this.byServer.delete(serverId);
    this.version++;
  }

  /** The distinct terms of a name without the server's prefix terms, unless that leaves none (shared: do not change). */
  private nameTerms(name: string, prefixTerms: ReadonlySet<string>): readonly string[] {
    const own = this.texts.distinctTermsOf(name);
    const meaningful = prefixTerms.size ? own.filter((t) => !prefixTerms.has(t)) : own;
    return meaningful.length ? meaningful : own;
  }

  private setVisible(doc: number, entry: ToolIndexEntry): void {
    if (doc >= this.visible.length) {
      const grown = new Uint8Array(Math.max(64, doc * 2));
      grown.set(this.visible);
      this.visible = grown;
    }
    this.visible[doc] = entry.status === 'connected' && discoverable(entry) ? 1 : 0;
  }

  private setAction(doc: number, action: Action | undefined): void {
    if (doc >= this.actions.length) {
      const grown = new Uint8Array(Math.max(64, doc * 2));
      grown.set(this.actions);
      this.actions = grown;
    }
    this.actions[doc] = action ? ACTIONS.indexOf(action) : 0;
  }

  /** The action of the tool at a BM25 slot, by the verb its name leads with (undefined when it has none). */
  actionAt(doc: number): Action | undefined {
    return ACTIONS[this.actions[doc]];
  }

  /** Copies a slot's name and server term ids into the per-slot rows that searches read. */
  private setTermRows(doc: number, slot: Slot): void {
    if ((doc + 1) * ROW >= this.termRows.length) {
      const grown = new Int32Array(Math.max(64 * ROW, (doc + 1) * ROW * 2));
      grown.set(this.termRows);
      this.termRows = grown;
    }
    const at = doc * ROW;
    const serverTerms = this.texts.serverNameIdsOf(slot.entry.server_id);
    const names = Math.min(slot.nameTerms.length, NAME_ROW);
    const servers = Math.min(serverTerms.length, ROW - 2 - NAME_ROW);
    this.termRows[at] = names;
    this.termRows[at + 1] = servers;
    for (let i = 0; i < names; i++) this.termRows[at + 2 + i] = this.bm25.intern(slot.nameTerms[i]);
    for (let i = 0; i < servers; i++) this.termRows[at + 2 + NAME_ROW + i] = serverTerms[i];
  }

  /**
   * Share of the name terms of the tool at a slot that the query covers, given the query's weight
   * of each term id (a synonym covers a term by its weight).
   */
  nameCoverageAt(doc: number, weights: Float64Array): number {
    const rows = this.termRows;
    const at = doc * ROW;
    const count = rows[at];
    if (!count) return 0;
    let covered = 0;
    for (let i = at + 2, end = i + count; i < end; i++) covered += Math.min(1, weights[rows[i]]);
    return covered / count;
  }

  /** Share of the server id's terms of the tool at a slot that the query names itself (weight 1 or more). */
  serverShareAt(doc: number, weights: Float64Array): number {
    const rows = this.termRows;
    const at = doc * ROW;
    const count = rows[at + 1];
    if (!count) return 0;
    let named = 0;
    for (let i = at + 2 + NAME_ROW, end = i + count; i < end; i++)
      if (weights[rows[i]] >= 1) named++;
    return named / count;
  }

  /** Whether the tool at a BM25 slot passes the default discovery filter (connected, offered to discovery). */
  visibleAt(doc: number): boolean {
    return this.visible[doc] === 1;
  }

  /** Name terms that more than half of a server's tools share (at least three tools): a prefix, not a meaning. */
  private sharedNameTerms(tools: readonly ServerTool[]): Set<string> {
    if (tools.length < 3) return new Set();
    const counts = new Map<string, number>();
    for (const tool of tools)
      for (const t of this.texts.distinctTermsOf(tool.name))
        counts.set(t, (counts.get(t) ?? 0) + 1);
    return new Set([...counts].filter(([, n]) => n > tools.length / 2).map(([t]) => t));
  }

  /** The distinct meaningful terms of the name of the tool at a BM25 slot. */
  nameTermsAt(doc: number): readonly string[] {
    return this.byDoc[doc]?.nameTerms ?? [];
  }

  /** Whether some server id of the index has this term (cached per revision). */
  isServerTerm(term: string): boolean {
    if (this.serverTerms.revision !== this.version) {
      const terms = new Set<string>();
      for (const id of this.byServer.keys())
        for (const t of this.texts.serverNameTermsOf(id)) terms.add(t);
      this.serverTerms = { revision: this.version, terms };
    }
    return this.serverTerms.terms.has(term);
  }

  removeServer(serverId: string): void {
    for (const id of [...(this.byServer.get(serverId) ?? [])]) this.delete(id);
    this.byServer.delete(serverId);
    this.version++;
  }

  /** Marks a server's tools connected or disconnected without re-indexing them. */
  setServerStatus(serverId: string, status: ToolStatus): void {
    for (const id of this.byServer.get(serverId) ?? []) {
      const slot = this.slots.get(id);
      if (!slot) continue;
      slot.entry.status = status;
      this.setVisible(slot.doc, slot.entry);
    }
    this.version++;
  }

  /** Entries whose name or tool id is `name` (any case). */
  findByName(name: string): ToolIndexEntry[] {
    const byId = this.slots.get(name)?.entry;
    if (byId) return [byId];
    const lower = name.toLowerCase();
    const named = this.byLowerName.get(lower) ?? [];
    // A tool id that is lower-case already is not in the name map: its slot is found by the key itself.
    const ids = new Set([
      ...(typeof named === 'string' ? [named] : named),
      ...(this.slots.has(lower) ? [lower] : []),
    ]);
    return [...ids].map((id) => this.slots.get(id)?.entry).filter((e): e is ToolIndexEntry => !!e);
  }

  get(toolId: string): ToolIndexEntry | undefined {
    return this.slots.get(toolId)?.entry;
  }

  /** The BM25 slot of an entry of this index. */
  docOf(entry: ToolIndexEntry): number | undefined {
    const slot = this.slots.get(entry.tool_id);
    return slot?.entry === entry ? slot.doc : undefined;
  }

  /** The tool id at a BM25 slot (orders equal scores). */
  keyAt(doc: number): string {
    return this.byDoc[doc]?.entry.tool_id ?? '';
  }

  /** The entry at a BM25 slot. */
  entryAt(doc: number): ToolIndexEntry | undefined {
    return this.byDoc[doc]?.entry;
  }

  /** One past the highest BM25 slot in use or used before (slots of removed tools are empty). */
  get slotCount(): number {
    return this.byDoc.length;
  }

  /** Every entry (kernel tools included), in insertion order. */
  list(): ToolIndexEntry[] {
    return [...this.slots.values()].map((s) => s.entry);
  }

  servers(): string[] {
    return [...this.byServer.keys()];
  }
}

/** True when a listed tool is what the entry was built from (its name and server being the same). */
function examplesOf(tool: ServerTool): string {
  return tool.exampleRequests?.join('\n') ?? '';
}

function sameDefinition(entry: ToolIndexEntry, tool: ServerTool): boolean {
  return (
    entry.description === (tool.description ?? '') &&
    JSON.stringify(entry.inputSchema) ===
      JSON.stringify(tool.inputSchema ?? { type: 'object', properties: {} }) &&
    JSON.stringify(entry.security) === JSON.stringify(normalizeSecurity(tool.security)) &&
    JSON.stringify(entry.annotations) === JSON.stringify(tool.annotations)
  );
}
