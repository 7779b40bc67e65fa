/**
 * A dictated request as it would have been typed: symbols spoken as words (`vercel slash next dot
 * js`, `dark dash mode`), letters spelled one by one (`p r`, `u r l`) and numbers in words (`twenty
 * twenty five`, `forty point seven four eight`). Read before anything else, so that the literals that
 * follow see the path, the file name, the URL or the number the speaker meant.
 */
import { FILE_EXTENSIONS, TOP_LEVEL_DOMAINS } from './queryLiterals';

/** What follows a spoken `dot` in a name: a file extension or a top-level domain (a `dot` on a map stays a word). */
const AFTER_DOT = new Set([...FILE_EXTENSIONS.split(' '), ...TOP_LEVEL_DOMAINS.split(' '), 'js']);

/** Words after which a spoken `slash` starts a rooted path (`list slash var`), not the next part of a name (`acme slash web`). */
const ROOT_BEFORE =
  /^(?:list|open|read|show|find|search|in|into|under|at|to|from|the|folder|directory|dir|file|path|of|on|is|go|cd|ls|create|make|delete|remove|move)$/i;

/** Letters spelled one by one that make a word of a request (`p r` is a PR; `a b` stays two words). */
const SPELLED = new Set(
  'http https www pr prs mr mrs url urls api apis ui ux ci cd pdf csv json html css js ts sql db id ids ip dns ssl tls seo crm hr qa ai ml llm okr okrs kpi kpis faq ceo cto cfo vp aws gcp yc ssh cli sdk jwt'.split(
    ' ',
  ),
);

const UNITS: Readonly<Record<string, number>> = {
  zero: 0,
  oh: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const NUMBER_WORD = `(?:${[...Object.keys(UNITS), ...Object.keys(TENS), 'hundred', 'thousand'].join('|')})`;
/** A run of number words, with a spoken decimal point and digits after it. */
const NUMBER_RUN = new RegExp(
  `\\b${NUMBER_WORD}(?:[\\s-]+(?:${NUMBER_WORD}|point|and(?=[\\s-]+${NUMBER_WORD})))*\\b`,
  'gi',
);

/** Whether a request has anything spoken to undo (most have not, and return at once). */
const SPOKEN = new RegExp(
  `\\b(?:slash|dot|dash|hyphen|underscore|colon|[a-z]\\s[a-z]|${NUMBER_WORD})\\b`,
  'i',
);

/** A run of number words as digits: groups side by side are read as digits side by side (`twenty twenty five` is 2025). */
export function spokenNumber(run: string): string {
  const words = run
    .toLowerCase()
    .split(/[\s-]+/)
    .filter((w) => w !== 'and');
  const point = words.indexOf('point');
  const whole = point < 0 ? words : words.slice(0, point);
  const decimals = point < 0 ? [] : words.slice(point + 1);
  let digits = '';
  let group: number | undefined;
  let scaled = 0;
  const flush = () => {
    if (group !== undefined || scaled) digits += String(scaled + (group ?? 0));
    group = undefined;
    scaled = 0;
  };
  for (const w of whole) {
    if (w === 'hundred') group = (group ?? 1) * 100;
    else if (w === 'thousand') {
      scaled = ((group ?? 1) + scaled) * 1000;
      group = undefined;
    } else if (TENS[w] !== undefined) {
      if (group !== undefined && group % 100 !== 0) flush();
      group = (group ?? 0) + TENS[w];
    } else {
      const unit = UNITS[w];
      // A unit after a unit or a teen is the next digit; after a tens word it completes it (`forty two`).
      if (
        group !== undefined &&
        !(group % 10 === 0 && group % 100 !== 0 && unit < 10) &&
        !(group % 100 === 0 && group > 0)
      )
        flush();
      group = (group ?? 0) + unit;
    }
  }
  flush();
  const after = decimals
    .map((w) => (UNITS[w] !== undefined && UNITS[w] < 10 ? String(UNITS[w]) : ''))
    .join('');
  return after ? `${digits || '0'}.${after}` : digits;
}

/** Single letters as the word they spell, after any that are words of their own (`a p r` is `a PR`). */
function spelledWord(run: string): string {
  const letters = run.split(/\s/);
  for (let start = 0; start < letters.length - 1; start++) {
    const word = letters.slice(start).join('');
    if (SPELLED.has(word.toLowerCase())) return [...letters.slice(0, start), word].join(' ');
  }
  return run;
}

/** The request with what was spoken for symbols, spelled letters and numbers written as typed. */
export function undictate(text: string): string {
  if (!SPOKEN.test(text)) return text;
  return text
    .replace(/(?<![\w'])(?:[a-z]\s){1,4}[a-z](?![\w'])/gi, spelledWord)
    .replace(/\b(https?|ftp)\s+colon\s+(?:slash\s+slash|double\s+slash)\s+/gi, '$1://')
    .replace(/\s+dot\s+([a-z0-9]+)\b/gi, (whole, next: string) =>
      AFTER_DOT.has(next.toLowerCase()) ? `.${next}` : whole,
    )
    .replace(/(?:\bforward\s+|\bback\s*)?\bslash(?:\s+|$)/gi, (spoken) =>
      /back/i.test(spoken) ? '\\' : '/',
    )
    .replace(/(\w+)\s+\/(?=\w)/g, (whole, before: string) =>
      ROOT_BEFORE.test(before) ? whole : `${before}/`,
    )
    .replace(/(?<=\w\/)\s+(?=\w)/g, '')
    .replace(/(?<=\w)\s+(?:dash|hyphen)\s+(?=\w)/gi, '-')
    .replace(/(?<=\w)\s+underscore\s+(?=\w)/gi, '_')
    .replace(NUMBER_RUN, (run) =>
      (UNITS[run.toLowerCase()] ?? Infinity) <= 12 ? run : spokenNumber(run),
    );
}
