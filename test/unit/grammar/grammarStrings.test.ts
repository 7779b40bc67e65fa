import { strict as assert } from 'node:assert';
import { StateStack } from 'vscode-textmate';
import {
  loadGrammar,
  initialStack,
  tokenize,
  fixture,
  line,
  expectScopes,
  expectValue,
  KEY,
  BASIC,
  LITERAL,
  ML_BASIC,
  ML_LITERAL,
  STR_BEGIN,
  STR_END,
  ESCAPE,
  COMMENT,
} from './tokenize';

// Basic, literal and multi-line strings, their escapes and how they end.

describe('TOML TextMate grammar (syntaxes/toml.tmLanguage.json)', () => {
  /** The rule stack of a fresh document: what every file must return to at its end. */
  let initial: StateStack;

  before(async () => {
    await loadGrammar();
    initial = initialStack();
  });

  describe('strings', () => {
    const doc = () => fixture('strings.toml');

    it('scopes every TOML 1.0 escape in a basic string', () => {
      const where = line(doc(), 'escapes =');
      for (const escape of [
        '\\b',
        '\\t',
        '\\n',
        '\\f',
        '\\r',
        '\\"',
        '\\\\',
        '\\u00e9',
        '\\U0001F600',
      ]) {
        expectScopes(where, escape, [BASIC, ESCAPE]);
      }
      expectScopes(where, '"', [BASIC, STR_BEGIN]);
      expectScopes(where, '"', [BASIC, STR_END], 1);
      const str = line(doc(), 'str =');
      expectScopes(str, '\\"', [BASIC, ESCAPE]);
      expectScopes(str, '\\u00E9', [BASIC, ESCAPE]);
      expectScopes(str, '. Name', [BASIC]);
    });

    it('closes an empty basic string at once', () => {
      const where = line(doc(), 'empty =');
      expectScopes(where, '"', [BASIC, STR_BEGIN]);
      expectScopes(where, '"', [BASIC, STR_END], 1);
    });

    it('lets a multi-line basic string span lines and close on its """', () => {
      const d = doc();
      const start = d.lines.findIndex((l) => l.text.startsWith('str1 ='));
      expectScopes(d.lines[start], '"""', [ML_BASIC, STR_BEGIN]);
      expectScopes(d.lines[start + 1], 'Roses are red', [ML_BASIC]);
      expectScopes(d.lines[start + 2], 'Violets are blue', [ML_BASIC]);
      expectScopes(d.lines[start + 2], '"""', [ML_BASIC, STR_END]);
      expectScopes(d.lines[start + 3], 'str2', KEY);
    });

    it('scopes a line-ending backslash as a line continuation', () => {
      const d = doc();
      const start = d.lines.findIndex((l) => l.text.startsWith('str3 ='));
      expectScopes(d.lines[start], '\\', [
        ML_BASIC,
        'constant.character.escape.line-continuation.toml',
      ]);
      expectScopes(d.lines[start + 1], '       The quick brown ', [ML_BASIC]);
      expectScopes(d.lines[start + 1], '\\', [
        ML_BASIC,
        'constant.character.escape.line-continuation.toml',
      ]);
      expectScopes(d.lines[start + 4], '"""', [ML_BASIC, STR_END]);
      expectScopes(line(d, 'str4 ='), 'str4', KEY);
    });

    it('keeps up to two quotes before the closing """ inside the string', () => {
      const str7 = line(doc(), 'str7 =');
      expectScopes(str7, '"""', [ML_BASIC, STR_BEGIN]);
      expectScopes(str7, '"This," she said, "is just a pointless statement.', [ML_BASIC]);
      expectScopes(str7, '"', [ML_BASIC]);
      expectScopes(str7, '"""', [ML_BASIC, STR_END], 1);
      assert.equal(str7.tokens.at(-1)?.text, '"""');

      const str4 = line(doc(), 'str4 =');
      expectScopes(str4, 'Here are two quotation marks: "". Simple enough.', [ML_BASIC]);
      const str6 = line(doc(), 'str6 =');
      assert.equal(str6.tokens.filter((t) => t.scopes.includes(ESCAPE)).length, 5);
      expectScopes(str6, '""', [ML_BASIC]);
      expectScopes(str6, '"""', [ML_BASIC, STR_END], 1);
    });

    it('treats # and escapes inside a multi-line basic string as string content', () => {
      const d = doc();
      const start = d.lines.findIndex((l) => l.text.startsWith('str9 ='));
      expectScopes(d.lines[start], '\\t', [ML_BASIC, ESCAPE]);
      expectScopes(d.lines[start], ' and # not a comment', [ML_BASIC]);
      expectScopes(d.lines[start + 1], '# still not a comment', [ML_BASIC]);
      expectScopes(d.lines[start + 2], '"""', [ML_BASIC, STR_END]);
      expectValue(d, 'after_multiline', '1', 'constant.numeric.integer.toml');
    });

    it('scopes literal strings and never scopes an escape inside them', () => {
      const d = doc();
      expectScopes(line(d, 'winpath  ='), 'C:\\Users\\nodejs\\templates', [LITERAL]);
      const winpath2 = line(d, 'winpath2 =');
      expectScopes(winpath2, '\\\\ServerX\\admin$\\system32\\', [LITERAL]);
      expectScopes(winpath2, "'", [LITERAL, STR_END], 1);
      expectScopes(line(d, 'regex    ='), '<\\i\\c*\\s*>', [LITERAL]);
      const empty = line(d, 'empty_literal =');
      expectScopes(empty, "'", [LITERAL, STR_BEGIN]);
      expectScopes(empty, "'", [LITERAL, STR_END], 1);
      for (const l of d.lines) {
        for (const t of l.tokens) {
          if (t.scopes.includes(LITERAL) || t.scopes.includes(ML_LITERAL)) {
            assert.ok(
              !t.scopes.includes(ESCAPE),
              `escape scope inside a literal string: ${JSON.stringify(t.text)} in ${l.text}`,
            );
          }
        }
      }
    });

    it("lets a multi-line literal string span lines and close on its last '''", () => {
      const d = doc();
      expectScopes(line(d, 'regex2 ='), "I [dw]on't need \\d{2} apples", [ML_LITERAL]);
      const start = d.lines.findIndex((l) => l.text.startsWith('lines  ='));
      expectScopes(d.lines[start], "'''", [ML_LITERAL, STR_BEGIN]);
      expectScopes(d.lines[start + 4], '   is preserved. \\n stays as typed', [ML_LITERAL]);
      expectScopes(d.lines[start + 5], "'''", [ML_LITERAL, STR_END]);
      expectScopes(line(d, 'quot15 ='), 'Here are fifteen quotation marks: """""""""""""""', [
        ML_LITERAL,
      ]);
      expectScopes(line(d, 'apos15 ='), "Here are fifteen apostrophes: '''''''''''''''", [BASIC]);

      const str10 = line(d, 'str10 =');
      expectScopes(str10, "'That,' she said, 'is still pointless.", [ML_LITERAL]);
      expectScopes(str10, "'", [ML_LITERAL]);
      expectScopes(str10, "'''", [ML_LITERAL, STR_END], 1);
      expectValue(d, 'after_literal', 'true', 'constant.language.boolean.toml');
    });

    it('marks escapes TOML 1.0 does not define as invalid, but not in literal strings', () => {
      const d = fixture('invalid.toml');
      expectScopes(line(d, 'bad_escape'), '\\q', [BASIC, 'invalid.illegal.escape.toml']);
      const short = line(d, 'short_unicode');
      expectScopes(short, '\\u12', [BASIC, 'invalid.illegal.escape.toml']);
      expectScopes(short, '\\U0001F6', [BASIC, 'invalid.illegal.escape.toml']);
      expectScopes(line(d, 'surrogate'), '\\uD800', [BASIC, 'invalid.illegal.escape.toml']);
      expectScopes(line(d, 'too_big'), '\\U00110000', [BASIC, 'invalid.illegal.escape.toml']);
      expectScopes(line(d, 'no_escape_in_literal'), '\\q \\u12', [LITERAL]);
    });

    it('ends an unterminated single-line string at the end of its line', () => {
      const doc2 = tokenize('a = "open\nb = \'open\nc = 1');
      expectScopes(doc2.lines[0], 'open', [BASIC]);
      expectScopes(doc2.lines[1], 'b', KEY);
      expectScopes(doc2.lines[1], 'open', [LITERAL]);
      expectScopes(doc2.lines[2], 'c', KEY);
      assert.ok(doc2.end.equals(initial));
    });

    it('marks control characters inside strings and comments as invalid', () => {
      const doc2 = tokenize('a = "x\u0001y" # z\u007f');
      expectScopes(doc2.lines[0], '\u0001', [BASIC, 'invalid.illegal.control-character.toml']);
      expectScopes(doc2.lines[0], '\u007f', [COMMENT, 'invalid.illegal.control-character.toml']);
      expectScopes(tokenize('a = "x\ty"').lines[0], 'x\ty', [BASIC]);
    });
  });
});
