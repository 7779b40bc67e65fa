/**
 * Whether a string is SQL that writes, for the readonly validator and code at the `readonly` level.
 *
 * `forced` says the argument is SQL (its name says so, or it is the query of a database tool; see
 * readonly.ts). Then the text must parse, under at least one dialect (PostgreSQL, MySQL, SQLite), and every dialect that parses it must find only statements known to read (sqlReadOnly.ts):
 * text that parses as a SELECT to one dialect and as two statements to another is judged by both.
 * SQL that no dialect parses is refused. SQLite's PRAGMA, which the parsers lack, is read by its own
 * small grammar: the pragmas that only report pass. Any other string is judged the same way when it starts like
 * SQL and parses; when it does not parse it is prose.
 *
 * Next to the parser, the token reading of sqlWrites.ts runs too, under its own dialect rules and for
 * values pasted into a literal; a write either finds refuses the call. MySQL's executable comments
 * (`/*! … *\/`), which MySQL runs and every other reading skips, are refused outright.
 *
 * PostgreSQL's Unicode-escaped identifiers and strings (`U&"dblink_exe\0063"`) are decoded first
 * (sqlUnicode.ts), so a function is judged by the name PostgreSQL calls; the token reading also sees
 * the text as written.
 */
import { MAX_PARSED_SQL, parseSql } from './sqlParse';
import { writeInStatement } from './sqlReadOnly';
import { SQL_DIALECTS, splitSqlStatements, tokenizeSql } from './sqlScan';
import { decodeUnicodeEscapes } from './sqlUnicode';
import { findSqlWriteByTokens, isReadOnlyPragma, looksLikeSql, type SqlWrite } from './sqlWrites';

export type { SqlWrite };

const EXECUTABLE_COMMENT = /\/\*[M]?!/i;

function startsLikeSql(text: string): boolean {
  return SQL_DIALECTS.some((d) =>
    splitSqlStatements(tokenizeSql(text, d)).some((s) => looksLikeSql(s)),
  );
}

function indexOfWord(text: string, word: string): number {
  if (!word) return 0;
  const at = text.toLowerCase().indexOf(word.toLowerCase());
  return at < 0 ? 0 : at;
}

export function findSqlWrite(written: string, forced: boolean): SqlWrite | undefined {
  const text = decodeUnicodeEscapes(written);
  if (text !== written) {
    const asWritten = findSqlWriteByTokens(written, forced);
    if (asWritten) return asWritten;
  }
  const byTokens = findSqlWriteByTokens(text, forced);
  if (byTokens) return byTokens;
  if (!forced && !startsLikeSql(text)) return undefined;
  const comment = EXECUTABLE_COMMENT.exec(text);
  if (comment)
    return {
      keyword: '/*!',
      index: comment.index,
      what: 'a MySQL executable comment (/*! … */), which MySQL runs as SQL',
    };
  if (text.length > MAX_PARSED_SQL)
    return forced
      ? {
          keyword: '',
          index: 0,
          what: `SQL longer than ${MAX_PARSED_SQL} characters, too long to check`,
        }
      : undefined;
  if (isReadOnlyPragma(text)) return undefined;
  const readings = parseSql(text);
  for (const reading of readings) {
    for (const statement of reading.statements) {
      const write = writeInStatement(statement);
      if (write)
        return { keyword: write.word, index: indexOfWord(text, write.word), what: write.what };
    }
  }
  if (readings.length === 0 && forced)
    return {
      keyword: '',
      index: 0,
      what: 'SQL that no dialect can parse (only statements known to read may run)',
    };
  return undefined;
}
