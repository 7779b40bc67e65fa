/**
 * Property tests of the sandbox validator reading a command line as the programs in it will: each
 * class of the security review's bypasses, generated in many spellings (quoting, option spellings,
 * path forms), must be refused; ordinary commands of the same programs must pass.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { runValidators } from '../../../../client/src/kernel/security/validators';
import type { ToolSecurity } from '../../../../client/src/kernel/domain/security';
import { quotedSomewhere, RUNS, singleQuoted } from './arbitraries';

const SECURITY: ToolSecurity = {
  risk_level: 'dangerous',
  permissions_required: [],
  side_effects: ['process'],
};

async function rules(command: string): Promise<string[]> {
  const outcome = await runValidators(['sandbox'], {
    toolName: 'start_process',
    args: { command },
    security: SECURITY,
  });
  return outcome.violations.map((v) => v.rule);
}

function refusesAll(lines: fc.Arbitrary<string>, numRuns = RUNS): Promise<void> {
  return fc.assert(
    fc.asyncProperty(lines, async (line) => {
      const found = await rules(line);
      assert.ok(found.length > 0, `passed: ${JSON.stringify(line)}`);
    }),
    { numRuns },
  );
}

const DIR = fc.constantFrom('/tmp/project', 'build', 'node_modules', '"/tmp/a b"', '~/work');

/** `rm -r DIR` with each word quoted somewhere, and the recursive flag spelled any way rm reads it. */
const RECURSIVE_FLAG = fc.oneof(
  fc.constantFrom('-r', '-R', '-rf', '-fr', '-Rf', '-rv', '--recursive'),
  fc.integer({ min: 1, max: 9 }).map((n) => `--${'recursive'.slice(0, n)}`),
);
const RM_LINE = fc
  .tuple(quotedSomewhere('rm'), RECURSIVE_FLAG, DIR, fc.boolean())
  .map(([rm, flag, dir, after]) => (after ? `${rm} ${dir} ${flag}` : `${rm} ${flag} ${dir}`));

/** Options a shell takes before its command string: `-c` given anywhere among them. */
const SHELL_WITH_C = fc.constantFrom(
  'bash -c',
  'bash -c --',
  'bash -c -x',
  'bash -x -c',
  'bash -ec',
  'sh -c -e --',
  'bash -o posix -c',
  'bash +o posix -c',
  'bash --norc -c',
  'dash -c -',
  '/bin/bash -lc',
  'zsh -c -x --',
);

describe('sandbox: reading what the program will read (properties)', function () {
  this.timeout(300_000);

  it('refuses rm -r with its name quoted and concatenated, and --rec prefixes of --recursive', () =>
    refusesAll(RM_LINE));

  it('refuses the command string of a shell, after any options, `--` and `-x` included', () =>
    refusesAll(
      fc
        .tuple(SHELL_WITH_C, RM_LINE, fc.constantFrom('', ' _', ' x y'))
        .map(([shell, line, rest]) => `${shell} ${singleQuoted(line)}${rest}`),
    ));

  it('refuses a chain in a shell command string that comes after options', () =>
    refusesAll(
      SHELL_WITH_C.map((shell) => `${shell} 'id;ls'`),
      50,
    ));

  it('refuses a program word that is a pattern', () =>
    refusesAll(
      fc
        .tuple(
          fc.constantFrom('/bin/r?', '/bin/r*', '/usr/bin/[r]m', 'r?', '/bin/?m', '/*/rm'),
          fc.constantFrom('-rf', '-r', '--help', 'file.txt'),
          DIR,
        )
        .map(([program, flag, dir]) => `${program} ${flag} ${dir}`),
      100,
    ));

  it('refuses what find -exec/-execdir/-ok/-okdir runs, to its ; or +', () =>
    refusesAll(
      fc
        .tuple(
          fc.constantFrom('-exec', '-execdir', '-ok', '-okdir'),
          fc.oneof(
            RM_LINE.map((line) => `sh -c ${singleQuoted(line)} _ {}`),
            fc.constant(`sh -c 'rm -rf "$1"' _ {}`),
            fc.constant('bash -c -- \'r""m -rf "$0"\' {}'),
            fc.constant('rm -rf {}'),
            fc.constant('rm --rec {}'),
          ),
          fc.constantFrom('\\;', "';'", '";"', '+'),
        )
        .map(([exec, command, end]) => `find /tmp/d -type d ${exec} ${command} ${end}`),
    ));

  it('refuses env -S / --split-string and xargs running a delete', () =>
    refusesAll(
      fc.oneof(
        fc
          .tuple(
            fc.constantFrom('-S ', '-S', '--split-string=', '--split-string ', '-iS '),
            RM_LINE,
          )
          .map(([option, line]) => `env ${option}${singleQuoted(line)}`),
        fc
          .tuple(
            fc.constantFrom('', '-0 ', '-a /dev/null ', '-I {} ', '-P 2 ', '--arg-file=x '),
            RM_LINE,
          )
          .map(([options, line]) => `xargs ${options}${line}`),
        fc
          .tuple(
            fc.constantFrom('', '-a /dev/null ', '-r '),
            fc.constantFrom('rm', 'r""m', '/bin/rm'),
          )
          .map(([options, rm]) => `xargs ${options}${rm}`),
      ),
    ));

  it('refuses here-strings and here-documents fed to a shell', () =>
    refusesAll(
      fc
        .tuple(fc.constantFrom('bash', 'sh', 'bash -s', 'dash -x', 'zsh'), RM_LINE, fc.nat(3))
        .map(([shell, line, form]) =>
          form === 0
            ? `${shell} <<< ${singleQuoted(line)}`
            : form === 1
              ? `${shell} <<<"${line.replace(/(["\\$`])/g, '\\$1')}"`
              : form === 2
                ? `${shell} <<'EOF'\n${line}\nEOF`
                : `${shell} <<EOF\n${line}\nEOF`,
        ),
    ));

  it('refuses commands git runs from -c configuration (alias.*=!…, core.pager…)', () =>
    refusesAll(
      fc
        .tuple(
          fc.constantFrom(
            'alias.x=!',
            'ALIAS.x=!',
            'alias.st=!',
            'core.pager=',
            'core.sshCommand=',
          ),
          fc.constantFrom('-c ', '-c'),
          RM_LINE,
        )
        .map(([key, option, line]) => `git ${option}${singleQuoted(key + line)} x`),
    ));

  it('refuses a git command-running key whose value comes from the environment', async () => {
    assert.ok((await rules('git --config-env=core.pager=EVIL log')).length > 0);
    assert.ok((await rules('git --config-env alias.x=EVIL x')).length > 0);
  });

  it('refuses commands tar runs (checkpoint actions, --to-command, compress programs)', () =>
    refusesAll(
      fc
        .tuple(
          fc.constantFrom(
            '--checkpoint-action=exec=',
            '--checkpoint-act=exec=',
            '--to-command=',
            '--to-c=',
            '--use-compress-program=',
            '--use-compress-prog=',
            '-I ',
            '-I',
            '--info-script=',
          ),
          RM_LINE,
          fc.constantFrom('-cf /tmp/a.tar x', '-xf a.tar', 'xf a.tar'),
        )
        .map(([option, line, rest]) =>
          rest.startsWith('-')
            ? `tar ${option}${singleQuoted(line)} ${rest}`
            : `tar ${rest} ${option}${singleQuoted(line)}`,
        ),
    ));

  const DOTFILE = fc.constantFrom(
    '~/.bashrc',
    '$HOME/.bashrc',
    '${HOME}/.profile',
    '${HOME:?}/.bashrc',
    '"${HOME:?}"/.zshrc',
    '${HOME:-/tmp}/.bashrc',
    '${HOME?}/.ssh/authorized_keys',
    '/home/alice/.bashrc',
    '~/.ssh/authorized_keys',
    '"$HOME/.bashrc"',
    '$UNSET/.bashrc',
    '${UNSET:-~/.bashrc}',
  );
  const HOME_DIR = fc.constantFrom(
    '~',
    '~/',
    '$HOME',
    '"$HOME"',
    '${HOME:?}',
    '${HOME:=x}',
    '/',
    '/home/alice',
    '~/.config',
  );

  it('refuses output options and redirections that write a dotfile, however the path is spelled', () =>
    refusesAll(
      fc
        .tuple(
          fc.constantFrom(
            'sort -o P in.txt',
            'sort --output=P in.txt',
            'sort --outp P in.txt',
            'sort in.txt -oP',
            'curl -o P https://example.com/x',
            'curl -sSLo P https://example.com/x',
            'curl --output P https://example.com/x',
            'wget -O P https://example.com/x',
            'wget --output-document=P https://example.com/x',
            'wget -qO P https://example.com/x',
            'echo x > P',
            'echo x >> P',
            'tee -a P',
            'cp evil P',
            'time -o P ls',
            'some-tool --output P',
          ),
          DOTFILE,
        )
        .map(([template, path]) => template.replace('P', path)),
    ));

  it('refuses output directories that hold the home folder or system paths', () =>
    refusesAll(
      fc
        .tuple(
          fc.constantFrom(
            'tar -C D -xf a.tar',
            'tar xf a.tar -C D',
            'tar --directory=D -xf a.tar',
            'tar --dir D -xf a.tar',
            'unzip a.zip -d D',
            'unzip -o -d D a.zip',
            'wget -P D https://example.com/x',
            'curl --output-dir D -O https://example.com/x',
            'cp .bashrc D',
            'cp -t D .profile',
          ),
          HOME_DIR,
        )
        // A copy into `/` or `~/.config` writes `/.bashrc` or `~/.config/.bashrc`: no start-up file.
        .filter(([template, dir]) => !template.startsWith('cp') || !/^\/$|\.config$/.test(dir))
        .map(([template, dir]) => template.replace('D', dir)),
    ));

  const ORDINARY = fc.constantFrom(
    'ls -la',
    'git status',
    'git -C ~/project status',
    'git -c user.name=me commit -m "fix: a; b"',
    'rm build/tmp.o',
    'rm -f build/app.js',
    'find . -name "*.ts" -exec wc -l {} \\;',
    'find src -type f -execdir grep -n TODO {} +',
    'sort -o out.txt in.txt',
    'sort --output=sorted.txt -k2 data.txt',
    'curl -fsSL https://example.com/install.sh -o install.sh',
    'wget -O page.html https://example.com/',
    'tar -xzf a.tar.gz -C build',
    'tar czf release.tgz dist',
    'unzip -o a.zip -d vendor',
    'bash -c "ls -la"',
    "bash -c -- 'npm test'",
    'sh -ec "make all"',
    'bash <<< "echo hi"',
    'env -S "npm test"',
    'env FOO=1 npm run build',
    'timeout 5 npm test',
    'xargs -a list.txt echo',
    'echo hi > $LOG',
    'cat <<X > notes.txt\nhello\nX',
    'cp -r src/ backup/',
    'ls -d ~/.ssh',
  );

  it('lets ordinary commands of the same programs pass', () =>
    fc.assert(
      fc.asyncProperty(ORDINARY, async (line) =>
        assert.deepEqual(await rules(line), [], JSON.stringify(line)),
      ),
      { numRuns: 100 },
    ));
});
