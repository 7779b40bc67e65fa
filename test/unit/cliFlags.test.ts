import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeFlags,
  oneOf,
  parseCommandLine,
  UsageError,
  wholeNumber,
} from '../../client/src/cli/flags';
import { runCli } from '../../client/src/cli/main';

const FLAGS = {
  args: { type: 'string', value: 'JSON' },
  lines: { type: 'string', value: 'N', short: 'n' },
  json: { type: 'boolean' },
} as const;

function usageError(run: () => unknown, pattern: RegExp): void {
  assert.throws(run, (error) => error instanceof UsageError && pattern.test(error.message));
}

describe('CLI flags, parsed once per command', () => {
  it('reads values, switches, short flags, --name=value and positionals', () => {
    const line = parseCommandLine(
      'mgp x',
      ['a', '--args', '{"k":1}', '-n', '3', '--json', 'b', '--lines=4'],
      FLAGS,
    );
    assert.deepEqual(line.positionals, ['a', 'b']);
    assert.deepEqual({ ...line.values }, { args: '{"k":1}', lines: '4', json: true });
    assert.equal(line.help, false);
  });

  it('takes what follows -- as positionals, even when it looks like a flag', () => {
    const line = parseCommandLine('mgp x', ['--json', '--', '--not-a-flag'], FLAGS);
    assert.deepEqual(line.positionals, ['--not-a-flag']);
    assert.equal(line.values.json, true);
  });

  it("refuses a flag the command does not take, naming the command's flags", () => {
    usageError(
      () => parseCommandLine('mgp x', ['--jsn'], FLAGS),
      /^unknown option --jsn; mgp x takes --args JSON, -n\/--lines N, --json$/,
    );
    usageError(() => parseCommandLine('mgp x', ['-q'], FLAGS), /^unknown option -q; mgp x takes/);
    usageError(
      () => parseCommandLine('mgp y', ['--json'], {}),
      /^unknown option --json; mgp y takes no flags$/,
    );
  });

  it('refuses a flag without its value, and a value given to a switch', () => {
    usageError(
      () => parseCommandLine('mgp x', ['--args'], FLAGS),
      /--args.*argument missing; mgp x takes --args JSON/,
    );
    usageError(() => parseCommandLine('mgp x', ['--json=yes'], FLAGS), /--json.*; mgp x takes/);
  });

  it('answers --help and -h before judging the other flags', () => {
    assert.equal(parseCommandLine('mgp x', ['--help', '--args'], FLAGS).help, true);
    assert.equal(parseCommandLine('mgp x', ['-h'], FLAGS).help, true);
  });

  it('reads a choice and a whole number, or says what they take', () => {
    assert.equal(oneOf('format', 'csv', ['jsonl', 'csv'] as const), 'csv');
    assert.equal(oneOf('format', undefined, ['jsonl', 'csv'] as const), undefined);
    usageError(
      () => oneOf('format', 'xml', ['jsonl', 'csv'] as const),
      /^--format takes jsonl or csv, not "xml"$/,
    );
    assert.equal(wholeNumber('max', '7', 5, 1), 7);
    assert.equal(wholeNumber('max', undefined, 5, 1), 5);
    for (const bad of ['0', '2.5', 'many', ''])
      usageError(() => wholeNumber('max', bad, 5, 1), /^--max takes a whole number of at least 1/);
  });

  it('describes flags as a person types them', () => {
    assert.equal(describeFlags(FLAGS), '--args JSON, -n/--lines N, --json');
    assert.equal(describeFlags({}), 'no flags');
  });
});

describe('mgp commands refuse flags they do not take', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mgp-flags-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCli(args, {
      out: (t) => (out += `${t}\n`),
      err: (t) => (err += `${t}\n`),
    });
    return { code, out, err };
  }

  it('exits 2 before starting anything, and names the flags of that command', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['servers', '--cwd', dir, '--verbose'],
        /^mgp servers: unknown option --verbose; mgp servers takes --json, --config FILE, --cwd DIR\n$/,
      ],
      [
        ['tools', '--cwd', dir, '--stream'],
        /^mgp tools: unknown option --stream; mgp tools takes --server ID, --kernel-tools, --json, --config FILE/,
      ],
      [
        ['call', 'a', 'b', '--cwd', dir, '--kernel-tools'],
        /^mgp call: unknown option --kernel-tools; mgp call takes --args JSON, --stream, --task, --json/,
      ],
      [
        ['check', '--fix', join(dir, 'mgp.toml')],
        /^mgp check: unknown option --fix; mgp check takes --json\n$/,
      ],
      [
        ['discover', 'read a file', '--cwd', dir, '--limit', '3'],
        /^mgp discover: unknown option --limit; mgp discover takes --strategy keyword\|semantic\|category, --max N/,
      ],
      [
        ['access', 'grant', '--cwd', dir, '--agnet', 'x'],
        /^mgp access: unknown option --agnet; mgp access takes --agent ID/,
      ],
      [
        ['auth', 'status', '--cwd', dir, '--server', 'x'],
        /^mgp auth: unknown option --server; mgp auth status takes --json, --config FILE, --cwd DIR\n$/,
      ],
      [
        ['audit', 'verify', '--dir', dir, '--follow'],
        /^mgp audit verify: unknown option --follow; mgp audit verify takes --expect-head HASH, --json, --dir DIR, --cwd DIR\n/,
      ],
    ];
    for (const [args, pattern] of cases) {
      const { code, err } = await run(args);
      assert.equal(code, 2, args.join(' '));
      assert.match(err, pattern, args.join(' '));
    }
  });

  it('exits 2 on a missing value, a bad choice or number, or an extra argument', async () => {
    const cases: [string[], RegExp][] = [
      [['call', 'a', 'b', '--cwd', dir, '--args'], /^mgp call: .*--args.*argument missing/],
      [['call', 'a', 'b', 'c', '--cwd', dir], /^mgp call: unexpected argument "c"/],
      [
        ['call', 'a', 'b', '--cwd', dir, '--approve', 'always'],
        /^mgp call: --approve takes once or session, not "always"/,
      ],
      [
        ['discover', 'q', '--cwd', dir, '--max', '0'],
        /^mgp discover: --max takes a whole number of at least 1, not "0"/,
      ],
      [
        ['events', '--cwd', dir, '--min-severity', 'loud'],
        /^mgp events: --min-severity takes info or warning or error/,
      ],
      [
        ['access', 'grant', '--cwd', dir, '--agent', 'a', '--server', 's', '--permission', 'maybe'],
        /^mgp access: --permission takes allow or deny/,
      ],
      [['servers', 'extra', '--cwd', dir], /^mgp servers: unexpected argument "extra"/],
      [
        ['featuresets', 'enable', 'alerts.*', '--cwd', dir],
        /^mgp featuresets: .*name the --server/,
      ],
      [
        ['checkpoints', 'rollback', 'chk_1', '--cwd', dir, '--server', 's'],
        /^mgp checkpoints: .*name the --set/,
      ],
      [['channels', 'read', '--cwd', dir], /^mgp channels: channels \[list\] \| read CHANNEL/],
      [
        ['channels', 'read', 'c', '--cwd', dir, '--server', 's', '--wait', 'soon'],
        /^mgp channels: --wait takes a whole number/,
      ],
      [['tools', '--cwd', dir, '--server'], /^mgp tools: .*--server.*argument missing/],
    ];
    for (const [args, pattern] of cases) {
      const { code, err } = await run(args);
      assert.equal(code, 2, args.join(' '));
      assert.match(err, pattern, args.join(' '));
    }
  });

  it('prints usage for --help on a command and exits 0', async () => {
    for (const command of ['tools', 'call', 'check', 'agent']) {
      const { code, out } = await run([command, '--help']);
      assert.equal(code, 0, command);
      assert.match(out, /^mgp \S+: the MGP Kernel, headless/, command);
    }
  });
});
