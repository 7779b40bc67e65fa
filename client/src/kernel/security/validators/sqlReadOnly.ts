/**
 * Judges parsed SQL (node-sql-parser's AST, sqlParse.ts) for the readonly validator: a statement passes
 * only when its kind is known to read — SELECT (also with WITH, UNION, subqueries), SHOW, DESCRIBE,
 * EXPLAIN of a SELECT — and nothing inside it writes:
 * - a subquery or WITH part that is not a SELECT (`WITH x AS (DELETE … RETURNING *) SELECT …`);
 * - `SELECT … INTO` a table or a file (`INTO @variable` only sets a session variable and passes);
 * - a call of a function known to write or to act on the server (`pg_write_file`, `lo_export`,
 *   `set_config`, `load_extension`, `xp_cmdshell`, `pg_terminate_backend`…). A function the database
 *   defines itself cannot be judged from its name: the database's own permissions are the complete
 *   answer for those, this is a check.
 * Every other kind (INSERT, SET, PRAGMA, ALTER, COMMENT, CALL…) is a write for this validator.
 */

/** Statement kinds that only read, as node-sql-parser names them. */
const READ_KINDS = new Set(['select', 'show', 'desc', 'explain']);

/** Kinds of statements, wherever they appear inside another one, that are not reads. */
const STATEMENT_KINDS = new Set([
  'insert',
  'replace',
  'update',
  'delete',
  'create',
  'alter',
  'drop',
  'truncate',
  'rename',
  'grant',
  'revoke',
  'set',
  'lock',
  'unlock',
  'call',
  'exec',
  'execute',
  'declare',
  'transaction',
  'load_data',
  'comment',
  'use',
]);

export const WRITE_FUNCTIONS = new Set([
  'load_extension',
  'writefile',
  'fts3_tokenizer',
  'lo_import',
  'lo_export',
  'lo_unlink',
  'lo_create',
  'lo_put',
  'lo_from_bytea',
  'lo_truncate',
  'pg_file_write',
  'pg_write_file',
  'pg_file_unlink',
  'pg_file_rename',
  'setval',
  'nextval',
  'set_config',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_promote',
  'pg_switch_wal',
  'pg_terminate_backend',
  'pg_cancel_backend',
  'dblink_exec',
  'dblink',
  'xp_cmdshell',
  'xp_regwrite',
  'sp_oacreate',
  'sys_exec',
  'sys_eval',
]);

export interface SqlWriteFound {
  /** For people: `an INSERT statement`, `the function pg_write_file`. */
  what: string;
  /** A word to find in the text for the excerpt. */
  word: string;
}

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null;
}

function kindOf(node: Node): string | undefined {
  return typeof node.type === 'string' ? node.type.toLowerCase() : undefined;
}

function statementWrite(kind: string): SqlWriteFound {
  const word = kind.replace(/_/g, ' ').toUpperCase();
  return { what: `a ${word} statement`, word: word.split(' ')[0] };
}

function functionName(node: Node): string | undefined {
  const name = node.name;
  if (typeof name === 'string') return name.toLowerCase();
  const parts = isNode(name) && Array.isArray(name.name) ? name.name : [];
  const last = parts[parts.length - 1] as Node | undefined;
  return typeof last?.value === 'string' ? last.value.toLowerCase() : undefined;
}

/** `INTO` a table or file: a write; into session variables (`INTO @a, @b`) only. */
function intoWrites(into: unknown): boolean {
  if (!isNode(into) || into.position === null || into.position === undefined) return false;
  const targets = Array.isArray(into.expr) ? into.expr : [into.expr];
  return !targets.every((t) => isNode(t) && kindOf(t) === 'var');
}

function nestedWrite(node: Node, depth: number): SqlWriteFound | undefined {
  if (depth > 200) return { what: 'SQL nested too deep to check', word: '' };
  const kind = kindOf(node);
  if (kind && STATEMENT_KINDS.has(kind)) return statementWrite(kind);
  if (kind === 'function') {
    const name = functionName(node);
    if (name && WRITE_FUNCTIONS.has(name)) return { what: `the function ${name}`, word: name };
  }
  if (kind === 'select' && intoWrites(node.into)) return { what: 'SELECT … INTO', word: 'INTO' };
  if (kind === 'explain' && !(isNode(node.expr) && kindOf(node.expr) === 'select'))
    return { what: 'EXPLAIN of a statement that is not a SELECT', word: 'EXPLAIN' };
  if (isNode(node.ast) && kindOf(node.ast) !== 'select')
    return statementWrite(kindOf(node.ast) ?? 'unknown');
  for (const value of Object.values(node)) {
    if (!isNode(value)) continue;
    const found = nestedWrite(value, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The first write in one parsed statement, or undefined when it only reads. */
export function writeInStatement(statement: unknown): SqlWriteFound | undefined {
  if (!isNode(statement)) return { what: 'a statement the parser could not name', word: '' };
  const kind = kindOf(statement);
  if (!kind || !READ_KINDS.has(kind)) return statementWrite(kind ?? 'unknown');
  return nestedWrite(statement, 0);
}
