/**
 * Which SQL statements write, read from tokens under several dialects (the rules are described in
 * sqlScan.ts). A second opinion next to the parser (sqlCheck.ts): it needs no grammar to agree, so it
 * also sees writes in text that a parser's dialect reads differently from the database.
 */
import { SQL_DIALECTS, splitSqlStatements, tokenizeSql, type SqlToken } from './sqlScan';
import { WRITE_FUNCTIONS } from './sqlReadOnly';

export interface SqlWrite {
  keyword: string;
  index: number;
  /** For people, when the keyword alone does not say it ("SQL that no dialect can parse"). */
  what?: string;
}

/** Cheap first look: text without any of these words cannot hold a write. */
const MAYBE_WRITE =
  /\b(?:insert|upsert|update|delete|drop|alter|create|truncate|replace|merge|grant|revoke|attach|detach|pragma|copy|call|exec|execute|lock|rename|load|vacuum|reindex|do|into|load_extension|lo_import|lo_export|lo_unlink|pg_file_write|pg_write_file|setval|nextval|xp_cmdshell|dblink_exec|writefile|pg_terminate_backend|system|comment|reassign|install|uninstall|global|persist|password|role|authorization|set_config)\b/i;

const STARTERS = new Set([
  'SELECT',
  'WITH',
  'INSERT',
  'UPSERT',
  'UPDATE',
  'DELETE',
  'DROP',
  'CREATE',
  'ALTER',
  'TRUNCATE',
  'REPLACE',
  'MERGE',
  'GRANT',
  'REVOKE',
  'ATTACH',
  'DETACH',
  'PRAGMA',
  'EXPLAIN',
  'SHOW',
  'DESCRIBE',
  'DESC',
  'VALUES',
  'BEGIN',
  'START',
  'COMMIT',
  'ROLLBACK',
  'COPY',
  'CALL',
  'EXEC',
  'EXECUTE',
  'SET',
  'VACUUM',
  'REINDEX',
  'LOCK',
  'RENAME',
  'LOAD',
  'DO',
  'USE',
  'DECLARE',
  'TABLE',
  'ANALYZE',
  'SAVEPOINT',
  'RELEASE',
  'COMMENT',
  'REASSIGN',
  'INSTALL',
  'UNINSTALL',
]);
const OBJECT_KINDS = new Set([
  'TABLE',
  'VIEW',
  'INDEX',
  'DATABASE',
  'SCHEMA',
  'TRIGGER',
  'FUNCTION',
  'PROCEDURE',
  'SEQUENCE',
  'USER',
  'ROLE',
  'TYPE',
  'EXTENSION',
  'DOMAIN',
  'POLICY',
  'RULE',
  'COLUMN',
  'CONSTRAINT',
  'TABLESPACE',
  'SERVER',
  'EVENT',
  'COLLECTION',
  'KEYSPACE',
  'PUBLICATION',
  'SUBSCRIPTION',
  'AGGREGATE',
  'OPERATOR',
  'LANGUAGE',
  'LOGIN',
  'SYNONYM',
  'PACKAGE',
  'OWNED',
  'DEFAULT',
]);
const DDL_MODIFIERS = new Set([
  'OR',
  'REPLACE',
  'TEMP',
  'TEMPORARY',
  'UNIQUE',
  'GLOBAL',
  'LOCAL',
  'UNLOGGED',
  'VIRTUAL',
  'IF',
  'NOT',
  'EXISTS',
  'MATERIALIZED',
  'CLUSTERED',
  'NONCLUSTERED',
  'FULLTEXT',
  'SPATIAL',
  'RECURSIVE',
  'EXTERNAL',
  'FOREIGN',
  'ONLINE',
  'OFFLINE',
  'CONCURRENTLY',
  'ALGORITHM',
  'DEFINER',
  'SQL',
  'SECURITY',
  'INVOKER',
  'MERGE',
  'UNDEFINED',
  'TEMPTABLE',
  '=',
]);

type Statement = SqlToken[];

function isWord(t: SqlToken | undefined, ...words: string[]): boolean {
  return t?.kind === 'word' && words.includes(t.text);
}

function isPunct(t: SqlToken | undefined, text: string): boolean {
  return t?.kind === 'punct' && t.text === text;
}

/** Where each word or punctuation mark last occurs in a statement, computed once, so checks stay linear. */
const lastSeen = new WeakMap<Statement, Map<string, number>>();

function lastIndexes(s: Statement): Map<string, number> {
  let last = lastSeen.get(s);
  if (!last) {
    last = new Map();
    for (const [j, t] of s.entries())
      if (t.kind === 'word' || t.kind === 'punct') last.set(t.text, j);
    lastSeen.set(s, last);
  }
  return last;
}

function later(s: Statement, i: number, ...words: string[]): boolean {
  const last = lastIndexes(s);
  return words.some((w) => (last.get(w) ?? -1) > i);
}

/** COPY … TO/FROM 'file' | STDIN | STDOUT | PROGRAM, anywhere in the statement. */
const copies = new WeakMap<Statement, boolean>();

function copiesData(s: Statement): boolean {
  let known = copies.get(s);
  if (known === undefined) {
    known = s.some(
      (t, j) =>
        isWord(t, 'TO', 'FROM') &&
        (s[j + 1]?.kind === 'literal' || isWord(s[j + 1], 'STDIN', 'STDOUT', 'PROGRAM')),
    );
    copies.set(s, known);
  }
  return known;
}

function atStart(s: Statement, i: number): boolean {
  return (
    i === 0 ||
    isPunct(s[i - 1], '(') ||
    isPunct(s[i - 1], ')') ||
    isWord(s[i - 1], 'EXPLAIN', 'ANALYZE', 'VERBOSE')
  );
}

function ddlObject(s: Statement, i: number): boolean {
  let j = i + 1;
  while (j < s.length && j < i + 12 && DDL_MODIFIERS.has(s[j].text)) j++;
  return isWord(s[j], ...OBJECT_KINDS);
}

/** TRUNCATE [TABLE|ONLY] a[, b…] [CASCADE|RESTRICT|RESTART IDENTITY…]: a list of names and nothing else. */
function truncatesTables(s: Statement, i: number): boolean {
  let j = i + 1;
  while (isWord(s[j], 'TABLE', 'ONLY')) j++;
  let expectName = true;
  for (; j < s.length; j++) {
    const t = s[j];
    if (isWord(t, 'CASCADE', 'RESTRICT', 'RESTART', 'CONTINUE', 'IDENTITY')) continue;
    if (expectName !== (t.kind === 'word')) return false;
    if (!expectName && !(isPunct(t, ',') || isPunct(t, '.'))) return false;
    expectName = !expectName;
  }
  return !expectName;
}

/** `SET GLOBAL|PERSIST|PASSWORD|ROLE|SESSION AUTHORIZATION|@@global.x`: beyond the session's own settings. */
function setsServerOrIdentity(next: SqlToken | undefined, after: SqlToken | undefined): boolean {
  if (isWord(next, 'GLOBAL', 'PERSIST', 'PERSIST_ONLY', 'PASSWORD', 'ROLE')) return true;
  if (isWord(next, 'SESSION') && isWord(after, 'AUTHORIZATION')) return true;
  return next?.kind === 'word' && /^@@(?:GLOBAL|PERSIST)/.test(next.text);
}

/** SQLite pragmas that only report, also when given an argument (`PRAGMA table_info(t)`). */
const READ_PRAGMAS = new Set([
  'TABLE_INFO',
  'TABLE_XINFO',
  'TABLE_LIST',
  'INDEX_LIST',
  'INDEX_INFO',
  'INDEX_XINFO',
  'FOREIGN_KEY_LIST',
  'FOREIGN_KEY_CHECK',
  'INTEGRITY_CHECK',
  'QUICK_CHECK',
  'COLLATION_LIST',
  'DATABASE_LIST',
  'FUNCTION_LIST',
  'MODULE_LIST',
  'PRAGMA_LIST',
]);

/** SQLite pragmas that report a setting when given no value (`PRAGMA journal_mode`). */
const QUERIED_PRAGMAS = new Set([
  'JOURNAL_MODE',
  'PAGE_SIZE',
  'PAGE_COUNT',
  'FREELIST_COUNT',
  'USER_VERSION',
  'SCHEMA_VERSION',
  'APPLICATION_ID',
  'ENCODING',
  'FOREIGN_KEYS',
  'COMPILE_OPTIONS',
  'DATA_VERSION',
]);

/**
 * Whether `text` is one SQLite PRAGMA that only reports (SQLite's grammar: `PRAGMA [schema.]name`,
 * `PRAGMA [schema.]name(value)`, `PRAGMA [schema.]name = value`): a reporting pragma with or without an
 * argument, or a setting queried without a value. The SQL parsers have no PRAGMA, so it is read here.
 */
export function isReadOnlyPragma(text: string): boolean {
  const all = splitSqlStatements(tokenizeSql(text, SQL_DIALECTS[0]));
  if (all.length !== 1) return false;
  const s = all[0];
  if (!isWord(s[0], 'PRAGMA')) return false;
  let i = 1;
  if (s[i]?.kind === 'word' && isPunct(s[i + 1], '.')) i += 2;
  const name = s[i];
  if (name?.kind !== 'word') return false;
  if (i + 1 === s.length) return READ_PRAGMAS.has(name.text) || QUERIED_PRAGMAS.has(name.text);
  const argument = s[i + 2];
  return (
    READ_PRAGMAS.has(name.text) &&
    isPunct(s[i + 1], '(') &&
    (argument?.kind === 'word' || argument?.kind === 'literal') &&
    isPunct(s[i + 3], ')') &&
    i + 4 === s.length
  );
}

/** `PRAGMA name = value` or `PRAGMA name(value)` sets, unless the pragma only reports. */
function pragmaWrites(s: Statement, i: number): boolean {
  const at = s.findIndex((t, j) => j > i && (isPunct(t, '=') || isPunct(t, '(')));
  if (at < 0) return false;
  return !(s[at - 1]?.kind === 'word' && READ_PRAGMAS.has(s[at - 1].text));
}

function executesProcedure(s: Statement, i: number): boolean {
  const name = s[i + 1];
  if (isPunct(name, '(') || name?.kind === 'literal') return true;
  if (name?.kind !== 'word') return false;
  const after = s[i + 2];
  return (
    /[_@.]/.test(name.text) ||
    isPunct(after, '.') ||
    after?.kind === 'literal' ||
    (after?.kind === 'word' && after.text.startsWith('@'))
  );
}

const CHECKS: Record<string, (s: Statement, i: number) => boolean> = {
  INSERT: (s, i) =>
    isWord(s[i + 1], 'INTO', 'OVERWRITE') ||
    (isWord(s[i + 1], 'OR') &&
      isWord(s[i + 2], 'REPLACE', 'IGNORE', 'ABORT', 'FAIL', 'ROLLBACK')) ||
    (atStart(s, i) && later(s, i, 'VALUES', 'SELECT', 'DEFAULT', 'INTO')),
  UPSERT: (s, i) => isWord(s[i + 1], 'INTO'),
  UPDATE: (s, i) =>
    s[i + 1]?.kind === 'word' &&
    !isWord(s[i + 1], 'OF', 'NOWAIT', 'SKIP', 'CASCADE', 'RESTRICT', 'NO') &&
    later(s, i, 'SET'),
  DELETE: (s, i) => isWord(s[i + 1], 'FROM') || (atStart(s, i) && later(s, i, 'FROM', 'WHERE')),
  DROP: ddlObject,
  CREATE: ddlObject,
  ALTER: (s, i) => ddlObject(s, i) || (atStart(s, i) && isWord(s[i + 1], 'SYSTEM')),
  COMMENT: (s, i) => atStart(s, i) && isWord(s[i + 1], 'ON') && ddlObject(s, i + 1),
  REASSIGN: (s, i) => atStart(s, i) && isWord(s[i + 1], 'OWNED'),
  INSTALL: (s, i) => atStart(s, i) && isWord(s[i + 1], 'PLUGIN', 'COMPONENT'),
  UNINSTALL: (s, i) => atStart(s, i) && isWord(s[i + 1], 'PLUGIN', 'COMPONENT'),
  SET: (s, i) => atStart(s, i) && setsServerOrIdentity(s[i + 1], s[i + 2]),
  TRUNCATE: (s, i) => atStart(s, i) && truncatesTables(s, i),
  REPLACE: (s, i) => isWord(s[i + 1], 'INTO'),
  MERGE: (s, i) => isWord(s[i + 1], 'INTO'),
  GRANT: (s, i) => atStart(s, i) && (later(s, i, 'ON') || (s.length === 4 && isWord(s[2], 'TO'))),
  REVOKE: (s, i) =>
    atStart(s, i) && (later(s, i, 'ON') || (s.length === 4 && isWord(s[2], 'FROM'))),
  ATTACH: (s, i) => isWord(s[i + 1], 'DATABASE') || (atStart(s, i) && s[i + 1]?.kind === 'literal'),
  DETACH: (s, i) =>
    isWord(s[i + 1], 'DATABASE') || (atStart(s, i) && s.length === 2 && s[1].kind === 'word'),
  PRAGMA: (s, i) => atStart(s, i) && pragmaWrites(s, i),
  COPY: (s, i) => atStart(s, i) && copiesData(s),
  CALL: (s, i) =>
    atStart(s, i) &&
    s[i + 1]?.kind === 'word' &&
    s.slice(i + 2, i + 6).some((t) => isPunct(t, '(')),
  EXEC: (s, i) => atStart(s, i) && executesProcedure(s, i),
  EXECUTE: (s, i) => atStart(s, i) && executesProcedure(s, i),
  LOCK: (s, i) => atStart(s, i) && isWord(s[i + 1], 'TABLE', 'TABLES'),
  RENAME: (s, i) => atStart(s, i) && isWord(s[i + 1], 'TABLE', 'USER', 'DATABASE', 'COLUMN'),
  LOAD: (s, i) =>
    atStart(s, i) && (isWord(s[i + 1], 'DATA', 'EXTENSION') || s[i + 1]?.kind === 'literal'),
  VACUUM: (s, i) =>
    atStart(s, i) &&
    (s.length === 1 ||
      isWord(s[i + 1], 'FULL', 'FREEZE', 'VERBOSE', 'ANALYZE', 'INTO') ||
      isPunct(s[i + 1], '(')),
  REINDEX: (s, i) =>
    atStart(s, i) &&
    (s.length === 1 || isWord(s[i + 1], 'TABLE', 'INDEX', 'DATABASE', 'SCHEMA', 'SYSTEM')),
  DO: (s, i) => atStart(s, i) && s[i + 1]?.kind === 'literal',
  INTO: (s, i) =>
    isWord(s[0], 'SELECT', 'WITH') &&
    !(s[i + 1]?.text.startsWith('@') || s[i + 1]?.text.startsWith(':')),
};

function statementWrite(s: Statement): SqlToken | undefined {
  for (let i = 0; i < s.length; i++) {
    const t = s[i];
    if (t.kind !== 'word') continue;
    const check = CHECKS[t.text];
    if (
      (check && check(s, i)) ||
      (WRITE_FUNCTIONS.has(t.text.toLowerCase()) && isPunct(s[i + 1], '('))
    )
      return t;
  }
  return undefined;
}

export function looksLikeSql(s: Statement): boolean {
  return STARTERS.has(s[0].text) || (isPunct(s[0], '(') && isWord(s[1], 'SELECT', 'WITH'));
}

/**
 * The first write in `text`, read as SQL. `forced`: the argument is named as SQL, so every statement
 * counts; otherwise only statements that start like SQL.
 */
export function findSqlWriteByTokens(text: string, forced: boolean): SqlWrite | undefined {
  if (!MAYBE_WRITE.test(text)) return undefined;
  const readings: [string, number][] = [[text, 0]];
  // A value that is SQL is the statement itself; only a value that is not may be pasted into one.
  if (!forced && text.includes("'")) readings.push([`'${text}`, -1]);
  if (!forced && text.includes('"')) readings.push([`"${text}`, -1]);
  for (const [reading, shift] of readings) {
    for (const dialect of SQL_DIALECTS) {
      for (const s of splitSqlStatements(tokenizeSql(reading, dialect))) {
        const hit = (forced || looksLikeSql(s)) && statementWrite(s);
        if (hit) return { keyword: hit.text, index: Math.max(0, hit.index + shift) };
      }
    }
  }
  return undefined;
}
