/**
 * Text analysis for the tool index: identifier splitting, lower-casing, stop words and stemming.
 * The same analysis runs on tool fields and on queries, so their terms meet.
 *
 * Splitting is one pass over the character codes (no regular expressions, no intermediate strings),
 * and the word → term step (stop word, stem) is cached per word: the vocabulary of tool descriptions
 * is small, so after the first few hundred tools almost every word is a cache hit.
 */
import { stemmer } from 'stemmer';

/** English function words and filler that say nothing about which tool is meant. */
const STOP_WORDS = new Set(
  (
    'a about above after again all also am an and any are as at be been before being below between both but by can ' +
    'could did do does doing done down during each either else etc ever every few for from further get gets given ' +
    'had has have having he her here hers him his how i if in into is it its itself just let lets like me more most ' +
    'much must my myself need needs no nor not now of off on once one only or other our ours out over own please ' +
    'same she should so some such than that the their theirs them then there these they this those through to too ' +
    'under until up upon us use used uses using very via want was way we were what whatever when where whether ' +
    'which while who whom whose why will with within without would you your yours yourself e g eg ie'
  ).split(' '),
);

/** True when a lower-case word carries no meaning for search. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

// Character classes of ASCII codes; everything else separates words.
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const CLASS = new Uint8Array(128);
for (let c = 97; c <= 122; c++) CLASS[c] = LOWER;
for (let c = 65; c <= 90; c++) CLASS[c] = UPPER;
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT;
const classOf = (code: number) => (code < 128 ? CLASS[code] : OTHER);

/**
 * Appends the lower-case words of `text` to `out`. Words are runs of ASCII letters and digits, cut
 * where letters meet digits and, with `camelCase`, at camel humps: `readFile` → read file,
 * `HTTPServer` → http server; a plural `s` stays on its acronym (`URLs`, `IDs`).
 */
function scan(text: string, camelCase: boolean, out: string[]): void {
  const lower = text.toLowerCase();
  // Lower-casing can change the length of non-ASCII text: then cut the original and lower each word.
  const source = lower.length === text.length ? lower : undefined;
  const emit = (from: number, to: number) =>
    out.push(canonical(source ? source.slice(from, to) : text.slice(from, to).toLowerCase()));
  const n = text.length;
  let start = -1;
  let previous = OTHER;
  for (let i = 0; i < n; i++) {
    const kind = classOf(text.charCodeAt(i));
    if (kind === OTHER) {
      if (start >= 0) emit(start, i);
      start = -1;
      previous = OTHER;
      continue;
    }
    if (start < 0) {
      start = i;
      previous = kind;
      continue;
    }
    if (kind === DIGIT ? previous !== DIGIT : previous === DIGIT) {
      emit(start, i);
      start = i;
    } else if (camelCase && kind === UPPER && previous === LOWER) {
      emit(start, i);
      start = i;
    } else if (
      camelCase &&
      kind === LOWER &&
      previous === UPPER &&
      i - start >= 2 &&
      classOf(text.charCodeAt(i - 2)) === UPPER
    ) {
      // An acronym followed by a capitalised word: `HTTPServer`. But `URLs` is one word.
      const plural =
        text.charCodeAt(i) === 115 && (i + 1 >= n || classOf(text.charCodeAt(i + 1)) !== LOWER);
      if (!plural) {
        emit(start, i - 1);
        start = i - 1;
      }
    }
    previous = kind;
  }
  if (start >= 0) emit(start, n);
}

const words = new Map<string, string>();

/** One string object per distinct word: lists of words then share them, and their hashes are computed once. */
function canonical(word: string): string {
  const known = words.get(word);
  if (known !== undefined) return known;
  if (words.size < 200_000) words.set(word, word);
  return word;
}

/**
 * Splits identifiers and prose into lower-case words: `readFile`, `read_file`, `read-file`,
 * `HTTPServer`, `API-get-users` and `mgp.tools.discover` all come apart at their seams.
 */
export function splitWords(text: string, camelCase = true): string[] {
  const words: string[] = [];
  scan(text, camelCase, words);
  return words;
}

const stemCache = new Map<string, string>();

/** Words whose Porter stem is another word's: `news` is not `new`. */
const STEM_EXCEPTIONS: ReadonlyMap<string, string> = new Map([['news', 'news']]);

/** Porter stem of a lower-case word, cached (the vocabulary of tool descriptions is small). */
export function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = word.length <= 3 ? word : (STEM_EXCEPTIONS.get(word) ?? stemmer(word));
    if (stemCache.size < 200_000) stemCache.set(word, stemmed);
  }
  return stemmed;
}

/** A word's index term: `''` for a stop word or a lone letter, else the word, stemmed or not. */
export function termOf(word: string, stemmed = true): string {
  const cache = stemmed ? stemmedTerms : plainTerms;
  let term = cache.get(word);
  if (term === undefined) {
    term =
      STOP_WORDS.has(word) || (word.length === 1 && classOf(word.charCodeAt(0)) !== DIGIT)
        ? ''
        : stemmed
          ? stem(word)
          : word;
    if (cache.size < 200_000) cache.set(word, term);
  }
  return term;
}

const stemmedTerms = new Map<string, string>();
const plainTerms = new Map<string, string>();

export interface AnalyzeOptions {
  /** Apply the Porter stemmer (default true). The plain BM25 baseline turns it off. */
  stem?: boolean;
  /** Drop stop words (default true). */
  dropStopWords?: boolean;
  /** Split camelCase identifiers (default true). */
  camelCase?: boolean;
}

/** Words of `text` as index terms: split, lower-cased, stop words dropped, stemmed. */
export function analyze(text: string, options: AnalyzeOptions = {}): string[] {
  return termsOfWords(splitWords(text, options.camelCase !== false), options);
}

/** Index terms of words already split (see `analyze`). */
export function termsOfWords(words: readonly string[], options: AnalyzeOptions = {}): string[] {
  const stemmed = options.stem !== false;
  const terms: string[] = [];
  for (const word of words) {
    if (options.dropStopWords === false) {
      if (word.length > 1 || classOf(word.charCodeAt(0)) === DIGIT)
        terms.push(stemmed ? stem(word) : word);
      continue;
    }
    const term = termOf(word, stemmed);
    if (term) terms.push(term);
  }
  return terms;
}
