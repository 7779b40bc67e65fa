/**
 * Just enough shell syntax to judge a command line: which metacharacters are live (not quoted), where
 * redirections point, and which programs a line runs with which arguments.
 *
 * Quoting follows sh, with one deliberate exception: `&`, `|`, `<` and `>` stay live inside single quotes
 * and after a backslash, because cmd.exe treats neither `'` nor `\` as quoting and a server may hand the
 * line to either shell. Double quotes protect them in both.
 */

const OPERATORS = ';&|<>\n\r';
const CMD_OPERATORS = '&|<>';

function closingDoubleQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function maskSingleQuoted(out: string[], text: string, from: number, to: number): void {
  for (let j = from; j < to; j++) if (!CMD_OPERATORS.includes(text[j])) out[j] = '_';
}

function maskDoubleQuoted(out: string[], text: string, from: number, to: number): void {
  for (let j = from; j < to; j++) {
    if (text[j] === '\\') out[++j] = '_';
    else if (OPERATORS.includes(text[j])) out[j] = '_';
  }
}

/**
 * `text` with quoted and escaped characters replaced by `_` (same length, same offsets), so a search for
 * `;`, `&&`, `|`, `$(`, backticks or `>` finds only live ones. `$(` and backticks stay live inside double
 * quotes, as in sh. An unterminated quote protects nothing.
 */
export function maskQuoted(text: string): string {
  if (!/['"\\]/.test(text)) return text;
  const out = text.split('');
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      if (i + 1 < text.length && !CMD_OPERATORS.includes(text[i + 1])) out[i + 1] = '_';
      i++;
    } else if (c === "'" || c === '"') {
      const end = c === "'" ? text.indexOf("'", i + 1) : closingDoubleQuote(text, i + 1);
      if (end < 0) break;
      if (c === "'") maskSingleQuoted(out, text, i + 1, end);
      else maskDoubleQuoted(out, text, i + 1, end);
      i = end;
    }
  }
  return out.join('');
}

export interface Word {
  text: string;
  index: number;
  /** Whether any part of the word was quoted (a quoted word with spaces may be a nested command line). */
  quoted: boolean;
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/** Splits a simple command into words, removing quotes and backslash escapes. */
export function splitWords(segment: string, offset = 0): Word[] {
  const words: Word[] = [];
  let current: Word | undefined;
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (isSpace(c)) {
      if (current) words.push(current);
      current = undefined;
      continue;
    }
    current ??= { text: '', index: offset + i, quoted: false };
    if (c === "'" || c === '"') {
      const end = c === "'" ? segment.indexOf("'", i + 1) : closingDoubleQuote(segment, i + 1);
      if (end < 0) {
        current.text += segment.slice(i + 1);
        current.quoted = true;
        break;
      }
      current.text +=
        c === '"'
          ? segment.slice(i + 1, end).replace(/\\(["\\$`])/g, '$1')
          : segment.slice(i + 1, end);
      current.quoted = true;
      i = end;
    } else if (c === '\\' && i + 1 < segment.length && !/[A-Za-z0-9]/.test(segment[i + 1])) {
      // A backslash before a letter or digit is kept: `C:\Windows` is a Windows path, not an escape.
      current.text += segment[++i];
    } else {
      current.text += c;
    }
  }
  if (current) words.push(current);
  return words;
}

/** The live `;`, `&`, `|`, newline, parentheses and backticks split a line into simple commands. */
const SEGMENT_BREAK = /[;&|\n\r()`]+/g;

export interface Invocation {
  /** The program's base name in lower case, without `.exe` (`/usr/bin/rm` → `rm`). */
  name: string;
  /** Wrappers the program runs under, by base name (`sudo`, `env`, `xargs`…). */
  wrappers: string[];
  args: Word[];
  /** Offset of the program word in the text given to `invocations`. */
  index: number;
}

/** Words that run the next word as the command (`sudo rm …`, `env X=1 rm …`, `cmd /c del …`). */
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'nohup',
  'time',
  'nice',
  'ionice',
  'exec',
  'command',
  'builtin',
  'xargs',
  'stdbuf',
  'timeout',
  'watch',
  'then',
  'do',
  'else',
  'if',
  'elif',
  'while',
  'until',
  '!',
  '{',
  'busybox',
  'cmd',
  'call',
  'start',
]);
/** Options of a wrapper that take a value (`sudo -u root`, `nice -n 5`, `xargs -I {}`). */
const WRAPPER_OPTIONS_WITH_VALUE = new Set([
  '-u',
  '-g',
  '-n',
  '-I',
  '-i',
  '-s',
  '-k',
  '-C',
  '-p',
  '-E',
]);

/**
 * `/usr/bin/rm` → `rm`, `C:\\Tools\\del.exe` → `del`. A backslash in a word that is not a path is a POSIX
 * escape (`r\\m` runs `rm`), so it is dropped rather than read as a directory separator.
 */
export function programName(word: string): string {
  const path = word.includes('/') || /^[a-z]:|^\.{1,2}\\|\\\\/i.test(word);
  const base = path ? word.replace(/^.*[\\/]/, '') : word.replace(/\\/g, '');
  return base.toLowerCase().replace(/\.(?:exe|com|cmd|bat)$/, '');
}

interface CommandStart {
  /** Index of the program word in `words`, or -1 when the segment is only wrappers and assignments. */
  at: number;
  wrappers: string[];
}

export function commandStart(words: Word[]): CommandStart {
  const wrappers: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const text = words[i].text;
    const name = programName(text);
    if (WRAPPERS.has(name)) wrappers.push(name);
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) continue;
    else if (
      wrappers.length &&
      (text.startsWith('-') || /^\/[a-z]$/i.test(text) || /^\d+[smhd]?$/.test(text))
    ) {
      if (WRAPPER_OPTIONS_WITH_VALUE.has(text)) i++;
    } else return { at: i, wrappers };
  }
  return { at: -1, wrappers };
}

/**
 * The programs a command line runs, with their arguments. A quoted argument that holds spaces is read
 * again as a command line of its own (`bash -c 'rm -rf /'`), one level deep.
 */
export function invocations(
  text: string,
  masked = maskQuoted(text),
  depth = 0,
  offset = 0,
): Invocation[] {
  const found: Invocation[] = [];
  const nested: Word[] = [];
  SEGMENT_BREAK.lastIndex = 0;
  let start = 0;
  for (
    let br = SEGMENT_BREAK.exec(masked);
    start <= masked.length;
    br = SEGMENT_BREAK.exec(masked)
  ) {
    const end = br ? br.index : masked.length;
    const words = splitWords(text.slice(start, end), offset + start);
    const { at, wrappers } = commandStart(words);
    if (at >= 0)
      found.push({
        name: programName(words[at].text),
        wrappers,
        args: words.slice(at + 1),
        index: words[at].index,
      });
    else if (wrappers.length) found.push({ name: '', wrappers, args: [], index: words[0].index });
    for (const word of words)
      if (depth === 0 && word.quoted && /\s/.test(word.text)) nested.push(word);
    if (!br) break;
    start = end + br[0].length;
  }
  for (const word of nested) found.push(...invocations(word.text, undefined, 1, word.index + 1));
  return found;
}

/** Longer redirection targets are cut: no path that matters here is longer. */
const MAX_TARGET = 1024;

export interface Redirect {
  index: number;
  target: string;
}

/** The word a redirection points at (starting at `at`): quotes removed, backslashes kept (`> C:\\Windows\\x`). */
function redirectTarget(text: string, at: number): string {
  let i = at;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  const quote = text[i];
  if (quote === '"' || quote === "'") {
    const end = text.indexOf(quote, i + 1);
    return text.slice(
      i + 1,
      end < 0 ? Math.min(text.length, i + 1 + MAX_TARGET) : Math.min(end, i + 1 + MAX_TARGET),
    );
  }
  let end = i;
  while (end < text.length && end - i < MAX_TARGET && !' \t\n\r;&|<>()'.includes(text[end])) end++;
  return text.slice(i, end);
}

/** Output redirections (`>`, `>>`, `&>`, `>|`) and where they point; `>&2`-style duplications are left out. */
export function outputRedirects(text: string, masked: string): Redirect[] {
  const found: Redirect[] = [];
  for (const match of masked.matchAll(/>{1,2}\|?/g)) {
    const index = match.index ?? 0;
    let at = index + match[0].length;
    if (masked[at] === '(') continue;
    if (text[at] === '&') {
      if (/^&(?:\d+|-)/.test(text.slice(at, at + 16))) continue;
      at++;
    }
    const target = redirectTarget(text, at);
    if (target) found.push({ index, target });
  }
  return found;
}

/** System locations a command must not write to (devices other than null/zero/std streams included). */
const SYSTEM_PATH =
  /^(?:\/(?:etc|boot|bin|sbin|lib|lib32|lib64|libx32|usr|sys|proc|root|var\/spool\/cron|System|Library\/Launch(?:Agents|Daemons))(?:\/|$)|\/dev\/(?!(?:null|zero|stdout|stderr|stdin|tty|fd\/\d+)$)|(?:~[\w.-]*|\$HOME|\$\{HOME\}|\/(?:home|Users|var\/home|export\/home)\/[^/]+)\/\.(?:ssh|bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|cshrc|tcshrc|kshrc|inputrc|config\/autostart|config\/fish|config\/systemd|gnupg|aws|kube|docker|npmrc|pypirc|netrc|gitconfig|git-credentials)(?:\/|$)|[a-z]:[\\/](?:windows|program files)(?:[\\/]|$))/i;

/** `/home/u/./x`, `/home//u/x`, `/tmp/../home/u/x` → `/home/u/x`: where the path really points. */
function normalized(path: string): string {
  if (!path.startsWith('/') && !/^(?:~|\$\{?HOME)/.test(path)) return path;
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return (path.startsWith('/') ? '/' : '') + parts.join('/') + (path.endsWith('/') ? '/' : '');
}

export function isSystemPath(path: string): boolean {
  return SYSTEM_PATH.test(path) || SYSTEM_PATH.test(normalized(path));
}

/** Paths whose recursive removal or permission change wrecks a system or a home directory. */
const CRITICAL_TARGET =
  /^(?:\/+\*?|\/+[^/\s]+\/*\*?|~\/*\*?|(?:\$HOME|\$\{HOME\})\/*\*?|\*|\.{1,2}\/*\*?|[a-z]:[\\/]*\*?|[a-z]:[\\/](?:windows|users|program files)[\\/]*\*?)$/i;

export function isCriticalTarget(path: string): boolean {
  return CRITICAL_TARGET.test(path) || isSystemPath(path);
}

/** Paths a redirection may write to without writing anything (`/dev/null`, `NUL`, the std streams). */
export function isDiscardTarget(path: string): boolean {
  return /^(?:\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)|nul|con)$/i.test(path);
}
