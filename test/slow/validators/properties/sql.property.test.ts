/**
 * Property tests of the readonly validator's SQL judgement: the writes of sqlCases.ts in generated
 * spellings (case, whitespace and comments between tokens, a read before them, parentheses, trailing
 * semicolons) must all be refused where an argument is SQL; generated SELECTs must all pass.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { runValidators } from '../../../../client/src/kernel/security/validators';
import type { ToolSecurity } from '../../../../client/src/kernel/domain/security';
import { SQL_ONLY_WHERE_SQL, SQL_WRITES } from '../../../unit/validators/sqlCases';
import { RUNS, mixedCase } from '../../../unit/validators/properties/arbitraries';

const SECURITY: ToolSecurity = { risk_level: 'safe', permissions_required: [], side_effects: [] };

async function refused(sql: string): Promise<boolean> {
  const outcome = await runValidators(['readonly'], {
    toolName: 'run_sql',
    args: { sql },
    security: SECURITY,
  });
  return !outcome.ok;
}

/** Spacing a SQL lexer skips: spaces, tabs, line breaks, block comments, line comments. */
const GAP = fc.constantFrom(' ', '  ', '\t', '\n', ' /* x */ ', '/**/', ' -- note\n', '\r\n');

/** `sql` with each run of spaces outside quotes replaced by a generated gap, and its keywords' case mixed. */
function respelled(sql: string): fc.Arbitrary<string> {
  const parts = sql.split(/('(?:[^']|'')*')/);
  return fc
    .tuple(
      fc.array(GAP, { minLength: 64, maxLength: 64 }),
      fc.array(fc.boolean(), { minLength: 256, maxLength: 256 }),
    )
    .map(([gaps, upper]) => {
      let g = 0;
      let c = 0;
      return parts
        .map((part, i) =>
          i % 2 === 1
            ? part
            : part
                .replace(/ +/g, () => gaps[g++ % gaps.length])
                .replace(/[a-z]/gi, (ch) =>
                  upper[c++ % upper.length] ? ch.toUpperCase() : ch.toLowerCase(),
                ),
        )
        .join('');
    });
}

const WRITE = fc
  .constantFrom(...SQL_WRITES, ...SQL_ONLY_WHERE_SQL)
  .chain((sql) =>
    fc
      .tuple(
        respelled(sql),
        fc.constantFrom('', ' ', '\n', '/* a read */ ', '-- a read\n'),
        fc.constantFrom('', 'SELECT 1; ', 'select * from t;\n'),
        fc.constantFrom('', ';', ' ;', ';\n'),
      )
      .map(([body, lead, before, after]) => `${lead}${before}${body}${after}`),
  );

const NAME = fc.constantFrom('users', 'orders', 'drop_log', 'deleted_at', 'update_count', 'Grant');
const COLUMN = fc.constantFrom('id', 'name', 'created_at', 'total', '"select"', 'insert_id');
const LITERAL = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }).map(String),
  fc.constantFrom("'DROP TABLE users'", "'; DELETE FROM t; --'", "'it''s'", '?', "'%update%'"),
);
const READ = fc
  .tuple(
    fc.array(COLUMN, { minLength: 1, maxLength: 4 }),
    NAME,
    fc.option(fc.tuple(COLUMN, fc.constantFrom('=', '>', '<', '<>', 'LIKE'), LITERAL)),
    fc.option(COLUMN),
    fc.option(fc.integer({ min: 1, max: 500 })),
    fc.boolean(),
  )
  .map(([columns, table, where, order, limit, cte]) => {
    let sql = `SELECT ${columns.join(', ')} FROM ${table}`;
    if (where) sql += ` WHERE ${where[0]} ${where[1]} ${where[2]}`;
    if (order) sql += ` ORDER BY ${order}`;
    if (limit !== null) sql += ` LIMIT ${limit}`;
    return cte ? `WITH recent AS (${sql}) SELECT * FROM recent` : sql;
  })
  .chain((sql) => respelled(sql));

describe('readonly SQL: properties', function () {
  it('refuses every generated spelling of a write', async () => {
    await fc.assert(
      fc.asyncProperty(WRITE, async (sql) => assert.ok(await refused(sql), JSON.stringify(sql))),
      { numRuns: RUNS },
    );
  });

  it('lets generated SELECTs pass, literals holding SQL words included', async () => {
    await fc.assert(
      fc.asyncProperty(READ, async (sql) => assert.ok(!(await refused(sql)), JSON.stringify(sql))),
      { numRuns: RUNS },
    );
  });

  it('the case of a keyword does not matter', async () => {
    await fc.assert(
      fc.asyncProperty(mixedCase('alter system set archive_command = 1'), async (sql) =>
        assert.ok(await refused(sql), sql),
      ),
      { numRuns: 50 },
    );
  });
});
