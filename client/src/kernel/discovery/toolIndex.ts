/**
 * The kernel's tool index (MGP §16.4): every connected server's tools plus the kernel's own tools,
 * kept up to date one server at a time (on `notifications/tools/list_changed` and on state changes)
 * and searchable by BM25F over the tools' fields.
 */
import { Bm25Index } from './bm25';
import { deriveCategories, deriveKeywords } from './categories';
import { FuzzyVocabulary } from './fuzzy';
import { analyze, splitWords } from './text';
import type { ServerTool, ToolIndexEntry, ToolSecurity, ToolStatus } from './types';

/** The fields a tool is indexed by, in the order of the weights. */
export const INDEX_FIELDS = ['name', 'server', 'description', 'details', 'categories', 'keywords', 'params'] as const;
export type IndexField = (typeof INDEX_FIELDS)[number];

/** How tools are analysed and scored. `plain` is the textbook baseline the benchmark compares with. */
export interface AnalysisOptions {
  /** Porter stemming of every term. */
  stem: boolean;
  /** Separate fields with weights (else one field holding name, description and parameters). */
  fields: boolean;
  /** Split camelCase identifiers (snake_case and kebab-case always split at the punctuation). */
  splitIdentifiers: boolean;
  weights: Record<IndexField, number>;
  k1: number;
  b: number;
}

export const DEFAULT_ANALYSIS: Readonly<AnalysisOptions> = Object.freeze({
  stem: true,
  fields: true,
  splitIdentifiers: true,
  weights: { name: 2, server: 2, description: 0.75, details: 0.3, categories: 0.25, keywords: 1.5, params: 0.4 },
  k1: 1.2,
  b: 0.9,
});

export const PLAIN_ANALYSIS: Readonly<AnalysisOptions> = Object.freeze({
  stem: false,
  fields: false,
  splitIdentifiers: false,
  weights: { name: 1, server: 0, description: 0, details: 0, categories: 0, keywords: 0, params: 0 },
  k1: 1.2,
  b: 0.75,
});

export interface ToolIndexOptions {
  analysis?: Partial<AnalysisOptions>;
}

interface Slot {
  entry: ToolIndexEntry;
  doc: number;
  words: string[];
  /** The name's distinct terms, without the prefix the server puts on every tool (`slack_`, `browser_`). */
  nameTerms: string[];
}

/** Parameter names and descriptions of a JSON Schema object (one level deep, nested objects too). */
function parameterText(schema: Record<string, unknown> | undefined, depth = 0): string {
  const properties = schema?.properties;
  if (!properties || typeof properties !== 'object' || depth > 2) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(properties as Record<string, Record<string, unknown>>)) {
    parts.push(key);
    if (typeof value?.description === 'string') parts.push(value.description.slice(0, 200));
    if (value?.type === 'object') parts.push(parameterText(value, depth + 1));
  }
  return parts.join(' ');
}

/** Fills in the MGP §4.3 defaults of a server-sent `security` object. */
export function normalizeSecurity(security: ServerTool['security']): ToolSecurity | undefined {
  if (!security || typeof security.risk_level !== 'string') return undefined;
  return {
    ...security,
    risk_level: security.risk_level,
    permissions_required: Array.isArray(security.permissions_required) ? security.permissions_required : [],
    side_effects: Array.isArray(security.side_effects) ? security.side_effects : [],
  } as ToolSecurity;
}

/** Builds an index entry from a listed tool (categories and keywords derived). */
export function toEntry(serverId: string, tool: ServerTool, status: ToolStatus, kernel = false): ToolIndexEntry {
  const security = normalizeSecurity(tool.security);
  return {
    tool_id: kernel ? tool.name : `${serverId}.${tool.name}`,
    server_id: serverId,
    name: tool.name,
    description: tool.description ?? '',
    categories: deriveCategories({ ...tool, security: security as ServerTool['security'] }, serverId, kernel),
    keywords: deriveKeywords(tool),
    inputSchema: tool.inputSchema ?? { type: 'object', properties: {} },
    ...(security ? { security } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    status,
    kernel,
  };
}

export class ToolIndex {
  readonly analysis: AnalysisOptions;
  private readonly bm25: Bm25Index;
  private readonly slots = new Map<string, Slot>();
  private readonly byDoc: Array<Slot | undefined> = [];
  private readonly byServer = new Map<string, Set<string>>();
  private readonly byLowerName = new Map<string, Set<string>>();
  readonly vocabulary = new FuzzyVocabulary();
  private version = 0;

  constructor(options: ToolIndexOptions = {}) {
    this.analysis = { ...DEFAULT_ANALYSIS, ...options.analysis, weights: { ...DEFAULT_ANALYSIS.weights, ...options.analysis?.weights } };
    const weights = this.analysis.fields ? INDEX_FIELDS.map((f) => this.analysis.weights[f]) : [1];
    this.bm25 = new Bm25Index({ k1: this.analysis.k1, b: this.analysis.b, weights });
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
    return analyze(this.analysis.splitIdentifiers ? text : text.replace(/[A-Z]/g, (c) => c.toLowerCase()), { stem: this.analysis.stem });
  }

  private fieldsOf(entry: ToolIndexEntry): string[][] {
    const params = parameterText(entry.inputSchema);
    const title = typeof entry.annotations?.title === 'string' ? entry.annotations.title : '';
    if (!this.analysis.fields) return [this.terms(`${entry.name} ${entry.description} ${params}`)];
    const [lead, details] = splitLead(entry.description);
    return [
      this.terms(`${entry.name} ${title}`),
      this.terms(entry.server_id),
      this.terms(lead),
      this.terms(details),
      this.terms(entry.categories.join(' ')),
      this.terms(entry.keywords.join(' ')),
      this.terms(params),
    ];
  }

  private insert(entry: ToolIndexEntry, prefixTerms: ReadonlySet<string>): void {
    this.delete(entry.tool_id);
    const doc = this.bm25.add(this.fieldsOf(entry));
    const words = [...new Set(splitWords(`${entry.name} ${entry.server_id} ${entry.description} ${entry.keywords.join(' ')}`))];
    for (const w of words) this.vocabulary.add(w);
    const own = [...new Set(this.terms(entry.name))];
    const nameTerms = own.filter((t) => !prefixTerms.has(t));
    const slot = { entry, doc, words, nameTerms: nameTerms.length ? nameTerms : own };
    this.slots.set(entry.tool_id, slot);
    this.byDoc[doc] = slot;
    let ids = this.byServer.get(entry.server_id);
    if (!ids) this.byServer.set(entry.server_id, (ids = new Set()));
    ids.add(entry.tool_id);
    for (const key of [entry.name.toLowerCase(), entry.tool_id.toLowerCase()]) {
      let named = this.byLowerName.get(key);
      if (!named) this.byLowerName.set(key, (named = new Set()));
      named.add(entry.tool_id);
    }
  }

  private delete(toolId: string): void {
    const slot = this.slots.get(toolId);
    if (!slot) return;
    this.bm25.remove(slot.doc);
    for (const w of slot.words) this.vocabulary.remove(w);
    this.slots.delete(toolId);
    this.byDoc[slot.doc] = undefined;
    this.byServer.get(slot.entry.server_id)?.delete(toolId);
    for (const key of [slot.entry.name.toLowerCase(), toolId.toLowerCase()]) {
      const named = this.byLowerName.get(key);
      named?.delete(toolId);
      if (named && !named.size) this.byLowerName.delete(key);
    }
  }

  /**
   * Replaces one server's tools (after `tools/list`, e.g. on list_changed). Tools whose definition
   * did not change keep their index slot; only added, changed and removed tools are re-indexed.
   */
  upsertServer(serverId: string, tools: readonly ServerTool[], status: ToolStatus = 'connected', kernel = false): void {
    const previous = new Set(this.byServer.get(serverId) ?? []);
    const prefixTerms = this.sharedNameTerms(tools);
    for (const tool of tools) {
      const entry = toEntry(serverId, tool, status, kernel);
      previous.delete(entry.tool_id);
      const existing = this.slots.get(entry.tool_id)?.entry;
      const slot = this.slots.get(entry.tool_id);
      if (existing && slot && sameDefinition(existing, entry)) {
        existing.status = status;
        slot.nameTerms = this.terms(entry.name).filter((t) => !prefixTerms.has(t));
        continue;
      }
      this.insert(entry, prefixTerms);
    }
    for (const stale of previous) this.delete(stale);
    if (!this.byServer.get(serverId)?.size) this.byServer.delete(serverId);
    this.version++;
  }

  /** Name terms that more than half of a server's tools share (at least three tools): a prefix, not a meaning. */
  private sharedNameTerms(tools: readonly ServerTool[]): Set<string> {
    const counts = new Map<string, number>();
    for (const tool of tools) for (const t of new Set(this.terms(tool.name))) counts.set(t, (counts.get(t) ?? 0) + 1);
    return new Set(tools.length < 3 ? [] : [...counts].filter(([, n]) => n > tools.length / 2).map(([t]) => t));
  }

  /** The distinct meaningful terms of the name of the tool at a BM25 slot. */
  nameTermsAt(doc: number): readonly string[] {
    return this.byDoc[doc]?.nameTerms ?? [];
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
      if (slot) slot.entry.status = status;
    }
    this.version++;
  }

  /** Entries whose name or tool id is `name` (any case). */
  findByName(name: string): ToolIndexEntry[] {
    const lower = name.toLowerCase();
    const byId = this.slots.get(name)?.entry;
    if (byId) return [byId];
    return [...(this.byLowerName.get(lower) ?? [])].map((id) => this.slots.get(id)?.entry).filter((e): e is ToolIndexEntry => !!e);
  }

  get(toolId: string): ToolIndexEntry | undefined {
    return this.slots.get(toolId)?.entry;
  }

  /** The entry at a BM25 slot. */
  entryAt(doc: number): ToolIndexEntry | undefined {
    return this.byDoc[doc]?.entry;
  }

  /** Every entry (kernel tools included), in insertion order. */
  list(): ToolIndexEntry[] {
    return [...this.slots.values()].map((s) => s.entry);
  }

  servers(): string[] {
    return [...this.byServer.keys()];
  }
}

/**
 * The first sentence of a description (what the tool does), apart from the rest (usage advice, which
 * names many other things). Long descriptions otherwise match every query a little.
 */
export function splitLead(description: string, maxWords = 40): [string, string] {
  const text = description.trim();
  const end = text.search(/[.!?](\s|$)|\n\s*\n/);
  let lead = end < 0 ? text : text.slice(0, end + 1);
  const words = lead.split(/\s+/);
  if (words.length > maxWords) lead = words.slice(0, maxWords).join(' ');
  return [lead, text.slice(lead.length)];
}

function sameDefinition(a: ToolIndexEntry, b: ToolIndexEntry): boolean {
  return a.description === b.description && JSON.stringify(a.inputSchema) === JSON.stringify(b.inputSchema) &&
    JSON.stringify(a.security) === JSON.stringify(b.security) && JSON.stringify(a.annotations) === JSON.stringify(b.annotations);
}
