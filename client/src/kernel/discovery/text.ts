/**
 * Text analysis for the tool index: identifier splitting, lower-casing, stop words and stemming.
 * The same analysis runs on tool fields and on queries, so their terms meet.
 */
import { stemmer } from 'stemmer';

/** English function words and filler that say nothing about which tool is meant. */
const STOP_WORDS = new Set(
  ('a about above after again all also am an and any are as at be been before being below between both but by can ' +
    'could did do does doing done down during each either else etc ever every few for from further get gets given ' +
    'had has have having he her here hers him his how i if in into is it its itself just let lets like me more most ' +
    'much must my myself need needs no nor not now of off on once one only or other our ours out over own please ' +
    'same she should so some such than that the their theirs them then there these they this those through to too ' +
    'under until up upon us use used uses using very via want was way we were what whatever when where whether ' +
    'which while who whom whose why will with within without would you your yours yourself e g eg ie').split(' '),
);

/** True when a lower-case word carries no meaning for search. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * Splits identifiers and prose into lower-case words: `readFile`, `read_file`, `read-file`,
 * `HTTPServer`, `API-get-users` and `mgp.tools.discover` all come apart at their seams.
 */
export function splitWords(text: string): string[] {
  // Names, server ids and parameter names repeat across tools and servers: remember short ones.
  if (text.length > 64) {
    // A description is split by several derivations in a row: keep the last few.
    const recent = recentLong.find((r) => r[0] === text);
    if (recent) return recent[1].slice();
    const words = split(text);
    recentLong.unshift([text, words]);
    if (recentLong.length > 4) recentLong.pop();
    return words.slice();
  }
  let words = splitCache.get(text);
  if (!words) {
    words = split(text);
    if (splitCache.size > 50_000) splitCache.clear();
    splitCache.set(text, words);
  }
  return words.slice();
}

const splitCache = new Map<string, string[]>();
const recentLong: Array<[string, string[]]> = [];

function split(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])([0-9])|([0-9])([a-zA-Z])/g, (_m, a, b, c, d) => (a ? `${a} ${b}` : `${c} ${d}`));
  const words = spaced.toLowerCase().match(/[a-z0-9]+/g);
  return words ?? [];
}

const stemCache = new Map<string, string>();

/** Porter stem of a lower-case word, cached (the vocabulary of tool descriptions is small). */
export function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = word.length <= 3 ? word : stemmer(word);
    if (stemCache.size < 200_000) stemCache.set(word, stemmed);
  }
  return stemmed;
}

export interface AnalyzeOptions {
  /** Apply the Porter stemmer (default true). The plain BM25 baseline turns it off. */
  stem?: boolean;
  /** Drop stop words (default true). */
  dropStopWords?: boolean;
}

/** Words of `text` as index terms: split, lower-cased, stop words dropped, stemmed. */
export function analyze(text: string, options: AnalyzeOptions = {}): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    if (options.dropStopWords !== false && isStopWord(word)) continue;
    if (word.length === 1 && !/[0-9]/.test(word)) continue;
    terms.push(options.stem === false ? word : stem(word));
  }
  return terms;
}
