/**
 * Parses SQL under each dialect the readonly validator knows (sqlDialects.ts). The grammars are large,
 * so they are loaded at the first SQL argument, not imported: the bundles find them as
 * `dist/sqlParser.js` next to themselves; unbundled code (the tests) loads sqlDialects.js beside this
 * module.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { SqlDialect, SqlGrammar } from './sqlDialects';

export const SQL_PARSER_BUNDLE = 'sqlParser.js';
/** MySQL's grammar first: it takes `?` placeholders, so a typical query parses at the first try. */
export const SQL_DIALECT_NAMES: readonly SqlDialect[] = ['mysql', 'postgresql', 'sqlite'];

/**
 * Where the dialects' lexical rules differ: comments (`#`, `--x`, nested `/* *\/`), string escapes and
 * quotes (backslash, `"`, backticks, `[…]`, `$$`). Text without any of these is cut into the same
 * tokens and statements by every dialect, so the first grammar that parses it decides its statement
 * kinds; text with any of them is parsed by every dialect, and every reading must be read-only.
 */
const DIALECT_SENSITIVE = /[#\\"`[$]|--|\/\*/;

/** Longer SQL is not parsed: it is refused where an argument must be SQL (no query needs more). */
export const MAX_PARSED_SQL = 100_000;

interface Dialects {
  grammarFor(dialect: SqlDialect): SqlGrammar;
  DATABASE_OPTION: Record<SqlDialect, string>;
}

let dialects: Dialects | undefined;

function loadDialects(): Dialects {
  // Not `import`: a bundler would then pull the grammars into every bundle that holds this module.
  const load = createRequire(__filename);
  const bundle = join(__dirname, SQL_PARSER_BUNDLE);
  return load(existsSync(bundle) ? bundle : './sqlDialects') as Dialects;
}

export interface ParsedSql {
  dialect: SqlDialect;
  /** The statements, as node-sql-parser's AST. */
  statements: unknown[];
}

/**
 * The readings of `sql` that parse, one per dialect (only the first, when the dialects cannot read
 * it differently); [] when no dialect can parse it.
 */
export function parseSql(sql: string): ParsedSql[] {
  dialects ??= loadDialects();
  const firstIsEnough = !DIALECT_SENSITIVE.test(sql);
  const parsed: ParsedSql[] = [];
  for (const dialect of SQL_DIALECT_NAMES) {
    let ast: unknown;
    try {
      ast = dialects
        .grammarFor(dialect)
        .astify(sql, { database: dialects.DATABASE_OPTION[dialect] });
    } catch {
      continue; // A syntax error in this dialect, or a grammar that recursed too deep.
    }
    parsed.push({ dialect, statements: (Array.isArray(ast) ? ast : [ast]).filter(Boolean) });
    if (firstIsEnough) break;
  }
  return parsed;
}
