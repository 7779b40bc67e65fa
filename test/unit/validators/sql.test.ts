/**
 * The readonly validator's SQL judgement: a real parser under several dialects; only statement kinds
 * known to be read-only pass, and SQL that no dialect can parse is refused where an argument is SQL.
 */
import { strict as assert } from 'node:assert';
import { runValidators } from '../../../client/src/kernel/security/validators';
import type { ToolSecurity } from '../../../client/src/kernel/domain/security';
import { SQL_ONLY_WHERE_SQL, SQL_READS, SQL_WRITES } from './sqlCases';

const SECURITY: ToolSecurity = { risk_level: 'safe', permissions_required: [], side_effects: [] };

async function refused(args: Record<string, unknown>, toolName = 'read_query'): Promise<boolean> {
  const outcome = await runValidators(['readonly'], {
    toolName,
    args,
    security: SECURITY,
    description:
      toolName === 'read_query' ? 'Run a read-only SQL query against the database' : 'Notes.',
  });
  return !outcome.ok;
}

describe('readonly: SQL judged by a real parser (issue: ALTER SYSTEM, PRAGMA, SET GLOBAL…)', function () {
  for (const sql of SQL_WRITES)
    it(`refuses ${JSON.stringify(sql)} under a SQL key, a query key of a database tool, and as text`, async () => {
      assert.ok(await refused({ sql }), 'sql');
      assert.ok(await refused({ query: sql }), 'query');
      assert.ok(await refused({ text: sql }, 'notes'), 'text');
    });

  for (const sql of SQL_ONLY_WHERE_SQL)
    it(`refuses ${JSON.stringify(sql)} where an argument is SQL`, async () => {
      assert.ok(await refused({ sql }), 'sql');
      assert.ok(await refused({ query: sql }), 'query');
    });

  for (const sql of SQL_READS)
    it(`lets ${JSON.stringify(sql)} pass`, async () => {
      assert.ok(!(await refused({ sql })), 'sql');
      assert.ok(!(await refused({ query: sql })), 'query');
    });

  it('refuses SQL that no dialect can parse where the argument is SQL, and lets prose pass', async () => {
    assert.ok(await refused({ sql: 'SELEC * FORM users' }));
    assert.ok(await refused({ query: 'SELECT * FROM users WHERE (' }));
    assert.ok(!(await refused({ query: 'users who signed up last week' }, 'search_docs')));
    assert.ok(!(await refused({ text: 'Set up the meeting and comment on the PR' }, 'notes')));
    assert.ok(!(await refused({ text: 'Select the best answer' }, 'notes')));
  });
});
