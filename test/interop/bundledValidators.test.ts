/**
 * The validators whose parsers ship as bundles of their own (dist/sqlParser.js…), run through the
 * bundled CLI (dist/cli.js) against a real server: the bundle must find and load them.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../repoRoot';

const root = repoRoot();

describe('validators in the bundled CLI (real server)', function () {
  let dir: string;
  let config: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-bundled-validators-'));
    config = join(dir, 'mgp.toml');
    const server = JSON.stringify(join(root, 'test/fixtures/servers/declared-security.js'));
    const security = JSON.stringify(
      JSON.stringify({ risk_level: 'safe', validator: 'readonly', side_effects: [] }),
    );
    const shell = JSON.stringify(
      JSON.stringify({ risk_level: 'moderate', validator: 'sandbox', side_effects: ['process'] }),
    );
    const code = JSON.stringify(
      JSON.stringify({
        risk_level: 'moderate',
        validator: 'code_safety',
        side_effects: [],
        code_safety: { level: 'strict', language: 'javascript' },
      }),
    );
    const standard = (language: string) =>
      JSON.stringify(
        JSON.stringify({
          risk_level: 'moderate',
          validator: 'code_safety',
          side_effects: [],
          code_safety: { level: 'standard', language },
        }),
      );
    const node = JSON.stringify(process.execPath);
    const servers: [string, string][] = [
      ['db', security],
      ['shell', shell],
      ['code', code],
      ['py', standard('python')],
      ['js', standard('javascript')],
    ];
    writeFileSync(
      config,
      servers
        .map(
          ([id, declared]) =>
            `[[servers]]\nid = "${id}"\ncommand = ${node}\nargs = [${server}, "--security", ${declared}]\napproved_tools = ["run_code"]\n`,
        )
        .join('\n'),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const call = (args: object, server = 'db') =>
    spawnSync(
      process.execPath,
      [
        join(root, 'dist/cli.js'),
        'call',
        server,
        'run_code',
        '--config',
        config,
        '--args',
        JSON.stringify(args),
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, XDG_STATE_HOME: join(dir, 'state') },
        timeout: 30000,
      },
    );

  it('readonly: parses SQL with the SQL grammars bundle, refusing a write and passing a read', () => {
    const write = call({ code: 'x', sql: "ALTER SYSTEM SET archive_command = 'x'" });
    assert.equal(write.status, 3, write.stdout + write.stderr);
    assert.match(write.stderr, /1010/);
    const unparsable = call({ code: 'x', sql: 'SELEC * FORM t' });
    assert.match(unparsable.stderr, /no dialect can parse/);
    const read = call({ code: 'x', sql: 'SELECT id FROM users WHERE id = ? ORDER BY id' });
    assert.equal(read.status, 0, read.stdout + read.stderr);
    assert.match(read.stdout, /ran/);
  });

  it('sandbox: parses command lines with the shell grammar bundle (bash -c "{rm,-rf,DIR}" refused)', () => {
    for (const command of ['bash -c "{rm,-rf,/tmp/project}"', 'rm$IFS-rf$IFS/tmp/project']) {
      const refused = call({ code: command }, 'shell');
      assert.equal(refused.status, 3, refused.stdout + refused.stderr);
      assert.match(refused.stderr, /1010/);
    }
    const fine = call({ code: 'git log --oneline -n 5' }, 'shell');
    assert.equal(fine.status, 0, fine.stdout + fine.stderr);
  });

  it('code_safety strict: parses JavaScript with the code parser bundle (getBuiltinModule refused)', () => {
    const refused = call({ code: "process.getBuiltinModule('child_process')" }, 'code');
    assert.equal(refused.status, 3, refused.stdout + refused.stderr);
    assert.match(refused.stdout + refused.stderr, /Name not allowed: 'process'/);
    const fine = call({ code: 'const xs = [1, 2];\nconsole.log(JSON.stringify(xs))' }, 'code');
    assert.equal(fine.status, 0, fine.stdout + fine.stderr);
    assert.match(fine.stdout, /ran/);
  });

  it('the review’s reproductions: Unicode-escaped SQL names, NFKC Python, escaped and computed JavaScript', () => {
    for (const sql of [
      `SELECT U&"dblink_exe\\0063"('dbname=x', 'DROP TABLE users')`,
      `SELECT U&"pg_file_writ\\0065"('/tmp/x', 'y', false)`,
      `SELECT U&"set_confi!0067" UESCAPE '!'('log_statement', 'none', false)`,
    ]) {
      const refused = call({ code: 'x', sql });
      assert.equal(refused.status, 3, `${sql}: ${refused.stdout}${refused.stderr}`);
      assert.match(refused.stderr, /1010/, sql);
    }
    const python = call(
      { code: 'import ｓｕｂｐｒｏｃｅｓｓ\nｓｕｂｐｒｏｃｅｓｓ.run(["id"])' },
      'py',
    );
    assert.equal(python.status, 3, python.stdout + python.stderr);
    for (const js of [
      "\\u0072equire('child_process').execSync('id')",
      "(()=>{})['constr'+'uctor']('return process')().exit()",
    ]) {
      const refused = call({ code: js }, 'js');
      assert.equal(refused.status, 3, `${js}: ${refused.stdout}${refused.stderr}`);
    }
    const fine = call({ code: 'print(sum([1, 2]))' }, 'py');
    assert.equal(fine.status, 0, fine.stdout + fine.stderr);
  });
});
