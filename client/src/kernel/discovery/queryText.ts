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
  doc: 'document', docx: 'document', odt: 'document', rtf: 'document', xls: 'spreadsheet', xlsx: 'spreadsheet', ppt: 'presentation', pptx: 'presentation',
};

const EXTENSION = FILE_EXTENSIONS.split(' ').join('|');

/** Path words of code-hosting URLs that say what the page is (`/issues/88`, `/pull/12`). */
const URL_PAGE_WORDS: Readonly<Record<string, string>> = {
  issues: 'issue', pull: 'pull request', pulls: 'pull requests', merge_requests: 'merge request', commit: 'commit', commits: 'commits',
  blob: 'file', tree: 'directory', releases: 'release', wiki: 'wiki',
};

/** A URL as words: `url`, its site's name (`github`, `notion`) and what its path says the page is. */
function urlWords(url: string): string {
  const match = /^(?:[a-z]+:\/\/)?([^/?#:]+)([^?#]*)/i.exec(url);
  const labels = (match?.[1] ?? '').toLowerCase().split('.').filter((l) => l !== 'www');
  // `example.com` and its kin (RFC 2606) stand for any site.
  const site = labels.length >= 2 && labels[labels.length - 2] !== 'example' ? labels[labels.length - 2] : '';
  const page = (match?.[2] ?? '').split('/').map((part) => URL_PAGE_WORDS[part.toLowerCase()]).filter(Boolean);
  return ` url ${site} ${page.join(' ')} `;
}

/** A file literal's words: `file`, and the kind of content its extension says. */
function fileWords(name: string): string {
  return ` file ${CONTENT_KINDS[name.slice(name.lastIndexOf('.') + 1).toLowerCase()] ?? ''} `;
}

/** A file known by its name alone. */
function knownFileWords(): string {
  return ' file ';
}

/** Literal values and the words they stand for, in the order they are replaced. */
const LITERALS: ReadonlyArray<[RegExp, (match: string) => string]> = [
  // An SQL statement, by its upper-case keywords (`select the option from…` is a request, not SQL).
  [/\b(?:SELECT|INSERT\s+INTO|UPDATE|DELETE\s+FROM|WITH|CREATE\s+TABLE|ALTER\s+TABLE|DROP\s+TABLE)\b[^;]*?\b(?:FROM|WHERE|SET|VALUES|AS|ADD|COLUMN)\b[^;]*;?/g, () => ' sql query '],
  [/\b(?:https?|ftp|wss?):\/\/[^\s<>"'`]+|\bwww\.[a-z0-9-]+\.[^\s<>"'`]+/gi, urlWords],
  // Quoted text is the value to use (a message, a label, a search term), not words of the need.
  [/(?:^|(?<=[\s(:=]))(['"“‘`])[^'"“”‘’`\n]+?(?:\1|[”’])(?=$|[\s,.;:!?)])/g, () => ' text '],
  [/\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+\b/gi, () => ' email address '],
  [/(?:^|[\s(])-?\d{1,3}\.\d{2,}\s*,\s*-?\d{1,3}\.\d{2,}\b/g, () => ' coordinates '],
  // An id: capitals and digits mixed (`U024BE7LH`, `PMC123456`), or a long token of both cases and digits.
  [/\b(?=[A-Z0-9_-]*\d)(?=[A-Z0-9_-]*[A-Z])[A-Z0-9][A-Z0-9_-]{5,}\b|\b(?=\w*\d)(?=\w*[a-z])(?=\w*[A-Z])\w{12,}\b/g, () => ' id '],
  // A page's own dialogs named by their calls (`prompt()`, `window.confirm('Sure?')`): a dialog, not code to run.
  [/\b(?:window\.)?(?:alert|confirm|prompt)\([^)]*\)/g, () => ' dialog '],
  // Sums written out (`17 + 26`).
  [/(?<![\w.])-?\d+(?:\.\d+)?\s*\+\s*-?\d+(?:\.\d+)?(?![\w.])/g, () => ' sum numbers '],
  // A directory written with its trailing slash (`old-logs/`, `archive/2025/`).
  [/(?:^|(?<=\s))[\w.-]+(?:\/[\w.-]+)*\/(?=$|[\s,;:!?)])/g, () => ' directory path '],
  // Console output named by its call (before `.log` reads as a file): what a page printed, not code to run.
  [/\bconsole\.(?:log|warn|error|info|debug)\b(?:\([^)]*\))?/g, () => ' console messages '],
  // A glob: a token with * among path characters.
  [/(?:^|\s)(?=\S*[\w.])[\w./-]*\*[\w.*/-]*/g, () => ' file pattern '],
  // A file name or path with a known extension; a bare `name.js` only with a directory in front.
  [new RegExp(`(?:[\\w.-]*/)*[\\w-]+(?:\\.[\\w-]+)*\\.(${EXTENSION})\\b|(?:[\\w.-]*/)+[\\w-]+\\.js\\b`, 'gi'), fileWords],
  // A site named by its domain (`competitor.com`, `docs.python.org`).
  [/\b(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|app|co|edu|gov|info|biz|xyz|me|us|uk|de|fr|eu)\b(?![.\w-])/gi, () => ' website '],
  // Files known by a name without extension (`Makefile`, `Dockerfile`, `README`, `.gitignore`).
  [/(?<![\w./-])(?:Makefile|Dockerfile|Containerfile|Jenkinsfile|Vagrantfile|Procfile|Gemfile|Rakefile|Brewfile|Justfile|README|LICENSE|CHANGELOG|CONTRIBUTING|CODEOWNERS|\.gitignore|\.dockerignore|\.npmrc|\.bashrc|\.zshrc|\.profile|\.editorconfig)(?![\w.-])/g, knownFileWords],
  // A directory path: rooted (`/var/log`, `~/src`, `./build`) or of three parts or more (`tmp/cache/images`).
  [/(?:^|(?<=\s))(?:(?:~|\.{1,2})?\/[\w.-]+(?:\/[\w.-]*)*|[\w.-]+\/[\w.-]+\/[\w./-]+)/g, () => ' directory path '],
  // Code: a browser global's property or method (`document.title`, `window.scrollY`), a call (`foo.bar()`, `useEffect()`), an arrow function.
  [/\b(?:document|window|navigator|location|localStorage|sessionStorage|console|globalThis)\.[\w.$]+(?:\([^)]*\))?|[\w$.]+\([^()]*\)|\([^()]*\)\s*=>/g, () => ' javascript expression '],
  // A library named like a file (`node.js`, `next.js`): one word, not `node` and `js`.
  [/\b([a-z][\w-]*)\.js\b/gi, (m) => ` ${m.slice(0, -3).replace(/\W/g, '')}js `],
  // A code identifier in lower camelCase (`useEffect`, `createSlice`) or CONSTANT_CASE (`DATABASE_URL`): a symbol to find, not the words it is made of.
  [/\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+\b|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g, () => ' code symbol '],
  // A chat channel (#ops) or a person (@alice), not an issue number (#42).
  [/(?:^|\s)#[a-z][\w-]*/gi, () => ' channel '],
  [/(?:^|\s)@[a-z][\w.-]*(?![\w/])/gi, () => ' user '],
];

/** Phrasal verbs whose particle is a stop word, and idioms whose words mean nothing apart: the one word or two each means. */
const PHRASAL_VERBS: ReadonlyArray<[RegExp, string]> = Object.entries({
  'look up': 'lookup', 'look for': 'search', 'look into': 'investigate', 'look at': 'view', 'find out': 'find',
  'set up': 'create', 'turn on': 'enable', 'switch on': 'enable', 'turn off': 'disable', 'switch off': 'disable',
  'shut down': 'stop', 'log in': 'login', 'sign in': 'login', 'log out': 'logout', 'sign out': 'logout',
  'clean up': 'cleanup', 'back up': 'backup', 'fill in': 'fill', 'fill out': 'fill', 'go back': 'back',
  'go to': 'navigate', 'take down': 'remove', 'get rid of': 'remove', 'write down': 'note', 'put in': 'insert',
  'take up': 'occupy', 'how long': 'duration', 'how far': 'distance', 'how many': 'count',
  'pull together': 'gather', 'keep an eye on': 'watch', 'spin up': 'create', 'hunt down': 'search', 'track down': 'search', 'print out': 'print', 'key in': 'type', 'goes by': 'username',
  a11y: 'accessibility', i18n: 'internationalization', k8s: 'kubernetes', 'who am i': 'whoami', 'blog post': 'article',
  'where is': 'locate', 'where are': 'locate', "where's": 'locate',
  'how high': 'elevation', 'how tall': 'elevation', 'above sea level': 'elevation', 'meters up': 'elevation', 'feet up': 'elevation',
}).map(([phrase, word]) => [new RegExp(`\\b${phrase.replaceAll(' ', '\\s+')}\\b`, 'gi'), ` ${word} `]);

/**
 * Requests about an assistant's memory (`remember that…`, `what do you know about…`, `forget
 * everything about…`) name neither a tool nor its objects: they ask for the memory, a knowledge graph.
 */
const MEMORY_REQUESTS: ReadonlyArray<[RegExp, string]> = [
  [/\b(remember|memori[sz]e|record|note|jot down|keep in mind|bear in mind) that\b/gi, ' $1 memory knowledge '],
  [/\b(?:do )?you (?:know|remember|recall|have (?:stored|remembered|saved|memori[sz]ed|recorded|noted))(?: about)?\b|\byou've (?:stored|remembered|saved|memori[sz]ed|recorded|noted)\b/gi, ' memory knowledge '],
  [/\b(?:remembered|stored|saved|memorized|recorded|noted) about\b/gi, ' memory knowledge '],
  [/\bforget (everything|all|what)\b/gi, ' forget memory knowledge '],
  [/\blong[- ]term memory\b/gi, ' memory knowledge '],
];

/** Idioms that name a need by a pattern of words: a key to press, a web search, a watch for changes, a name given. */
const IDIOMS: ReadonlyArray<[RegExp, string]> = [
  [/\b(?:hit|press|tap|push)\s+(?:the\s+)?(?:enter|return|escape|esc|tab|space(?:bar)?|backspace|delete|del|home|end|page\s?up|page\s?down|(?:up|down|left|right)(?:\s+arrow)?|arrow\s+(?:up|down|left|right)|f\d{1,2})\b(?:\s+key)?/gi, ' press key '],
  [/\b(?:ctrl|control|cmd|command|alt|option|shift|meta)\s*\+\s*\w+/gi, ' key combination '],
  // `google the release date`: the verb, not the maps.
  [/\b(?:google|bing)\s+(?=(?:the|for|it|how|what|who|when|where|why|a|an|this|that|whether|if)\b)|\b(?:google|bing) it\b/gi, ' web search '],
  [/\b(?:alert|notify|tell|ping|email|message)\s+me\s+(?:when|if|whenever|once)\b|\blet me know (?:when|if|whenever)\b/gi, ' monitor changes '],
  // A name given (`the page called Roadmap`, `a table named users`) is a value: what is left is that it has one.
  [/\b(?:called|named|titled)\s+(?:"[^"]*"|'[^']*'|[\w.-]+)/gi, ' named '],
  // `when was yarn.lock created`: a question of a date, not a request to create.
  [/\bwhen\s+(?:was|were|did)\b([^?.!]*?)\b(?:created|modified|changed|updated|edited|written|made|touched)\b/gi, ' when $1 timestamp '],
  // `what does the top of CONTRIBUTING.md say`: to read it.
  [/\bwhat\s+does\b([^?]*?)\bsay\b/gi, ' read $1 '],
  // `is local.yml newer than prod.yml`: a question of dates.
  [/\b(?:newer|older|more recent)\s+than\b/gi, ' modified timestamp '],
  // `break the tie between Hank and Globex`: to delete a relation.
  [/\b(?:break|cut|sever)\s+(?:the\s+)?(?:tie|link|connection|relation|relationship)\b/gi, ' delete relation '],
  // `how do I get from Heathrow to Soho`: directions.
  [/\bhow\s+(?:do|can|should|would)\s+(?:i|we)\s+get\s+(?:from|to)\b/gi, ' directions '],
  // `press the Continue control on the form`: a click, not a key.
  [/\b(?:press|hit|tap|push)\s+(?:on\s+)?(?:the\s+)?(?:"[^"]*"|'[^']*'|[\w-]+)\s+(?:button|control|link|icon)\b/gi, ' click '],
  // `put my name in the username box`: typing into a field.
  [/\b(?:put|enter|write|insert|fill)\b[^.;]*?\b(?:in|into)\s+(?:the\s+)?(?:[\w-]+\s+)?(?:box|field|input|textbox|textarea)\b/gi, ' type text field '],
  // `put these notes into a new file`: to write one.
  [/\b(?:into|in|to)\s+(?:a\s+)?(?:new\s+)?file\b/gi, ' write file '],
  // `what the page looks like`: to see it.
  [/\bwhat\s+(?:the\s+|this\s+|my\s+|our\s+)?(?:page|site|website|screen|app|ui|dashboard|browser)\s+(?:currently\s+|now\s+)?looks?\s+like\b/gi, ' screenshot view '],
  // `the last-modified time`: a date, not a change to make.
  [/\blast[- ]modified\b/gi, ' modified timestamp '],
  // `as it would print`, `print preview`: the print media.
  [/\bas it would print\b|\bprint\s+(?:preview|styles?|stylesheet|media|layout|view)\b/gi, ' emulate media print '],
  // `hold until the button is enabled`: a wait.
  [/\b(?:hold|hang on|hold on|stand by|pause|sit tight)\s+(?:un)?til\b/gi, ' wait until '],
  // `let #frontend know`: to notify them.
  [/\blet\s+(\S+)\s+know\b/gi, ' notify $1 '],
  // `respond to the discussion on issue 90`: a comment on it.
  [/\b(?:respond|reply|answer)\b(?=[^.;]*\b(?:issue|ticket|pr|pull request)\b)/gi, ' comment '],
  // `the users table`: the table's name is a value too.
  [/\bthe\s+[a-z_][\w.]*\s+table\b/gi, ' the table '],
  // `drop a note on ticket 55`: a comment.
  [/\b(?:drop|leave|post|put|write)\s+(?:a\s+)?(?:quick\s+)?(?:note|remark)\s+(?:on|under)\b/gi, ' comment on '],
  // `open the staging site in a headless browser`: to navigate there.
  [/\bopen\b(?=[^.;]*\bin\s+(?:a|the)\s+(?:headless\s+)?browser\b)/gi, ' navigate '],
];

/** `open a PR`, `raise an issue`, `file a bug`: to open one is to create it (not to read it, as `open the file` is). */
const OPEN_TO_CREATE = /\b(?:open|raise|file|log|submit)\s+(?:(?:a|an|the)\s+)?(?:new\s+)?(?:github\s+|gitlab\s+)?(pr|pull request|merge request|mr|issue|ticket|bug report|bug)\b/gi;

/** The last query normalized: one search normalizes its query twice (its terms, its action). */
let last = { query: '', text: '' };

/** The query with its literal values replaced by the words for their kind, and phrasal verbs by one word. */
export function normalizeQuery(query: string): string {
  if (query === last.query) return last.text;
  let text = query;
  let files = 0;
  for (const [pattern, words] of LITERALS) {
    text = text.replace(pattern, (m) => {
      if (words === fileWords || words === knownFileWords) files++;
      return words(m.trim());
    });
  }
  // Two files named: the tool that takes several at once.
  if (files >= 2) text += ' multiple files';
  text = text.replace(OPEN_TO_CREATE, ' create $1 ');
  for (const [pattern, words] of IDIOMS) text = text.replace(pattern, words);
  for (const [pattern, words] of MEMORY_REQUESTS) text = text.replace(pattern, words);
  for (const [pattern, word] of PHRASAL_VERBS) text = text.replace(pattern, word);
  last = { query, text };
  return text;
}
