/**
 * The `readonly` validator (MGP §4.5 "Block any write operations"). A call is blocked when:
 *
 * (a) the effective metadata says the tool writes: `side_effects` include `filesystem`, `database` or
 *     `process`, or `reversible` is false. (`network` and `notification` alone do not: fetching a page
 *     is a read, and the arguments below catch a network write.) A tool that declares effects and asks
 *     for readonly contradicts itself, and the declaration is believed.
 * (b) an argument asks for a write:
 *     - SQL that writes, in any string (sqlCheck.ts says how). An argument is SQL, and must parse as
 *       statements that only read, when its name says SQL (`sql`, `statement`, `stmt`…), or when it is
 *       the `query` (or `q`) of a database tool: one whose name or description speaks of SQL or a
 *       database, or that declares the `database` side effect;
 *     - an open mode that writes under a `mode`/`flags`/`access` key (`w`, `a`, `x`, `r+`, `wb`,
 *       `write`, `append`…), `O_WRONLY`/`O_RDWR`/`O_CREAT`/`O_TRUNC`/`O_APPEND` anywhere, or a numeric
 *       `flags` value with O_WRONLY or O_RDWR set;
 *     - an HTTP method POST, PUT, PATCH, DELETE (and WebDAV's MKCOL, COPY, MOVE, PROPPATCH, LOCK) under a
 *       `method`/`verb` key;
 *     - a write verb (write, create, update, delete, insert, upload, push, commit…) as the value of an
 *       `action`/`operation`/`op` key, or as the single word of a `command` key;
 *     - `true` under a key such as `overwrite`, `append`, `create`, `delete`, `write`, `truncate`,
 *       `remove`, `save`, `commit`; `false` under `readonly`/`read_only`;
 *     - in command-like arguments (context.ts), a shell command that writes (shellWrites.ts).
 */
import type { ValidationContext } from './context';
import type { Violation } from './types';
import { shellWrite } from './shellWrites';
import { findSqlWrite } from './sqlCheck';
import { boundedSet, excerpt, nameWords, place } from './text';
import type { Leaf } from './walk';

const WRITING_EFFECTS = new Set(['filesystem', 'database', 'process']);
const SQL_KEY_WORDS = new Set(['sql', 'statement', 'statements', 'stmt', 'ddl', 'dml']);
const MODE_KEY_WORDS = new Set(['mode', 'flag', 'flags', 'access', 'openmode']);
const METHOD_KEY_WORDS = new Set(['method', 'verb']);
const ACTION_KEY_WORDS = new Set(['action', 'operation', 'op']);
const BOOLEAN_WRITE_WORDS = new Set([
  'overwrite',
  'append',
  'create',
  'delete',
  'write',
  'truncate',
  'remove',
  'save',
  'commit',
  'persist',
]);
const WRITE_VERBS = new Set([
  'write',
  'create',
  'update',
  'delete',
  'remove',
  'insert',
  'put',
  'post',
  'patch',
  'set',
  'append',
  'overwrite',
  'upload',
  'move',
  'rename',
  'drop',
  'destroy',
  'truncate',
  'save',
  'modify',
  'edit',
  'replace',
  'upsert',
  'clear',
  'purge',
  'add',
  'commit',
  'push',
  'publish',
  'send',
  'readwrite',
  'rw',
]);
const WRITE_METHODS = new Set([
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'MKCOL',
  'COPY',
  'MOVE',
  'PROPPATCH',
  'LOCK',
]);
const OPEN_MODE = /^[rwaxbtsU+]{1,4}$/;
const O_FLAGS = /\bO_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND)\b/;

type KeyKind = 'sql' | 'mode' | 'method' | 'action' | 'boolean' | 'readonly' | 'command' | 'other';
const kindCache = new Map<string, KeyKind>();

function keyKind(key: string): KeyKind {
  const known = kindCache.get(key);
  if (known) return known;
  const words = nameWords(key);
  const has = (set: Set<string>) => words.some((w) => set.has(w));
  const joined = words.join('');
  let kind: KeyKind = 'other';
  if (joined === 'readonly') kind = 'readonly';
  else if (has(SQL_KEY_WORDS)) kind = 'sql';
  else if (has(METHOD_KEY_WORDS)) kind = 'method';
  else if (has(MODE_KEY_WORDS)) kind = 'mode';
  else if (has(ACTION_KEY_WORDS)) kind = 'action';
  else if (words.length === 1 && (words[0] === 'command' || words[0] === 'cmd')) kind = 'command';
  else if (has(BOOLEAN_WRITE_WORDS)) kind = 'boolean';
  return boundedSet(kindCache, key, kind);
}

interface Hit {
  rule: 'sql_write' | 'write_argument' | 'shell_write';
  what: string;
  index?: number;
  length?: number;
}

function modeWrites(value: string | number): boolean {
  if (typeof value === 'number') return (value & 3) !== 0;
  const v = value.trim();
  return (OPEN_MODE.test(v) && /[wax+]/.test(v)) || WRITE_VERBS.has(v.toLowerCase());
}

function keyedHit(leaf: Leaf): Hit | undefined {
  const kind = keyKind(leaf.key);
  const { value } = leaf;
  if (typeof value === 'boolean') {
    if (kind === 'boolean' && value)
      return { rule: 'write_argument', what: `\`${leaf.key}: true\`` };
    return kind === 'readonly' && !value
      ? { rule: 'write_argument', what: `\`${leaf.key}: false\`` }
      : undefined;
  }
  if (kind === 'mode' && modeWrites(value))
    return { rule: 'write_argument', what: `the write mode "${value}"` };
  if (typeof value !== 'string') return undefined;
  const word = value.trim();
  if (kind === 'method' && WRITE_METHODS.has(word.toUpperCase()))
    return { rule: 'write_argument', what: `the HTTP method ${word.toUpperCase()}` };
  if ((kind === 'action' || kind === 'command') && WRITE_VERBS.has(word.toLowerCase()))
    return { rule: 'write_argument', what: `the write action "${word}"` };
  return undefined;
}

const QUERY_KEYS = new Set(['query', 'q', 'querystring', 'querytext']);
const DATABASE_WORDS = new Set([
  'sql',
  'sqlite',
  'postgres',
  'postgresql',
  'pg',
  'mysql',
  'mariadb',
  'mssql',
  'db',
  'database',
]);
const DATABASE_DESCRIPTION = /\b(?:sql|sqlite|postgres(?:ql)?|mysql|mariadb|database)\b/i;
const databaseToolCache = new Map<string, boolean>();

function databaseTool(context: ValidationContext): boolean {
  const { toolName, description = '', security } = context.input;
  if ((security.side_effects ?? []).includes('database')) return true;
  const key = `${toolName}\n${description}`;
  const known = databaseToolCache.get(key);
  if (known !== undefined) return known;
  const said =
    nameWords(toolName).some((w) => DATABASE_WORDS.has(w)) ||
    DATABASE_DESCRIPTION.test(description);
  return boundedSet(databaseToolCache, key, said);
}

/** Whether the value at this leaf is SQL by where it is, not by what it looks like. */
function isSqlArgument(context: ValidationContext, leaf: Leaf): boolean {
  if (keyKind(leaf.key) === 'sql') return true;
  return QUERY_KEYS.has(nameWords(leaf.key).join('')) && databaseTool(context);
}

function stringHit(context: ValidationContext, leaf: Leaf & { value: string }): Hit | undefined {
  const sql = findSqlWrite(leaf.value, isSqlArgument(context, leaf));
  if (sql)
    return {
      rule: 'sql_write',
      what: sql.what ?? `a SQL ${sql.keyword} statement`,
      index: sql.index,
      length: sql.keyword.length || leaf.value.length,
    };
  const flag = O_FLAGS.exec(leaf.value);
  if (flag)
    return {
      rule: 'write_argument',
      what: `the open flag ${flag[0]}`,
      index: flag.index,
      length: flag[0].length,
    };
  if (!context.isCommandLike(leaf.key, leaf.top)) return undefined;
  const shell = shellWrite(leaf.value);
  return (
    shell && {
      rule: 'shell_write',
      what: `a command that writes (${shell.what})`,
      index: shell.index,
      length: shell.length,
    }
  );
}

function toViolation(hit: Hit, pointer: string, text: string): Violation {
  const quote = excerpt(text, hit.index ?? 0, hit.length ?? text.length);
  return {
    validator: 'readonly',
    rule: hit.rule,
    message: `Blocked ${hit.what} in ${place(pointer)}: "${quote}". This tool is read-only: it may not change anything.`,
    argument: pointer,
    excerpt: quote,
  };
}

function metadataViolation(context: ValidationContext): Violation | undefined {
  const { security } = context.input;
  const effects = (security.side_effects ?? []).filter((e) => WRITING_EFFECTS.has(e));
  if (effects.length === 0 && security.reversible !== false) return undefined;
  const said = [
    effects.length ? `side effects ${effects.join(', ')}` : '',
    security.reversible === false ? 'reversible: false' : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return {
    validator: 'readonly',
    rule: 'declared_side_effects',
    message: `Blocked ${context.input.toolName}: its security metadata declares ${said}, so it cannot run under the readonly validator.`,
    argument: '',
  };
}

export function checkReadonly(context: ValidationContext): Violation[] {
  const violations: Violation[] = [];
  const declared = metadataViolation(context);
  if (declared) violations.push(declared);
  for (const leaf of context.walked.leaves) {
    const keyed = keyedHit(leaf);
    if (keyed) violations.push(toViolation(keyed, leaf.pointer, String(leaf.value)));
    if (typeof leaf.value !== 'string') continue;
    const hit = stringHit(context, leaf as Leaf & { value: string });
    if (hit) violations.push(toViolation(hit, leaf.pointer, leaf.value));
  }
  for (const array of context.walked.stringArrays) {
    if (!context.isCommandLike(array.key, array.top)) continue;
    const joined = array.values.join(' ');
    const shell = shellWrite(joined);
    const elementHit = violations.some((v) => v.argument.startsWith(`${array.pointer}/`));
    if (shell && !elementHit)
      violations.push(
        toViolation(
          { ...shell, rule: 'shell_write', what: `a command that writes (${shell.what})` },
          array.pointer,
          joined,
        ),
      );
  }
  return violations;
}
