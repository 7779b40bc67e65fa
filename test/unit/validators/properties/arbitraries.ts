/** Generators shared by the validators' property tests. */
import fc from 'fast-check';

/** Runs per property: enough to meet every generator branch many times, small enough for `npm test`. */
export const RUNS = 300;

/** The same text with each letter in upper or lower case. */
export function mixedCase(text: string): fc.Arbitrary<string> {
  return fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((upper) =>
      [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''),
    );
}

/** `text` with one to three pieces from `piece` inserted at any positions. */
export function insertAnywhere(text: string, piece: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(fc.integer({ min: 0, max: text.length }), piece), {
      minLength: 1,
      maxLength: 3,
    })
    .map((inserts) => {
      let out = text;
      for (const [at, p] of [...inserts].sort((a, b) => b[0] - a[0]))
        out = out.slice(0, at) + p + out.slice(at);
      return out;
    });
}

/** One word with one of its characters quoted the ways a shell removes: 'x', "x", \x, or not at all. */
export function quotedSomewhere(word: string): fc.Arbitrary<string> {
  if (word.startsWith('"')) return fc.constant(word);
  return fc
    .tuple(
      fc.integer({ min: 0, max: word.length - 1 }),
      fc.constantFrom('single', 'double', 'backslash', 'empty', 'none'),
    )
    .map(([at, how]) => {
      const c = word[at];
      const quoted =
        how === 'single'
          ? `'${c}'`
          : how === 'double'
            ? `"${c}"`
            : how === 'backslash' && c !== '~'
              ? `\\${c}`
              : how === 'empty' && at > 0
                ? `""${c}`
                : c;
      return word.slice(0, at) + quoted + word.slice(at + 1);
    });
}

/** `line` as one single-quoted shell word. */
export function singleQuoted(line: string): string {
  return `'${line.replace(/'/g, `'\\''`)}'`;
}
