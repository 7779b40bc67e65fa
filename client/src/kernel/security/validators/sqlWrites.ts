/** Which SQL statements write (the rules are described in sqlScan.ts). */
import { SQL_DIALECTS, splitSqlStatements, tokenizeSql, type SqlToken } from './sqlScan';

export interface SqlWrite {
  keyword: string;
  index: number;
}

/** Cheap first look: text without any of these words cannot hold a write. */
const MAYBE_WRITE =
  /\b(?:insert|upsert|update|delete|drop|alter|create|truncate|replace|merge|grant|revoke|attach|detach|pragma|copy|call|exec|execute|lock|rename|load|vacuum|reindex|do|into|load_extension|lo_import|lo_export|lo_unlink|pg_file_write|pg_write_file|setval|nextval|xp_cmdshell|dblink_exec|writefile|pg_terminate_backend)\b/i;

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
const WRITE_FUNCTIONS = new Set([
  'LOAD_EXTENSION',
  'LO_IMPORT',
  'LO_EXPORT',
  'LO_UNLINK',
  'PG_FILE_WRITE',
  'PG_WRITE_FILE',
  'SETVAL',
  'NEXTVAL',
  'XP_CMDSHELL',
  'DBLINK_EXEC',
  'WRITEFILE',
  'PG_TERMINATE_BACKEND',
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
  ALTER: ddlObject,
  TRUNCATE: (s, i) => atStart(s, i) && truncatesTables(s, i),
  REPLACE: (s, i) => isWord(s[i + 1], 'INTO'),
  MERGE: (s, i) => isWord(s[i + 1], 'INTO'),
  GRANT: (s, i) => atStart(s, i) && (later(s, i, 'ON') || (s.length === 4 && isWord(s[2], 'TO'))),
  REVOKE: (s, i) =>
    atStart(s, i) && (later(s, i, 'ON') || (s.length === 4 && isWord(s[2], 'FROM'))),
  ATTACH: (s, i) => isWord(s[i + 1], 'DATABASE') || (atStart(s, i) && s[i + 1]?.kind === 'literal'),
  DETACH: (s, i) =>
    isWord(s[i + 1], 'DATABASE') || (atStart(s, i) && s.length === 2 && s[1].kind === 'word'),
  PRAGMA: (s, i) => atStart(s, i) && later(s, i, '='),
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
    if ((check && check(s, i)) || (WRITE_FUNCTIONS.has(t.text) && isPunct(s[i + 1], '('))) return t;
  }
  return undefined;
}

function looksLikeSql(s: Statement): boolean {
  return STARTERS.has(s[0].text) || (isPunct(s[0], '(') && isWord(s[1], 'SELECT', 'WITH'));
}

/**
 * The first write in `text`, read as SQL. `forced`: the argument is named as SQL, so every statement
 * counts; otherwise only statements that start like SQL.
 */
export function findSqlWrite(text: string, forced: boolean): SqlWrite | undefined {
  if (!MAYBE_WRITE.test(text)) return undefined;
  const readings: [string, number][] = [[text, 0]];
  if (text.includes("'")) readings.push([`'${text}`, -1]);
  if (text.includes('"')) readings.push([`"${text}`, -1]);
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
