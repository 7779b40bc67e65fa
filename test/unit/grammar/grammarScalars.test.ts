import {
  loadGrammar,
  tokenize,
  fixture,
  line,
  expectScopes,
  expectValue,
  KEY,
  EQ,
  BASIC,
  LITERAL,
  STR_BEGIN,
  STR_END,
  ESCAPE,
  ARRAY,
  DOT,
  COMMENT,
  COMMENT_PUNCT,
} from './tokenize';

// Comments, keys, numbers and booleans, dates and times.

describe('TOML TextMate grammar (syntaxes/toml.tmLanguage.json)', () => {
  before(async () => {
    await loadGrammar();
  });

  describe('comments', () => {
    it('scopes # and the rest of the line as a comment', () => {
      const doc = fixture('comments.toml');
      const full = doc.lines[0];
      expectScopes(full, '#', [COMMENT, COMMENT_PUNCT]);
      expectScopes(full, ' A full-line comment', [COMMENT]);
      expectScopes(line(doc, '# an indented'), ' an indented comment', [COMMENT]);
      expectScopes(line(doc, '#no space'), 'no space after the hash', [COMMENT]);
      expectScopes(line(doc, '#'), '#', [COMMENT, COMMENT_PUNCT]);
    });

    it('ends a value at a comment after it', () => {
      const where = line(fixture('comments.toml'), 'key =');
      expectScopes(where, 'value', [BASIC]);
      expectScopes(where, '#', [COMMENT, COMMENT_PUNCT]);
      expectScopes(where, ' a comment after a value', [COMMENT]);
    });

    it('does not treat # inside a basic or literal string as a comment', () => {
      const doc = fixture('comments.toml');
      const hash = line(doc, 'hash =');
      expectScopes(hash, 'no # comment here', [BASIC]);
      expectScopes(hash, ' but one here', [COMMENT]);
      expectScopes(line(doc, 'literal ='), 'not # a comment either', [LITERAL]);
      expectValue(doc, 'after', '1', 'constant.numeric.integer.toml');
    });
  });

  describe('keys', () => {
    const doc = () => fixture('keys.toml');

    it('scopes bare keys, including ones that look like numbers or booleans', () => {
      for (const key of ['key', 'bare_key', 'bare-key', '1234', 'true']) {
        const where = line(doc(), `${key} =`);
        expectScopes(where, key, KEY);
        expectScopes(where, '=', EQ);
      }
    });

    it('scopes basic and literal quoted keys as keys, escapes included', () => {
      const ip = line(doc(), '"127.0.0.1"');
      expectScopes(ip, '"', [BASIC, ...KEY, STR_BEGIN]);
      expectScopes(ip, '127.0.0.1', [BASIC, ...KEY]);
      expectScopes(ip, '"', [BASIC, ...KEY, STR_END], 1);
      expectScopes(line(doc(), "'key2'"), 'key2', [LITERAL, ...KEY]);
      expectScopes(line(doc(), `'quoted "value"'`), 'quoted "value"', [LITERAL, ...KEY]);
      expectScopes(line(doc(), '"ʎǝʞ"'), 'ʎǝʞ', [BASIC, ...KEY]);
      const tab = line(doc(), '"tab');
      expectScopes(tab, '\\t', [BASIC, ...KEY, ESCAPE]);
      expectScopes(tab, 'escape in a quoted key', [BASIC]);
      const empty = line(doc(), '"" =');
      expectScopes(empty, '"', [BASIC, ...KEY, STR_BEGIN]);
      expectScopes(empty, '=', EQ);
    });

    it('scopes each part of a dotted key and the dots, with whitespace around the dots', () => {
      const site = line(doc(), 'site.');
      expectScopes(site, 'site', KEY);
      expectScopes(site, '.', [DOT]);
      expectScopes(site, 'google.com', [BASIC, ...KEY]);
      expectScopes(site, 'true', ['constant.language.boolean.toml']);

      const fruit = line(doc(), 'fruit . flavor');
      expectScopes(fruit, 'fruit', KEY);
      expectScopes(fruit, '.', [DOT]);
      expectScopes(fruit, 'flavor', KEY);

      const skin = line(doc(), 'fruit.  ');
      expectScopes(skin, 'skin', [LITERAL, ...KEY]);
      expectScopes(skin, 'texture', KEY);
      expectScopes(skin, '.', [DOT], 1);

      const pi = line(doc(), '3.14159');
      expectScopes(pi, '3', KEY);
      expectScopes(pi, '.', [DOT]);
      expectScopes(pi, '14159', KEY);
    });

    it('scopes = with or without surrounding space', () => {
      expectScopes(line(doc(), 'spaced'), '=', EQ);
      const tight = line(doc(), 'tight=');
      expectScopes(tight, 'tight', KEY);
      expectScopes(tight, '=', EQ);
      expectScopes(tight, 'no space', [BASIC]);
    });
  });

  describe('numbers and booleans', () => {
    const doc = () => fixture('numbers.toml');

    it('scopes decimal integers with signs and underscores', () => {
      const values: Record<string, string> = {
        int1: '+99',
        int2: '42',
        int3: '0',
        int4: '-17',
        int5: '1_000',
        int6: '5_349_221',
        int7: '53_49_221',
        int8: '1_2_3_4_5',
        zero_plus: '+0',
        zero_minus: '-0',
      };
      for (const [key, value] of Object.entries(values))
        expectValue(doc(), key, value, 'constant.numeric.integer.toml');
    });

    it('scopes hexadecimal, octal and binary integers', () => {
      expectValue(doc(), 'hex1', '0xDEADBEEF', 'constant.numeric.hex.toml');
      expectValue(doc(), 'hex2', '0xdeadbeef', 'constant.numeric.hex.toml');
      expectValue(doc(), 'hex3', '0xdead_beef', 'constant.numeric.hex.toml');
      expectValue(doc(), 'oct1', '0o01234567', 'constant.numeric.octal.toml');
      expectValue(doc(), 'oct2', '0o755', 'constant.numeric.octal.toml');
      expectValue(doc(), 'bin1', '0b11010110', 'constant.numeric.binary.toml');
    });

    it('scopes floats with fractions, exponents, signs and underscores', () => {
      const values: Record<string, string> = {
        flt1: '+1.0',
        flt2: '3.1415',
        flt3: '-0.01',
        flt4: '5e+22',
        flt5: '1e06',
        flt6: '-2E-2',
        flt7: '6.626e-34',
        flt8: '224_617.445_991_228',
        flt9: '-0.0',
        flt10: '+0.0',
      };
      for (const [key, value] of Object.entries(values))
        expectValue(doc(), key, value, 'constant.numeric.float.toml');
    });

    it('scopes inf and nan, signed or not', () => {
      for (const [key, value] of [
        ['sf1', 'inf'],
        ['sf2', '+inf'],
        ['sf3', '-inf'],
      ])
        expectValue(doc(), key, value, 'constant.numeric.inf.toml');
      for (const [key, value] of [
        ['sf4', 'nan'],
        ['sf5', '+nan'],
        ['sf6', '-nan'],
      ])
        expectValue(doc(), key, value, 'constant.numeric.nan.toml');
    });

    it('scopes booleans', () => {
      expectValue(doc(), 'bool1', 'true', 'constant.language.boolean.toml');
      expectValue(doc(), 'bool2', 'false', 'constant.language.boolean.toml');
    });

    it('marks malformed numbers, dates and bare words as invalid values', () => {
      const d = fixture('invalid.toml');
      const invalid = 'invalid.illegal.value.toml';
      expectValue(d, 'unquoted', 'hello', invalid);
      expectScopes(line(d, 'unquoted'), 'world', [invalid]);
      expectValue(d, 'leading_zero', '01', invalid);
      expectValue(d, 'double_underscore', '1__000', invalid);
      expectValue(d, 'signed_hex', '+0x1F', invalid);
      expectValue(d, 'bad_date', '1979-13-27', invalid);
      expectValue(d, 'no_seconds', '07:32', invalid);
      expectValue(d, 'after', '1', 'constant.numeric.integer.toml');
      for (const text of [
        'a = 1.',
        'a = .5',
        'a = 3.e+20',
        'a = 1e',
        'a = truee',
        'a = 0X1F',
        'a = infinity',
      ]) {
        const l = tokenize(text).lines[0];
        expectScopes(l, text.slice(4), [invalid]);
      }
    });
  });

  describe('dates and times', () => {
    const doc = () => fixture('datetime.toml');

    it('scopes offset date-times with T, t or space, fractions, Z and offsets', () => {
      const values: Record<string, string> = {
        odt1: '1979-05-27T07:32:00Z',
        odt2: '1979-05-27T00:32:00-07:00',
        odt3: '1979-05-27T00:32:00.999999-07:00',
        odt4: '1979-05-27 07:32:00Z',
        odt5: '1979-05-27t07:32:00z',
        odt6: '1979-05-27T07:32:00+05:30',
      };
      for (const [key, value] of Object.entries(values))
        expectValue(doc(), key, value, 'constant.other.time.datetime.offset.toml');
    });

    it('scopes local date-times', () => {
      expectValue(doc(), 'ldt1', '1979-05-27T07:32:00', 'constant.other.time.datetime.local.toml');
      expectValue(
        doc(),
        'ldt2',
        '1979-05-27T00:32:00.999999',
        'constant.other.time.datetime.local.toml',
      );
      expectValue(doc(), 'ldt3', '1979-05-27 07:32:00', 'constant.other.time.datetime.local.toml');
    });

    it('scopes local dates, even followed by a comment', () => {
      expectValue(doc(), 'ld1', '1979-05-27', 'constant.other.time.date.toml');
      expectValue(doc(), 'ld2', '1979-05-27', 'constant.other.time.date.toml');
      expectScopes(line(doc(), 'ld2'), ' a date and a comment', [COMMENT]);
    });

    it('scopes local times', () => {
      expectValue(doc(), 'lt1', '07:32:00', 'constant.other.time.time.toml');
      expectValue(doc(), 'lt2', '00:32:00.999999', 'constant.other.time.time.toml');
    });

    it('scopes dates inside arrays', () => {
      const where = line(doc(), 'dates =');
      expectScopes(where, '1979-05-27', [ARRAY, 'constant.other.time.date.toml']);
      expectScopes(where, '07:32:00', [ARRAY, 'constant.other.time.time.toml']);
      expectScopes(where, '1979-05-27T07:32:00Z', [
        ARRAY,
        'constant.other.time.datetime.offset.toml',
      ]);
    });
  });
});
