/**
 * Property tests of the readonly validator reading PostgreSQL's Unicode escapes as PostgreSQL does:
 * a function that writes, its name spelled with `U&"…"` escapes in any mix (`\XXXX`, `\+XXXXXX`, any
 * escape character chosen with `UESCAPE`), must be refused; reads whose names and strings are spelled
 * the same way must pass.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { runValidators } from '../../../../client/src/kernel/security/validators';
import type { ToolSecurity } from '../../../../client/src/kernel/domain/security';
import { mixedCase, RUNS } from '../../../unit/validators/properties/arbitraries';

const SECURITY: ToolSecurity = { risk_level: 'safe', permissions_required: [], side_effects: [] };

async function rules(sql: string): Promise<string[]> {
  const outcome = await runValidators(['readonly'], {
    toolName: 'run_sql',
    args: { sql },
    security: SECURITY,
  });
  return outcome.violations.map((v) => v.rule);
}

const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');

/** `name` as the body of a Unicode literal with escape character `escape`, some characters escaped. */
function escaped(name: string, escape: string): fc.Arbitrary<string> {
  return fc
    .array(fc.constantFrom('plain', 'four', 'FOUR', 'six'), {
      minLength: name.length,
      maxLength: name.length,
    })
    .filter((how) => how.some((h) => h !== 'plain'))
    .map((how) =>
      [...name]
        .map((c, i) => {
          const point = c.codePointAt(0)!;
          if (how[i] === 'four') return `${escape}${hex(point, 4)}`;
          if (how[i] === 'FOUR') return `${escape}${hex(point, 4).toUpperCase()}`;
          if (how[i] === 'six') return `${escape}+${hex(point, 6)}`;
          return c;
        })
        .join(''),
    );
}

/** A Unicode identifier or string for `text`: `U&"…"` / `U&'…'`, with or without UESCAPE. */
function unicodeLiteral(text: string, quote: '"' | "'"): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom('\\', '!', '#', '*', '%', '~'), fc.constantFrom('U&', 'u&'))
    .chain(([escape, prefix]) =>
      fc
        .tuple(escaped(text, escape), mixedCase('uescape'), fc.constantFrom(' ', '', '\n', '  '))
        .map(([body, keyword, gap]) => {
          const literal = `${prefix}${quote}${body}${quote}`;
          return escape === '\\' ? literal : `${literal}${gap || ' '}${keyword}${gap}'${escape}'`;
        }),
    );
}

const WRITING_FUNCTIONS = fc.constantFrom(
  ['dblink_exec', "'host=db', 'DROP TABLE users'"],
  ['pg_file_write', "'/tmp/x', 'data', false"],
  ['pg_write_file', "'/tmp/x', 'data'"],
  ['set_config', "'log_statement', 'all', false"],
  ['lo_export', "16384, '/tmp/x'"],
  ['pg_terminate_backend', '42'],
);

describe('readonly: PostgreSQL Unicode escapes (properties)', function () {
  this.timeout(300_000);

  it("refuses the review's examples", async () => {
    for (const sql of [
      `SELECT U&"dblink_exe\\0063"('host=db', 'DROP TABLE users')`,
      `SELECT U&"pg_file_writ\\0065"('/tmp/x', 'data', false)`,
      `SELECT U&"set_confi\\0067"('log_statement', 'all', false)`,
      `SELECT U&"dblink_exe!0063" UESCAPE '!'('host=db', 'DROP TABLE users')`,
      `SELECT U&"dblink_exe\\+000063"('host=db', 'DROP TABLE users')`,
    ])
      assert.ok((await rules(sql)).includes('sql_write'), sql);
    // Inside a string, a dollar quote or a comment it is only text.
    for (const sql of [
      `SELECT 'U&"dblink_exe\\0063"(1)' AS a`,
      `SELECT $$U&"dblink_exe\\0063"(1)$$ AS b`,
      `SELECT 1 -- U&"dblink_exe\\0063"(1)`,
    ])
      assert.deepEqual(await rules(sql), [], sql);
  });

  it('refuses a writing function whose name is spelled with U&"…" escapes', async () => {
    const calls = WRITING_FUNCTIONS.chain(([name, args]) =>
      fc
        .tuple(unicodeLiteral(name, '"'), fc.constantFrom('SELECT ', 'select ', 'SELECT 1, '))
        .map(([literal, select]) => `${select}${literal}(${args})`),
    );
    await fc.assert(
      fc.asyncProperty(calls, async (sql) =>
        assert.ok((await rules(sql)).includes('sql_write'), JSON.stringify(sql)),
      ),
      { numRuns: RUNS },
    );
  });

  it('lets reads pass whose columns and strings are spelled with U& escapes', async () => {
    const reads = fc
      .tuple(
        fc.constantFrom('data', 'name', 'total'),
        fc.constantFrom('hello', 'dblink_exec', 'DROP TABLE users'),
      )
      .chain(([column, text]) =>
        fc
          .tuple(unicodeLiteral(column, '"'), unicodeLiteral(text, "'"))
          .map(([c, t]) => `SELECT ${c}, ${t} AS note FROM t`),
      );
    await fc.assert(
      fc.asyncProperty(reads, async (sql) =>
        assert.deepEqual(await rules(sql), [], JSON.stringify(sql)),
      ),
      { numRuns: 100 },
    );
  });
});
