/**
 * What a query's literal values say about the need, before the words are analysed. People paste the
 * thing they want handled: a URL, a file name, a glob, an e-mail address, coordinates, a chat channel,
 * a line of code. Its characters are noise to a word index (`https`, `example`, `com`), but its kind is the best clue
 * there is (`url`, `file`), so each literal is replaced by the words for its kind. Phrasal verbs
 * (`look up`, `turn on`) lose their meaning once stop words are dropped: they become one word first.
 */

/** Extensions that make a dotted token a file name (not `node.js`: a bare `.js` name is often a product). */
const FILE_EXTENSIONS =
  'txt md markdown rst json jsonl yaml yml toml ini cfg conf env xml csv tsv log lock ' +
  'ts tsx jsx mjs cjs py rb go rs java kt swift c h cc cpp hpp cs php sh bash zsh ps1 sql css scss html htm vue svelte ' +
  'pdf doc docx xls xlsx ppt pptx odt png jpg jpeg gif svg webp bmp ico tiff mp3 wav ogg flac mp4 mov avi mkv webm ' +
  'zip tar gz tgz bz2 xz 7z rar jar wasm bin exe dll so dylib db sqlite parquet ipynb';

/** Extensions that also say what kind of content the file holds. */
const CONTENT_KINDS: Record<string, string> = {
  pdf: 'pdf document', md: 'markdown', markdown: 'markdown', csv: 'csv table', html: 'html', htm: 'html',
  png: 'image', jpg: 'image', jpeg: 'image', gif: 'image', svg: 'image', webp: 'image', bmp: 'image', ico: 'image', tiff: 'image',
  mp3: 'audio', wav: 'audio', ogg: 'audio', flac: 'audio', mp4: 'video', mov: 'video', avi: 'video', mkv: 'video', webm: 'video',
  zip: 'archive', tar: 'archive', gz: 'archive', tgz: 'archive', rar: 'archive', '7z': 'archive',
  db: 'database', sqlite: 'database', sql: 'sql',
};

const EXTENSION = FILE_EXTENSIONS.split(' ').join('|');

/** Literal values and the words they stand for, in the order they are replaced. */
const LITERALS: ReadonlyArray<[RegExp, (match: string) => string]> = [
  [/\b(?:https?|ftp|wss?):\/\/[^\s<>"'`]+|\bwww\.[a-z0-9-]+\.[^\s<>"'`]+/gi, () => ' url '],
  [/\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+\b/gi, () => ' email address '],
  [/(?:^|[\s(])-?\d{1,3}\.\d{2,}\s*,\s*-?\d{1,3}\.\d{2,}\b/g, () => ' coordinates '],
  // A glob: a token with * among path characters.
  [/(?:^|\s)(?=\S*[\w.])[\w./-]*\*[\w.*/-]*/g, () => ' file pattern '],
  // A file name or path with a known extension; a bare `name.js` only with a directory in front.
  [new RegExp(`(?:[\\w.-]*/)*[\\w-]+(?:\\.[\\w-]+)*\\.(${EXTENSION})\\b|(?:[\\w.-]*/)+[\\w-]+\\.js\\b`, 'gi'), (m) => ` file ${CONTENT_KINDS[m.slice(m.lastIndexOf('.') + 1).toLowerCase()] ?? ''} `],
  // Code: a browser global's property or method (`document.title`, `window.scrollY`), a call (`foo.bar()`, `useEffect()`), an arrow function.
  [/\b(?:document|window|navigator|location|localStorage|sessionStorage|console|globalThis)\.[\w.$]+(?:\([^)]*\))?|[\w$.]+\([^()]*\)|\([^()]*\)\s*=>/g, () => ' javascript expression '],
  // A library named like a file (`node.js`, `next.js`): one word, not `node` and `js`.
  [/\b([a-z][\w-]*)\.js\b/gi, (m) => ` ${m.slice(0, -3).replace(/\W/g, '')}js `],
  // A chat channel (#ops) or a person (@alice), not an issue number (#42).
  [/(?:^|\s)#[a-z][\w-]*/gi, () => ' channel '],
  [/(?:^|\s)@[a-z][\w.-]*(?![\w/])/gi, () => ' user '],
];

/** Phrasal verbs whose particle is a stop word, and the one word each means. */
const PHRASAL_VERBS: ReadonlyArray<[RegExp, string]> = Object.entries({
  'look up': 'lookup', 'look for': 'search', 'look into': 'investigate', 'look at': 'view', 'find out': 'find',
  'set up': 'create', 'turn on': 'enable', 'switch on': 'enable', 'turn off': 'disable', 'switch off': 'disable',
  'shut down': 'stop', 'log in': 'login', 'sign in': 'login', 'log out': 'logout', 'sign out': 'logout',
  'clean up': 'cleanup', 'back up': 'backup', 'fill in': 'fill', 'fill out': 'fill', 'go back': 'back',
  'go to': 'navigate', 'take down': 'remove', 'get rid of': 'remove', 'write down': 'note', 'put in': 'insert',
  'take up': 'occupy', 'how long': 'duration', 'how far': 'distance', 'how many': 'count',
}).map(([phrase, word]) => [new RegExp(`\\b${phrase.replace(' ', '\\s+')}\\b`, 'gi'), ` ${word} `]);

/** The query with its literal values replaced by the words for their kind, and phrasal verbs by one word. */
export function normalizeQuery(query: string): string {
  let text = query;
  for (const [pattern, words] of LITERALS) text = text.replace(pattern, (m) => words(m.trim()));
  for (const [pattern, word] of PHRASAL_VERBS) text = text.replace(pattern, word);
  return text;
}
