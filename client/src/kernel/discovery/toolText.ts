/**
 * What the tool index reads in a tool: its words (for derivation and typo tolerance), its terms and
 * term ids per index field, its parameters' text, the lead sentence of its description, and the
 * entry with derived categories and keywords.
 *
 * Texts repeat across tools and servers (names, server ids, parameter schemas, whole descriptions of
 * replicated servers): a `ToolTexts` splits and analyses each distinct text once and hands out the
 * same arrays for it, which callers must not change. It lives as long as its index, so every index
 * builds from cold; memos start over past a size, and term ids stay valid (they never change).
 */
import { categoriesOf, keywordsOf, toolWords, type ToolWords } from './categories';
import { splitWords, termsOfWords } from '../search/text';
import type { ServerTool, ToolIndexEntry, ToolSecurity, ToolStatus } from './types';
import { toolIdOf } from '../domain/toolId';

/** Term ids of a text (see `Bm25Index.intern`); shared between tools, never changed. */
export type TermIds = readonly number[];

/** What a description becomes, once per distinct text: its words, and the term ids of its lead and the rest. */
interface DescriptionAnalysis {
  words: string[];
  lead: TermIds;
  details: TermIds;
  /** The whole description's term ids (one-field analysis). */
  all: TermIds;
}

/** How the texts are analysed: the parts of the index's `AnalysisOptions` that matter here. */
export interface TextAnalysis {
  stem: boolean;
  /** Separate fields (else one field holding name, description and parameters). */
  fields: boolean;
  splitIdentifiers: boolean;
}

/** Memo entries kept per kind of text before the memo starts over (tools come and go; texts repeat). */
const MEMO_LIMIT = 50_000;

function remember<K, V>(memo: Map<K, V>, key: K, value: V): V {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
  return value;
}

/** Indefinite pronouns (stemmed). */
const PRONOUNS = new Set(['everyth', 'anyth', 'someth', 'noth']);

export class ToolTexts {
  private readonly wordMemo = new Map<string, string[]>();
  private readonly termMemo = new Map<string, string[]>();
  private readonly idMemo = new Map<string, TermIds>();
  private readonly descriptionMemo = new Map<string, DescriptionAnalysis>();
  private readonly distinctMemo = new Map<string, string[]>();
  private readonly serverNameIdMemo = new Map<string, TermIds>();
  private readonly paramMemo = new WeakMap<object, TermIds>();

  /** `intern` gives a term's id (see `Bm25Index.intern`). */
  constructor(
    private readonly analysis: TextAnalysis,
    private readonly intern: (term: string) => number,
  ) {}

  /** The words of a text (camelCase split: derivation and typo tolerance always split it), memoised. */
  wordsOf(text: string): string[] {
    return this.wordMemo.get(text) ?? remember(this.wordMemo, text, splitWords(text));
  }

  /** `terms(text)`, memoised: callers must not change the array. */
  termsOf(text: string): string[] {
    const known = this.termMemo.get(text);
    if (known) return known;
    const { stem, splitIdentifiers } = this.analysis;
    const words = splitIdentifiers ? this.wordsOf(text) : splitWords(text, false);
    return remember(this.termMemo, text, termsOfWords(words, { stem }));
  }

  idsOfTerms(terms: readonly string[]): TermIds {
    return terms.map((t) => this.intern(t));
  }

  /** Term ids of a text, memoised. */
  idsOf(text: string): TermIds {
    return (
      this.idMemo.get(text) ?? remember(this.idMemo, text, this.idsOfTerms(this.termsOf(text)))
    );
  }

  describe(description: string): DescriptionAnalysis {
    const known = this.descriptionMemo.get(description);
    if (known) return known;
    const { stem, splitIdentifiers, fields } = this.analysis;
    const none: TermIds = [];
    const ids = (words: readonly string[]) => this.idsOfTerms(termsOfWords(words, { stem }));
    let analysis: DescriptionAnalysis;
    if (fields) {
      // The lead ends between words: the description's words are the lead's, then the rest's.
      const [lead, details] = splitLead(description);
      const leadWords = splitWords(lead);
      const detailWords = splitWords(details);
      const own = (text: string, words: readonly string[]) =>
        splitIdentifiers ? words : splitWords(text, false);
      analysis = {
        words: leadWords.concat(detailWords),
        lead: ids(own(lead, leadWords)),
        details: ids(own(details, detailWords)),
        all: none,
      };
    } else {
      const words = splitWords(description);
      analysis = {
        words,
        lead: none,
        details: none,
        all: ids(splitIdentifiers ? words : splitWords(description, false)),
      };
    }
    return remember(this.descriptionMemo, description, analysis);
  }

  paramIds(schema: Record<string, unknown>): TermIds {
    const known = this.paramMemo.get(schema);
    if (known) return known;
    const ids = this.idsOf(parameterText(schema));
    this.paramMemo.set(schema, ids);
    return ids;
  }

  wordsOfTool(tool: ServerTool, serverId: string): ToolWords {
    const title = tool.annotations?.title;
    return {
      name: this.wordsOf(tool.name),
      server: this.wordsOf(serverId),
      title: typeof title === 'string' && title ? this.wordsOf(title) : [],
      description: this.describe(tool.description ?? '').words,
    };
  }

  /**
   * Term ids per index field. A tool's example requests are read as part of its description's lead,
   * as doc2query appends predicted queries to the document they were written for.
   */
  fieldsOf(entry: ToolIndexEntry, exampleRequests: readonly string[] = []): TermIds[] {
    const description = this.describe(entry.description);
    const params = this.paramIds(entry.inputSchema);
    const name = this.idsOf(entry.name);
    const examples = exampleRequests.length ? this.idsOf(exampleRequests.join('\n')) : [];
    if (!this.analysis.fields) return [concat(name, description.all, params, examples)];
    const title = entry.annotations?.title;
    return [
      typeof title === 'string' && title ? concat(name, this.idsOf(title)) : name,
      this.idsOf(entry.server_id),
      examples.length ? concat(description.lead, examples) : description.lead,
      description.details,
      this.idsOf(entry.categories.join(' ')),
      this.idsOfTerms(termsOfWords(entry.keywords, { stem: this.analysis.stem })),
      params,
    ];
  }

  distinctTermsOf(text: string): string[] {
    return (
      this.distinctMemo.get(text) ?? remember(this.distinctMemo, text, distinct(this.termsOf(text)))
    );
  }

  /**
   * Term ids of the words that name a server (its id's distinct terms), memoised. An indefinite
   * pronoun is no name: `everything that landed` does not ask for the `everything` server.
   */
  serverNameIdsOf(serverId: string): TermIds {
    return (
      this.serverNameIdMemo.get(serverId) ??
      remember(this.serverNameIdMemo, serverId, this.idsOfTerms(this.serverNameTermsOf(serverId)))
    );
  }

  /** The terms of `serverNameIdsOf`. */
  serverNameTermsOf(serverId: string): string[] {
    return this.distinctTermsOf(serverId).filter((t) => !PRONOUNS.has(t));
  }

  /** The entry of a listed tool, categories and keywords derived from its words. */
  entry(
    serverId: string,
    tool: ServerTool,
    status: ToolStatus,
    kernel: boolean,
    words: ToolWords,
  ): ToolIndexEntry {
    return entryOf(serverId, tool, status, kernel, words);
  }
}

/**
 * Parameter names, descriptions and enumerated values of a JSON Schema object, nested objects, array
 * items and `anyOf`/`oneOf`/`allOf` alternatives included (three levels deep; descriptions cut at 200
 * characters). An enum says what a tool can do (`state: open | closed`, `action: list | new | close`).
 */
export function parameterText(schema: Record<string, unknown> | undefined): string {
  const parts: string[] = [];
  collectParameters(schema, 0, parts);
  return parts.join(' ');
}

function collectParameters(schema: unknown, depth: number, parts: string[]): void {
  if (!schema || typeof schema !== 'object' || depth > 3) return;
  const node = schema as Record<string, unknown>;
  const properties = node.properties;
  if (properties && typeof properties === 'object') {
    for (const [key, value] of Object.entries(properties as Record<string, unknown>)) {
      parts.push(key);
      if (!value || typeof value !== 'object') continue;
      const property = value as Record<string, unknown>;
      if (typeof property.description === 'string') parts.push(property.description.slice(0, 200));
      if (Array.isArray(property.enum))
        for (const v of property.enum.slice(0, 20)) if (typeof v === 'string') parts.push(v);
      collectParameters(property, depth + 1, parts);
    }
  }
  if (node.items && typeof node.items === 'object') collectParameters(node.items, depth + 1, parts);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const alternatives = node[key];
    if (Array.isArray(alternatives))
      for (const alternative of alternatives.slice(0, 8))
        collectParameters(alternative, depth + 1, parts);
  }
}

/** Fills in the MGP §4.3 defaults of a server-sent `security` object. */
export function normalizeSecurity(security: ServerTool['security']): ToolSecurity | undefined {
  if (!security || typeof security.risk_level !== 'string') return undefined;
  return {
    ...security,
    risk_level: security.risk_level,
    permissions_required: Array.isArray(security.permissions_required)
      ? security.permissions_required
      : [],
    side_effects: Array.isArray(security.side_effects) ? security.side_effects : [],
  } as ToolSecurity;
}

function entryOf(
  serverId: string,
  tool: ServerTool,
  status: ToolStatus,
  kernel: boolean,
  words: ToolWords,
): ToolIndexEntry {
  const security = normalizeSecurity(tool.security);
  return {
    tool_id: kernel ? tool.name : toolIdOf(serverId, tool.name),
    server_id: serverId,
    name: tool.name,
    description: tool.description ?? '',
    categories: categoriesOf(
      words,
      security ? { ...tool, security: security as ServerTool['security'] } : tool,
      kernel,
    ),
    keywords: keywordsOf(words),
    inputSchema: tool.inputSchema ?? { type: 'object', properties: {} },
    ...(security ? { security } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    status,
    kernel,
  };
}

/** Builds an index entry from a listed tool (categories and keywords derived). */
export function toEntry(
  serverId: string,
  tool: ServerTool,
  status: ToolStatus,
  kernel = false,
): ToolIndexEntry {
  return entryOf(serverId, tool, status, kernel, toolWords(tool, serverId));
}

function distinct<T>(items: readonly T[]): T[] {
  return items.length < 2 ? items.slice() : [...new Set(items)];
}

function concat(...parts: TermIds[]): TermIds {
  return ([] as number[]).concat(...parts);
}

/**
 * The first sentence of a description (what the tool does), apart from the rest (usage advice, which
 * names many other things). Long descriptions otherwise match every query a little.
 */
export function splitLead(description: string, maxWords = 40): [string, string] {
  const text = description.trim();
  const end = text.search(SENTENCE_END);
  let cut = end < 0 ? text.length : end + 1;
  // No more than `maxWords` words: cut after the last of them.
  for (let i = 0, words = 0, inWord = false; i < cut; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord && ++words > maxWords) {
      cut = i;
      while (cut > 0 && isSpace(text.charCodeAt(cut - 1))) cut--;
      break;
    }
    inWord = !space;
  }
  return [text.slice(0, cut), text.slice(cut)];
}

const SENTENCE_END = /[.!?](\s|$)|\n\s*\n/;

/** What `\s` matches. */
function isSpace(code: number): boolean {
  return (
    code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/.test(String.fromCharCode(code)))
  );
}
