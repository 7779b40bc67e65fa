/**
 * The category vocabulary of the tool index and how a tool's categories and keywords are derived
 * from its name, description, MCP annotations and MGP security metadata (MGP §16.4).
 *
 * Categories form a tree (`git` is under `code`, `browser` under `web` under `network`, `delete` under
 * `write`); an entry carries its categories with all their ancestors, so filtering by a parent
 * category finds the tools of its children.
 */
import { isStopWord, splitWords, stem } from './text';
import type { ServerTool } from './types';

/** Each category with its parent (null at the top) and a one-line meaning. */
export const CATEGORY_TREE: Readonly<Record<string, { parent: string | null; description: string }>> = Object.freeze({
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
  git: { parent: 'code', description: 'repositories, commits, branches, pull and merge requests, issues' },
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
  for (let c: string | null = category; c && !chain.includes(c); c = CATEGORY_TREE[c]?.parent ?? null) chain.push(c);
  return chain;
}

/** Words (any inflection: they are stemmed) that put a tool in a category when its name or description has them. */
const CATEGORY_WORDS: Record<string, string> = {
  filesystem: 'filesystem directory directories folder disk mkdir',
  web: 'web website webpage url urls internet online crawl scrape scraping html http sitemap domain',
  browser: 'browser click navigate viewport dialog hover drag playwright tab tabs keyboard dom',
  search: 'search find lookup locate query',
  research: 'research paper papers academic arxiv citation citations abstract',
  database: 'database sql postgres postgresql mysql sqlite redis mongodb table tables rows records column columns',
  shell: 'shell command terminal execute bash process script evaluate',
  code: 'code library libraries programming framework function snippet api sdk documentation developer',
  git: 'git github gitlab repository repositories repo commit commits branch fork pull merge issue issues',
  memory: 'memory knowledge graph entity entities observation observations remember',
  chat: 'slack channel channels chat thread threads reaction emoji',
  email: 'email mail inbox',
  communication: 'message messages notify notification comment comments reply',
  documents: 'notion document documents page pages markdown pdf note notes wiki block blocks',
  location: 'map maps geocode geographic address coordinates place places directions distance elevation latitude longitude route travel',
  image: 'image images picture photo screenshot png jpeg jpg gif svg',
  media: 'audio video media mime',
  reasoning: 'think thinking thought thoughts reasoning problem solving reflective',
  monitoring: 'monitor monitors status progress log logs logging console health',
};

/** Leading verbs of a tool name that make it a read or a write. */
const READ_VERBS = 'get read list search find fetch retrieve query view show open resolve check inspect describe lookup browse map echo';
const WRITE_VERBS = 'create update write edit move rename push post patch set add merge fork upload send append insert replace reply submit toggle generate run execute trigger start stop close type press fill drop drag select';
const DELETE_VERBS = 'delete remove destroy drop erase purge clear archive';

const stemSet = (words: string) => new Set(words.split(' ').map(stem));
const CATEGORY_STEMS = Object.entries(CATEGORY_WORDS).map(([category, words]) => [category, stemSet(words)] as const);
const CATEGORIES_BY_STEM = new Map<string, string[]>();
for (const [category, stems] of CATEGORY_STEMS) for (const s of stems) CATEGORIES_BY_STEM.set(s, [...(CATEGORIES_BY_STEM.get(s) ?? []), category]);
const READ = stemSet(READ_VERBS);
const WRITE = stemSet(WRITE_VERBS);
const DELETE = stemSet(DELETE_VERBS);

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
  filesystem: 'filesystem', network: 'network', process: 'shell', database: 'database', notification: 'communication',
};

function operationCategories(nameWords: string[], descriptionWords: string[], tool: ServerTool): string[] {
  const found: string[] = [];
  const verbs = [nameWords[0], ...nameWords.slice(1, 3), descriptionWords[0]].filter(Boolean).map(stem);
  const leading = verbs.find((v) => READ.has(v) || WRITE.has(v) || DELETE.has(v));
  if (leading && DELETE.has(leading)) found.push('delete');
  else if (leading && WRITE.has(leading)) found.push('write');
  else if (leading && READ.has(leading)) found.push('read');
  const hints = tool.annotations;
  if (hints?.readOnlyHint === true && !found.includes('read')) found.push('read');
  if (hints?.readOnlyHint === false && !found.some((c) => c === 'write' || c === 'delete')) found.push('write');
  return found;
}

function securityCategories(tool: ServerTool): string[] {
  const found: string[] = [];
  for (const permission of tool.security?.permissions_required ?? []) {
    const exact = PERMISSION_CATEGORIES[permission] ?? PERMISSION_CATEGORIES[permission.split('.')[0]] ?? [];
    found.push(...exact);
    if (!exact.length && permission.startsWith('network')) found.push('network');
  }
  for (const effect of tool.security?.side_effects ?? []) if (SIDE_EFFECT_CATEGORIES[effect]) found.push(SIDE_EFFECT_CATEGORIES[effect]);
  if (tool.annotations?.openWorldHint === true) found.push('network');
  return found;
}

/** The categories of a tool, with their ancestors, sorted in vocabulary order. */
export function deriveCategories(tool: ServerTool, serverId: string, kernel = false): string[] {
  const nameWords = splitWords(tool.name);
  const descriptionWords = splitWords(tool.description ?? '').filter((w) => !isStopWord(w));
  const text = new Set([...nameWords, ...splitWords(serverId), ...splitWords(tool.annotations?.title ?? ''), ...descriptionWords.slice(0, 40)].map(stem));
  const found = new Set<string>(kernel ? ['kernel'] : []);
  for (const s of text) for (const category of CATEGORIES_BY_STEM.get(s) ?? []) found.add(category);
  for (const c of [...operationCategories(nameWords, descriptionWords, tool), ...securityCategories(tool)]) found.add(c);
  // A file in a hosted repository is not the local filesystem.
  if (!found.has('git') && (nameWords.includes('file') || nameWords.includes('files'))) found.add('filesystem');
  const all = new Set([...found].flatMap(withAncestors));
  return Object.keys(CATEGORY_TREE).filter((c) => all.has(c));
}

/** Up to `limit` plain words for a tool: its name's parts, then the salient words of its title and description. */
export function deriveKeywords(tool: ServerTool, limit = 12): string[] {
  const words = [
    ...splitWords(tool.name),
    ...splitWords(tool.annotations?.title ?? ''),
    ...splitWords(tool.description ?? '').slice(0, 30),
  ];
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const w of words) {
    if (w.length < 3 || isStopWord(w) || /^[0-9]+$/.test(w) || seen.has(stem(w))) continue;
    seen.add(stem(w));
    keywords.push(w);
    if (keywords.length >= limit) break;
  }
  return keywords;
}

/** Words a query may use for a category: its name and its trigger words, stemmed. */
export function categoryStems(): ReadonlyMap<string, ReadonlySet<string>> {
  const map = new Map<string, Set<string>>();
  for (const c of Object.keys(CATEGORY_TREE)) map.set(c, new Set([stem(c)]));
  for (const [c, stems] of CATEGORY_STEMS) for (const s of stems) map.get(c)?.add(s);
  return map;
}
