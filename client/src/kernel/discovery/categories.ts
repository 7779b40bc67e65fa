/**
 * The category vocabulary of the tool index and how a tool's categories and keywords are derived
 * from its name, description, MCP annotations and MGP security metadata (MGP §16.4).
 *
 * Categories form a tree (`git` is under `code`, `browser` under `web` under `network`, `delete` under
 * `write`); an entry carries its categories with all their ancestors, so filtering by a parent
 * category finds the tools of its children.
 */
import { DELETE_VERBS, READ_VERBS, WRITE_VERBS, type Action } from '../search/actions';
import { isStopWord, splitWords, stem } from '../search/text';
import type { ServerTool } from './types';

/** Each category with its parent (null at the top) and a one-line meaning. */
export const CATEGORY_TREE: Readonly<
  Record<string, { parent: string | null; description: string }>
> = Object.freeze({
  read: { parent: null, description: 'reads or lists without changing anything' },
  write: { parent: null, description: 'creates, changes or sends something' },
  delete: { parent: 'write', description: 'removes or destroys something' },
  filesystem: { parent: null, description: 'local files and directories' },
  network: { parent: null, description: 'reaches services over the network' },
  web: { parent: 'network', description: 'web pages, URLs, the internet' },
  browser: { parent: 'web', description: 'drives a web browser' },
  search: { parent: null, description: 'searches or looks things up' },
  research: { parent: 'search', description: 'research, papers, reports from many sources' },
  database: { parent: null, description: 'databases, tables, SQL' },
  shell: { parent: null, description: 'runs commands, processes or code' },
  code: { parent: null, description: 'source code, libraries, documentation for programmers' },
  git: {
    parent: 'code',
    description: 'repositories, commits, branches, pull and merge requests, issues',
  },
  memory: { parent: null, description: 'knowledge graphs and long-term memory' },
  communication: { parent: null, description: 'messages between people' },
  chat: { parent: 'communication', description: 'chat channels, threads and reactions' },
  email: { parent: 'communication', description: 'email' },
  documents: { parent: null, description: 'documents, pages, notes, wikis, markdown' },
  location: { parent: null, description: 'maps, places, addresses, directions' },
  media: { parent: null, description: 'images, audio and video' },
  image: { parent: 'media', description: 'images, pictures, screenshots' },
  reasoning: { parent: null, description: 'structured thinking and planning' },
  monitoring: { parent: null, description: 'status, progress, logs and watchers' },
  kernel: { parent: null, description: 'MGP kernel tools (mgp.*)' },
});

/** A category with its ancestors, nearest first. */
export function withAncestors(category: string): string[] {
  const chain: string[] = [];
  for (
    let c: string | null = category;
    c && !chain.includes(c);
    c = CATEGORY_TREE[c]?.parent ?? null
  )
    chain.push(c);
  return chain;
}

/** Words (any inflection: they are stemmed) that put a tool in a category when its name or description has them. */
const CATEGORY_WORDS: Record<string, string> = {
  filesystem: 'filesystem directory directories folder disk mkdir',
  web: 'web website webpage url urls internet online crawl scrape scraping html http sitemap domain',
  browser: 'browser click navigate viewport dialog hover drag playwright tab tabs keyboard dom',
  search: 'search find lookup locate query',
  research: 'research paper papers academic arxiv citation citations abstract',
  database:
    'database sql postgres postgresql mysql sqlite redis mongodb table tables rows records column columns',
  shell: 'shell command terminal execute bash process script evaluate',
  code: 'code library libraries programming framework function snippet api sdk documentation developer',
  git: 'git github gitlab repository repositories repo commit commits branch fork pull merge issue issues',
  memory: 'memory knowledge graph entity entities observation observations remember',
  chat: 'slack channel channels chat thread threads reaction emoji',
  email: 'email mail inbox',
  communication: 'message messages notify notification comment comments reply',
  documents: 'notion document documents page pages markdown pdf note notes wiki block blocks',
  location:
    'map maps geocode geographic address coordinates place places directions distance elevation latitude longitude route travel',
  image: 'image images picture photo screenshot png jpeg jpg gif svg',
  media: 'audio video media mime',
  reasoning: 'think thinking thought thoughts reasoning problem solving reflective',
  monitoring: 'monitor monitors status progress log logs logging console health',
};

const stemSet = (words: string) => new Set(words.split(' ').map(stem));
const CATEGORY_STEMS = Object.entries(CATEGORY_WORDS).map(
  ([category, words]) => [category, stemSet(words)] as const,
);
const READ = stemSet(READ_VERBS);
const WRITE = stemSet(WRITE_VERBS);
const DELETE = stemSet(DELETE_VERBS);

// Categories as bits, in vocabulary order, each with its ancestors' bits.
const CATEGORY_NAMES = Object.keys(CATEGORY_TREE);
const BIT = new Map(CATEGORY_NAMES.map((c, i) => [c, 2 ** i]));
const bitsOf = (categories: readonly string[]) =>
  categories.reduce((bits, c) => bits | (BIT.get(c) ?? 0), 0);
const WITH_ANCESTORS = new Map(
  CATEGORY_NAMES.map((c) => [BIT.get(c) ?? 0, bitsOf(withAncestors(c))]),
);
const BITS_BY_STEM = new Map<string, number>();
for (const [category, stems] of CATEGORY_STEMS)
  for (const s of stems) BITS_BY_STEM.set(s, (BITS_BY_STEM.get(s) ?? 0) | (BIT.get(category) ?? 0));

// What a word says for derivation, cached per word: its category bits, and whether it is a delete, write or read verb.
const VERB_DELETE = 1;
const VERB_WRITE = 2;
const VERB_READ = 3;
interface WordSense {
  bits: number;
  verb: number;
}
const senses = new Map<string, WordSense>();
function senseOf(word: string): WordSense {
  let sense = senses.get(word);
  if (!sense) {
    const s = stem(word);
    const verb = DELETE.has(s)
      ? VERB_DELETE
      : WRITE.has(s)
        ? VERB_WRITE
        : READ.has(s)
          ? VERB_READ
          : 0;
    sense = { bits: BITS_BY_STEM.get(s) ?? 0, verb };
    if (senses.size < 100_000) senses.set(word, sense);
  }
  return sense;
}

/** The action of the first verb among a name's first three words (`slack_get_users` reads), or undefined. */
export function nameVerb(words: readonly string[]): Action | undefined {
  for (let i = 0; i < 3 && i < words.length; i++) {
    const verb = senseOf(words[i]).verb;
    if (verb) return verb === VERB_DELETE ? 'delete' : verb === VERB_WRITE ? 'write' : 'read';
  }
  return undefined;
}

/** Permission prefixes and side effects (MGP §3.2, §4.3) and the categories they imply. */
const PERMISSION_CATEGORIES: Record<string, string[]> = {
  'filesystem.read': ['filesystem', 'read'],
  'filesystem.write': ['filesystem', 'write'],
  'network.outbound': ['network'],
  'network.listen': ['network'],
  'shell.execute': ['shell'],
  code_execution: ['shell'],
  'memory.read': ['memory', 'read'],
  'memory.write': ['memory', 'write'],
  notification: ['communication'],
  camera: ['media'],
};
const SIDE_EFFECT_CATEGORIES: Record<string, string> = {
  filesystem: 'filesystem',
  network: 'network',
  process: 'shell',
  database: 'database',
  notification: 'communication',
};

/** A tool's words, split once and shared by every derivation (see `toolWords`). */
export interface ToolWords {
  name: readonly string[];
  server: readonly string[];
  title: readonly string[];
  /** Every word of the description, stop words included. */
  description: readonly string[];
}

/** The words of a tool's name, server id, title and description. */
export function toolWords(tool: ServerTool, serverId: string): ToolWords {
  return {
    name: splitWords(tool.name),
    server: splitWords(serverId),
    title: splitWords(typeof tool.annotations?.title === 'string' ? tool.annotations.title : ''),
    description: splitWords(tool.description ?? ''),
  };
}

/** Read, write or delete: from the leading verb of the name (or of the description), then the annotations. */
function operationBits(
  words: ToolWords,
  firstDescriptionWord: string | undefined,
  tool: ServerTool,
): number {
  let verb = 0;
  for (const word of [words.name[0], words.name[1], words.name[2], firstDescriptionWord]) {
    if (word !== undefined && (verb = senseOf(word).verb)) break;
  }
  let bits =
    verb === VERB_DELETE
      ? bit('delete')
      : verb === VERB_WRITE
        ? bit('write')
        : verb === VERB_READ
          ? bit('read')
          : 0;
  const hints = tool.annotations;
  if (hints?.readOnlyHint === true) bits |= bit('read');
  if (hints?.readOnlyHint === false && !(bits & (bit('write') | bit('delete'))))
    bits |= bit('write');
  return bits;
}

function bit(category: string): number {
  return BIT.get(category) ?? 0;
}

function securityBits(tool: ServerTool): number {
  let bits = 0;
  const permissions = tool.security?.permissions_required;
  for (const permission of Array.isArray(permissions) ? permissions : []) {
    const exact =
      PERMISSION_CATEGORIES[permission] ?? PERMISSION_CATEGORIES[permission.split('.')[0]] ?? [];
    bits |= bitsOf(exact);
    if (!exact.length && permission.startsWith('network')) bits |= bit('network');
  }
  const effects = tool.security?.side_effects;
  for (const effect of Array.isArray(effects) ? effects : [])
    if (SIDE_EFFECT_CATEGORIES[effect]) bits |= bit(SIDE_EFFECT_CATEGORIES[effect]);
  if (tool.annotations?.openWorldHint === true) bits |= bit('network');
  return bits;
}

const namesByBits = new Map<number, readonly string[]>();

/** The categories of bits, with their ancestors, in vocabulary order. */
function categoryNames(bits: number): string[] {
  let names = namesByBits.get(bits);
  if (!names) {
    let all = 0;
    for (const [one, chain] of WITH_ANCESTORS) if (bits & one) all |= chain;
    names = CATEGORY_NAMES.filter((c) => all & bit(c));
    if (namesByBits.size < 10_000) namesByBits.set(bits, names);
  }
  return names.slice();
}

// Word lists are shared between tools with the same text (the index splits each text once): what a
// list says for derivation is remembered per list.
const listBits = new WeakMap<readonly string[], number>();
const descriptionSenses = new WeakMap<readonly string[], { bits: number; first?: string }>();

function bitsOfWords(words: readonly string[]): number {
  if (!words.length) return 0;
  let bits = listBits.get(words);
  if (bits === undefined) {
    bits = 0;
    for (const w of words) bits |= senseOf(w).bits;
    listBits.set(words, bits);
  }
  return bits;
}

/** The category bits of a description's first 40 meaningful words, and the first of them. */
function descriptionSense(words: readonly string[]): { bits: number; first?: string } {
  let sense = descriptionSenses.get(words);
  if (!sense) {
    let bits = 0;
    let first: string | undefined;
    for (let i = 0, seen = 0; i < words.length && seen < 40; i++) {
      const w = words[i];
      if (isStopWord(w)) continue;
      first ??= w;
      seen++;
      bits |= senseOf(w).bits;
    }
    descriptionSenses.set(words, (sense = { bits, first }));
  }
  return sense;
}

/** Categories from words already split (see `deriveCategories`). */
export function categoriesOf(words: ToolWords, tool: ServerTool, kernel = false): string[] {
  const description = descriptionSense(words.description);
  let bits =
    (kernel ? bit('kernel') : 0) |
    bitsOfWords(words.name) |
    bitsOfWords(words.server) |
    bitsOfWords(words.title) |
    description.bits;
  bits |= operationBits(words, description.first, tool) | securityBits(tool);
  // A file in a hosted repository is not the local filesystem.
  if (!(bits & bit('git')) && (words.name.includes('file') || words.name.includes('files')))
    bits |= bit('filesystem');
  return categoryNames(bits);
}

/** The categories of a tool, with their ancestors, sorted in vocabulary order. */
export function deriveCategories(tool: ServerTool, serverId: string, kernel = false): string[] {
  return categoriesOf(toolWords(tool, serverId), tool, kernel);
}

const ALL_DIGITS = /^[0-9]+$/;

const candidatesOfAll = new WeakMap<readonly string[], string[]>();
const candidatesOfLead = new WeakMap<readonly string[], string[]>();

/**
 * The words of a list (of its first `max`) that can be keywords (no short words, stop words or
 * numbers), the first of each stem, at most `limit`: `[word, stem, word, stem, …]`.
 */
function candidates(words: readonly string[], limit: number, max = Infinity): string[] {
  const lists = max === Infinity ? candidatesOfAll : candidatesOfLead;
  let found = lists.get(words);
  if (!found) {
    found = [];
    for (let i = 0; i < words.length && i < max && found.length < 2 * limit; i++) {
      const w = words[i];
      if (w.length < 3 || isStopWord(w) || ALL_DIGITS.test(w)) continue;
      const s = stem(w);
      if (!stemIn(found, s)) found.push(w, s);
    }
    lists.set(words, found);
  }
  return found;
}

function stemIn(pairs: readonly string[], s: string): boolean {
  for (let i = 1; i < pairs.length; i += 2) if (pairs[i] === s) return true;
  return false;
}

/** Keywords from words already split (see `deriveKeywords`). */
export function keywordsOf(words: ToolWords, limit = 12): string[] {
  const keywords: string[] = [];
  const stems: string[] = [];
  for (const pairs of [
    candidates(words.name, limit),
    candidates(words.title, limit),
    candidates(words.description, limit, 30),
  ]) {
    for (let i = 0; i < pairs.length; i += 2) {
      if (keywords.length >= limit) return keywords;
      if (stems.includes(pairs[i + 1])) continue;
      stems.push(pairs[i + 1]);
      keywords.push(pairs[i]);
    }
  }
  return keywords;
}

/** Up to `limit` plain words for a tool: its name's parts, then the salient words of its title and description. */
export function deriveKeywords(tool: ServerTool, limit = 12): string[] {
  return keywordsOf(toolWords(tool, ''), limit);
}

let stemsByCategory: ReadonlyMap<string, ReadonlySet<string>> | undefined;

/** Words a query may use for a category: its name and its trigger words, stemmed. */
export function categoryStems(): ReadonlyMap<string, ReadonlySet<string>> {
  if (stemsByCategory) return stemsByCategory;
  const map = new Map<string, Set<string>>();
  for (const c of Object.keys(CATEGORY_TREE)) map.set(c, new Set([stem(c)]));
  for (const [c, stems] of CATEGORY_STEMS) for (const s of stems) map.get(c)?.add(s);
  return (stemsByCategory = map);
}
