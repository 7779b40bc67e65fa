/**
 * Literal values in a query and the words for their kind. People paste the thing they want handled: a
 * URL, a file name, a glob, an e-mail address, coordinates, a chat channel, a line of code, an SQL
 * statement, an id. Its characters are noise to a word index (`https`, `example`, `com`), but its kind
 * is the best clue there is (`url`, `file`).
 */

/** Extensions that make a dotted token a file name (not `node.js`: a bare `.js` name is often a product). */
export const FILE_EXTENSIONS =
  'txt md markdown rst json jsonl yaml yml toml ini cfg conf env xml csv tsv log lock ' +
  'ts tsx jsx mjs cjs py rb go rs java kt swift c h cc cpp hpp cs php sh bash zsh ps1 sql css scss html htm vue svelte ' +
  'pdf doc docx xls xlsx ppt pptx odt png jpg jpeg gif svg webp bmp ico tiff mp3 wav ogg flac mp4 mov avi mkv webm ' +
  'zip tar gz tgz bz2 xz 7z rar jar wasm bin exe dll so dylib db sqlite parquet ipynb ' +
  'mod sum gradle kts properties plist tf tfvars hcl proto graphql gql lua dart ex exs erl hs scala clj pl nix bat cmd';

/** Extensions that also say what kind of content the file holds. */
const CONTENT_KINDS: Record<string, string> = {
  pdf: 'pdf document',
  md: 'markdown',
  markdown: 'markdown',
  csv: 'csv table',
  html: 'html',
  htm: 'html',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  svg: 'image',
  webp: 'image',
  bmp: 'image',
  ico: 'image',
  tiff: 'image',
  mp3: 'audio',
  wav: 'audio',
  ogg: 'audio',
  flac: 'audio',
  mp4: 'video',
  mov: 'video',
  avi: 'video',
  mkv: 'video',
  webm: 'video',
  zip: 'archive',
  tar: 'archive',
  gz: 'archive',
  tgz: 'archive',
  rar: 'archive',
  '7z': 'archive',
  db: 'database',
  sqlite: 'database',
  sql: 'sql',
  doc: 'document',
  docx: 'document',
  odt: 'document',
  rtf: 'document',
  xls: 'spreadsheet',
  xlsx: 'spreadsheet',
  ppt: 'presentation',
  pptx: 'presentation',
};

const EXTENSION = FILE_EXTENSIONS.split(' ').join('|');

/** Top-level domains that make a dotted token a site's name (`competitor.com`, `acme.io/pricing`). */
export const TOP_LEVEL_DOMAINS =
  'com org net io dev ai app co edu gov info biz xyz me us uk de fr eu';

const DOMAIN = `(?:[a-z0-9-]+\\.)+(?:${TOP_LEVEL_DOMAINS.split(' ').join('|')})`;

/** Path words of code-hosting URLs that say what the page is (`/issues/88`, `/pull/12`). */
const URL_PAGE_WORDS: Readonly<Record<string, string>> = {
  issues: 'issue',
  pull: 'pull request',
  pulls: 'pull requests',
  merge_requests: 'merge request',
  commit: 'commit',
  commits: 'commits',
  blob: 'file',
  tree: 'directory',
  releases: 'release',
  wiki: 'wiki',
};

/** A URL as words: `url`, its site's name (`github`, `notion`) and what its path says the page is. */
/** Platforms whose subdomains are their users' own sites. */
const SITE_HOSTS = new Set([
  'github.io',
  'gitlab.io',
  'netlify.app',
  'vercel.app',
  'pages.dev',
  'herokuapp.com',
  'web.app',
  'firebaseapp.com',
  'substack.com',
  'medium.com',
  'wordpress.com',
  'blogspot.com',
]);

function urlWords(url: string): string {
  const match = /^(?:[a-z]+:\/\/)?([^/?#:]+)([^?#]*)/i.exec(url);
  const labels = (match?.[1] ?? '')
    .toLowerCase()
    .split('.')
    .filter((l) => l !== 'www');
  // `example.com` and its kin (RFC 2606) stand for any site.
  // A site on a hosting platform (`lilianweng.github.io`) is its owner's, not the platform's.
  const own = labels.length >= 3 && SITE_HOSTS.has(labels.slice(-2).join('.')) ? 3 : 2;
  const site =
    labels.length >= own && labels[labels.length - 2] !== 'example'
      ? labels[labels.length - own]
      : '';
  const page = (match?.[2] ?? '')
    .split('/')
    .map((part) => URL_PAGE_WORDS[part.toLowerCase()])
    .filter(Boolean);
  return ` url ${site} ${page.join(' ')} `;
}

/** A JSON key's words (`resourceType` → `resource type`), so that it is read as words and not as a code symbol. */
function keyWords(key: string): string {
  return key
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ')
    .toLowerCase();
}

/** A file literal's words: `file`, and the kind of content its extension says. */
export function fileWords(name: string): string {
  return ` file ${CONTENT_KINDS[name.slice(name.lastIndexOf('.') + 1).toLowerCase()] ?? ''} `;
}

/** A file known by its name alone. */
export function knownFileWords(): string {
  return ' file ';
}

/** Literal values and the words they stand for, in the order they are replaced. */
export const LITERALS: ReadonlyArray<[RegExp, (match: string) => string]> = [
  // An SQL statement, by its upper-case keywords (`select the option from…` is a request, not SQL).
  [
    /\b(?:SELECT|INSERT\s+INTO|UPDATE|DELETE\s+FROM|WITH|CREATE\s+TABLE|ALTER\s+TABLE|DROP\s+TABLE)\b[^;]*?\b(?:FROM|WHERE|SET|VALUES|AS|ADD|COLUMN)\b[^;]*;?/g,
    () => ' sql query ',
  ],
  [/\b(?:https?|ftp|wss?):\/\/[^\s<>"'`]+|\bwww\.[a-z0-9-]+\.[^\s<>"'`]+/gi, urlWords],
  // A site's address written without its scheme (`acme.io/pricing`, `danluu.com/cocktail-ideas`): a URL, not a folder.
  [new RegExp(`(?<![\\w./@-])${DOMAIN}\\/[^\\s<>"'\`]*[^\\s<>"'\`.,;:!?)]`, 'gi'), urlWords],
  // A library's id asked about (`/vercel/next.js how do I…`, `the guidance from /vercel/next.js on…`): two parts from the root
  // that are no folder of a disk, before the name reads as a file.
  [
    /(?<![\w./~-])\/(?!(?:home|users|usr|var|tmp|etc|opt|srv|mnt|root|data|docs|documents|downloads|desktop|projects|workspace|app|src|lib|bin|media|volumes|private|public|static|assets|api)\/)[a-z0-9_-]+\/[a-z0-9_-]+(?:\.[a-z]{1,4})?(?=[\s,;:?)]|$)(?=[^.;?]*\b(?:how|docs?|documentation|guidance|guide|api|reference|examples?|usage|configure|set\s+up|setup|on\s+\w+ing)\b)/gi,
    () => ' library documentation ',
  ],
  // A JSON object pasted (`{"resourceType":"Blob","resourceId":4}`): its keys say what it is, its values are values.
  [
    /\{\s*"[^{}]{1,400}\}/g,
    (json) => ` ${[...json.matchAll(/"([^"]+)"\s*:/g)].map((m) => keyWords(m[1])).join(' ')} `,
  ],
  // Quoted text is the value to use (a message, a label, a search term), not words of the need.
  [/(?:^|(?<=[\s(:=]))(['"“‘`])[^'"“”‘’`\n]+?(?:\1|[”’])(?=$|[\s,.;:!?)])/g, () => ' text '],
  [/\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+\b/gi, () => ' email address '],
  [
    /(?:^|[\s(])-?\d{1,3}\.\d{2,}\s*,\s*-?\d{1,3}\.\d{2,}\b|\b\d{1,3}(?:\.\d+)?\s*°?\s*(?:n|s|north|south)\b[\s,]*(?:and\s+)?\d{1,3}(?:\.\d+)?\s*°?\s*(?:e|w|east|west)\b/gi,
    () => ' coordinates ',
  ],
  // A paper's arXiv id (`2106.09685`, `arXiv:2310.06825v2`), DOI (`10.1145/3292500.3330701`) or PubMed id (`PMID 34567890`, `PMC8734567`), and arXiv named alone (before it reads as camelCase).
  [
    /\barxiv\b(?::?\s*\d{4}\.\d{4,5}(?:v\d+)?)?|\b\d{4}\.\d{4,5}(?:v\d+)?\b|\b10\.\d{4,9}\/\S+|\bPMID:?\s*\d+\b|\bPMC\d+\b/gi,
    (m) => (/\d/.test(m) ? ' paper id ' : ' arxiv paper '),
  ],
  // An id: capitals and digits mixed (`U024BE7LH`, `PMC123456`), or a long token of both cases and digits.
  [
    /\b(?=[A-Z0-9_-]*\d)(?=[A-Z0-9_-]*[A-Z])[A-Z0-9][A-Z0-9_-]{5,}\b|\b(?=\w*\d)(?=\w*[a-z])(?=\w*[A-Z])\w{12,}\b/g,
    () => ' id ',
  ],
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
  // A dotfile (`.env.local`, `.eslintrc.json`), before its extension reads as a file name of its own.
  [/(?:^|(?<=[\s(]))\.[a-z][a-z0-9_-]{1,}(?:\.[a-z0-9_-]+)*(?![\w/])/g, knownFileWords],
  // A file name or path with a known extension; a bare `name.js` only with a directory in front.
  [
    new RegExp(
      `(?:[\\w.-]*/)*[\\w-]+(?:\\.[\\w-]+)*\\.(${EXTENSION})\\b|(?:[\\w.-]*/)+[\\w-]+\\.js\\b`,
      'gi',
    ),
    fileWords,
  ],
  // A site named by its domain (`competitor.com`, `docs.python.org`).
  [new RegExp(`\\b${DOMAIN}\\b(?![.\\w-])`, 'gi'), () => ' website '],
  // Files known by a name without extension (`Makefile`, `Dockerfile`, `README`, `.gitignore`).
  [
    /(?<![\w./-])(?:Makefile|Dockerfile|Containerfile|Jenkinsfile|Vagrantfile|Procfile|Gemfile|Rakefile|Brewfile|Justfile|README|LICENSE|CHANGELOG|CONTRIBUTING|CODEOWNERS|\.gitignore|\.dockerignore|\.npmrc|\.bashrc|\.zshrc|\.profile|\.editorconfig)(?![\w.-])/g,
    knownFileWords,
  ],
  // A window size (`375x812`, `1920 by 1080`).
  [/\b\d{3,4}\s*(?:x|×|by)\s*\d{3,4}\b/g, () => ' window size '],
  // An HTTP method before a request (`the POST request`): HTTP, not a verb of the need; before a path
  // (`the POST to /api/discount`), a request made.
  [
    /\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(?:to\s+)?(?=\/)/g,
    () => ' http network request ',
  ],
  [/\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)(?=\s+(?:request|call|to))/g, () => ' http '],
  // A library named by its id (`/pydantic/pydantic docs`, `/vercel/next.js documentation`), not a folder.
  [
    /(?:^|(?<=\s))\/[\w.-]+\/[\w.-]+(?=\s+(?:docs|documentation|library|reference|api\s+docs)\b)/g,
    () => ' library ',
  ],
  // A directory path: rooted (`/var/log`, `~/src`, `./build`) or of three parts or more (`tmp/cache/images`).
  [
    /(?:^|(?<=\s))(?:(?:~|\.{1,2})?\/[\w.-]+(?:\/[\w.-]*)*|[\w.-]+\/[\w.-]+\/[\w./-]+)/g,
    () => ' directory path ',
  ],
  // Code: a browser global's property or method (`document.title`, `window.scrollY`), a call (`foo.bar()`, `useEffect()`), an arrow function.
  [
    /\b(?:document|window|navigator|location|localStorage|sessionStorage|console|globalThis)\.[\w.$]+(?:\([^)]*\))?|[\w$.]+\([^()]*\)|\([^()]*\)\s*=>/g,
    () => ' javascript expression ',
  ],
  // A library named like a file (`node.js`, `next.js`): one word, not `node` and `js`.
  [/\b([a-z][\w-]*)\.js\b/gi, (m) => ` ${m.slice(0, -3).replace(/\W/g, '')}js `],
  // A code identifier in lower camelCase (`useEffect`, `createSlice`) or CONSTANT_CASE (`DATABASE_URL`): a symbol to find, not the words it is made of.
  [
    /\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+\b|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g,
    () => ' code symbol ',
  ],
  // An emoji code (`:rocket:`, `:+1:`): a reaction.
  [/(?:^|(?<=\s)):[a-z0-9_+-]+:(?=$|[\s,.;!?])/g, () => ' emoji reaction '],
  // A chat channel (#ops) or a person (@alice), not an issue number (#42).
  [/(?:^|\s)#[a-z][\w-]*/gi, () => ' channel '],
  [/(?:^|\s)@[a-z][\w.-]*(?![\w/])/gi, () => ' user '],
];
