/**
 * Entry of `dist/sqlParser.js`: the SQL grammars of npm `node-sql-parser`, one per dialect the readonly
 * validator reads SQL in. Its SQL Server grammar is left out: it reads any two unknown words
 * (`SHOW TABLES`) as a statement of its own, which would judge every other dialect's reads; SQL
 * Server's quoting is still read by the token reading (sqlWrites.ts). About 1 MB of generated parser, so it is its own bundle, loaded at the first
 * SQL argument (sqlParse.ts), and each dialect's grammar is evaluated only when first asked for.
 */
export type SqlDialect = 'postgresql' | 'mysql' | 'sqlite';

/** What node-sql-parser calls each dialect (its `database` option). */
export const DATABASE_OPTION: Record<SqlDialect, string> = {
  postgresql: 'PostgresQL',
  mysql: 'MySQL',
  sqlite: 'Sqlite',
};

export interface SqlGrammar {
  astify(sql: string, options: { database: string }): unknown;
}

type GrammarClass = new () => SqlGrammar;

/* eslint-disable @typescript-eslint/no-require-imports -- each grammar is loaded when first used */
const LOADERS: Record<SqlDialect, () => GrammarClass> = {
  postgresql: () => require('node-sql-parser/build/postgresql').Parser,
  mysql: () => require('node-sql-parser/build/mysql').Parser,
  sqlite: () => require('node-sql-parser/build/sqlite').Parser,
};
/* eslint-enable @typescript-eslint/no-require-imports */

const grammars = new Map<SqlDialect, SqlGrammar>();

export function grammarFor(dialect: SqlDialect): SqlGrammar {
  let grammar = grammars.get(dialect);
  if (!grammar) grammars.set(dialect, (grammar = new (LOADERS[dialect]())()));
  return grammar;
}
