/**
 * Finds SQL statements that write, for the readonly validator and for code at the `readonly` level.
 *
 * The text is tokenized with string literals, quoted identifiers and comments removed, so
 * `SELECT 'please delete me'` and `-- DROP TABLE t` pass. Because dialects disagree about what is a
 * comment or an escape (`#` and `\'` in MySQL, `$$…$$` in PostgreSQL, `[…]` in SQL Server), the text is
 * read under each dialect and a write found by any reading counts: a quote trick that hides a statement
 * from one reading shows it to another. A value that holds a quote is also read as if it had been pasted
 * inside a string literal (`x'; DROP TABLE t; --`), the shape of an injection.
 *
 * A statement is read as SQL when the argument's name says SQL (`sql`, `statement`, `stmt`…) or when the
 * statement starts with a SQL keyword (SELECT, WITH, INSERT, UPDATE, DELETE…), so a search for
 * "how to delete from a list" is prose. Inside it, a keyword writes only with its grammar around it:
 * UPDATE … SET, DELETE … FROM, INSERT INTO, DROP/CREATE/ALTER + an object kind, REPLACE/MERGE INTO,
 * GRANT/REVOKE … ON, ATTACH DATABASE, PRAGMA … =, COPY … TO/FROM, SELECT … INTO, CALL/EXEC of a
 * procedure, TRUNCATE of tables, LOCK/RENAME/LOAD/VACUUM/REINDEX/DO; and functions that write
 * (`load_extension`, `lo_export`, `setval`, `xp_cmdshell`…). `SELECT … FOR UPDATE` (a lock, no change)
 * and `SET` of session settings pass.
 */

type Kind = 'word' | 'literal' | 'number' | 'punct';

interface Token {
  kind: Kind;
  /** Upper-case text for words, the character for punctuation, '' for literals. */
  text: string;
  index: number;
}

interface Dialect {
  hashComment: boolean;
  backslashEscape: boolean;
  dashNeedsSpace: boolean;
  dollarQuote: boolean;
  bracketIdentifier: boolean;
  nestedComments: boolean;
}

const STANDARD: Dialect = {
  hashComment: false,
  backslashEscape: false,
  dashNeedsSpace: false,
  dollarQuote: true,
  bracketIdentifier: false,
  nestedComments: true,
};
const MYSQL: Dialect = {
  hashComment: true,
  backslashEscape: true,
  dashNeedsSpace: true,
  dollarQuote: false,
  bracketIdentifier: false,
  nestedComments: false,
};
const SQLSERVER: Dialect = {
  hashComment: false,
  backslashEscape: false,
  dashNeedsSpace: false,
  dollarQuote: false,
  bracketIdentifier: true,
  nestedComments: false,
};
const DIALECTS = [STANDARD, MYSQL, SQLSERVER];

function skipQuoted(sql: string, from: number, quote: string, backslash: boolean): number {
  for (let i = from + 1; i < sql.length; i++) {
    if (backslash && sql[i] === '\\') i++;
    else if (sql[i] === quote) {
      if (sql[i + 1] !== quote) return i + 1;
      i++;
    }
  }
  return sql.length;
}

function skipBlockComment(sql: string, from: number, nested: boolean): number {
  let depth = 0;
  for (let i = from; i < sql.length - 1; i++) {
    if (sql[i] === '/' && sql[i + 1] === '*' && (nested || depth === 0)) {
      depth++;
      i++;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  return sql.length;
}

/** The end of a comment starting at `i`, or -1 when none starts there. */
function commentEnd(sql: string, i: number, d: Dialect): number {
  const c = sql[i];
  const next = sql[i + 1];
  const dash = c === '-' && next === '-' && (!d.dashNeedsSpace || /[\s]|^$/.test(sql[i + 2] ?? ''));
  if (dash || (d.hashComment && c === '#')) {
    const eol = sql.indexOf('\n', i);
    return eol < 0 ? sql.length : eol;
  }
  return c === '/' && next === '*' ? skipBlockComment(sql, i, d.nestedComments) : -1;
}

const DOLLAR_TAG = /\$[A-Za-z_]*\$/y;

/** The end of a literal or quoted identifier starting at `i`, or -1 when none starts there. */
function quotedEnd(sql: string, i: number, d: Dialect): number {
  const c = sql[i];
  if (c === "'") return skipQuoted(sql, i, "'", d.backslashEscape);
  if (c === '"' || c === '`') return skipQuoted(sql, i, c, d.backslashEscape && c === '"');
  if (c === '[' && d.bracketIdentifier) return skipQuoted(sql, i, ']', false);
  if (c === '$' && d.dollarQuote) {
    DOLLAR_TAG.lastIndex = i;
    const tag = DOLLAR_TAG.exec(sql);
    if (tag) {
      const close = sql.indexOf(tag[0], i + tag[0].length);
      return close < 0 ? sql.length : close + tag[0].length;
    }
  }
  return -1;
}

const WORD = /[A-Za-z_@:][\w$@]*|\d[\w.]*/y;

function tokenize(sql: string, d: Dialect): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    const comment = commentEnd(sql, i, d);
    if (comment >= 0) {
      i = comment;
      continue;
    }
    const quoted = quotedEnd(sql, i, d);
    if (quoted >= 0) {
      // A quoted identifier is still a name (`DELETE FROM "users"`); only its text is hidden.
      tokens.push({
        kind: c === "'" || c === '$' ? 'literal' : 'word',
        text: c === "'" || c === '$' ? '' : '"ID"',
        index: i,
      });
      i = quoted;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(sql);
    if (word) {
      tokens.push({
        kind: /^\d/.test(word[0]) ? 'number' : 'word',
        text: word[0].toUpperCase(),
        index: i,
      });
      i += word[0].length;
    } else {
      tokens.push({ kind: 'punct', text: c, index: i });
      i++;
    }
  }
  return tokens;
}

function statements(tokens: Token[]): Token[][] {
  const out: Token[][] = [[]];
  for (const t of tokens) {
    if (t.kind === 'punct' && t.text === ';') out.push([]);
    else out[out.length - 1].push(t);
  }
  return out.filter((s) => s.length > 0);
}

export { tokenize as tokenizeSql, statements as splitSqlStatements, DIALECTS as SQL_DIALECTS };
export type { Token as SqlToken };
