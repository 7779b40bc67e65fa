/**
 * The sandbox validator against a real shell tool: `@wonderwhy-er/desktop-commander`'s `start_process`
 * runs whatever command line it is given with bash. Each command line of the security review, which
 * deleted directories or wrote start-up files through this very tool, is sent with the call approved;
 * the validator must refuse it before the question (VALIDATION_FAILED, 1010), and the directory and
 * the dotfile must still be there afterwards. The server's HOME is a temporary folder.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KernelError } from '../../client/src/kernel/domain/errors';
import { repoRoot } from '../repoRoot';
import { node, startKernel, textOf, type TestKernel } from './support/kernelHarness';

const desktopCommander = JSON.stringify(
  join(repoRoot(), 'tools/servers/node_modules/@wonderwhy-er/desktop-commander/dist/index.js'),
);

const DOTFILE = '# the original start-up file\n';

/** A zip archive holding one stored file (APPNOTE.TXT §4.3), so `unzip` has something to extract. */
function zipOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  const fileName = Buffer.from(name);
  const common = (header: Buffer, at: number) => {
    header.writeUInt16LE(0, at); // flags
    header.writeUInt16LE(0, at + 2); // stored
    header.writeUInt32LE(0, at + 4); // time and date
    header.writeUInt32LE(~crc >>> 0, at + 8);
    header.writeUInt32LE(data.length, at + 12);
    header.writeUInt32LE(data.length, at + 16);
    header.writeUInt16LE(fileName.length, at + 20);
  };
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  common(local, 6);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  common(central, 8);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(local.length + fileName.length + data.length, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

describe('sandbox validator in front of desktop-commander (real server, approved calls)', function () {
  this.timeout(120_000);
  let t: TestKernel;
  let home: string;
  let victims: string;
  let archives: string;

  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgp-desktop-commander-'));
    home = join(dir, 'home');
    victims = join(dir, 'victims');
    archives = join(dir, 'archives');
    for (const dir of [home, victims, archives]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(archives, '.bashrc'), 'echo owned\n');
    execFileSync('tar', ['-cf', join(archives, 'evil.tar'), '-C', archives, '.bashrc']);
    writeFileSync(join(archives, 'evil.zip'), zipOf('.bashrc', 'echo owned\n'));
    t = await startKernel(
      `[[servers]]\nid = "dc"\ncommand = ${node}\nargs = [${desktopCommander}]\n` +
        `[servers.env]\nHOME = ${JSON.stringify(home)}\n`,
      { dir },
    );
  });
  after(async () => t?.dispose());

  let count = 0;
  /** A fresh directory with a file in it, for one command line to try to delete. */
  function victim(): string {
    const dir = join(victims, `d${++count}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'keep.txt'), 'keep\n');
    return dir;
  }

  function approved(toolName: string, args: Record<string, unknown>) {
    t.operator.toolAnswers = ['once'];
    return t.kernel.call({ serverId: 'dc', toolName, args });
  }

  const startProcess = (command: string) =>
    approved('start_process', { command, timeout_ms: 10_000 });

  async function assertRefused(
    command: string,
    call: (command: string) => Promise<unknown> = startProcess,
  ): Promise<void> {
    const asked = t.operator.count('tool');
    await assert.rejects(
      call(command),
      (e) => (e as KernelError).wireCode === 1010,
      `refused by a validator: ${command}`,
    );
    const [failed] = (await t.ofType('VALIDATION_FAILED')).slice(-1);
    const violations = failed.details.violations as { validator: string; rule: string }[];
    assert.ok(
      violations.some((v) => v.validator === 'sandbox'),
      `the audit names the sandbox validator: ${JSON.stringify(violations)}`,
    );
    assert.equal(t.operator.count('tool'), asked, 'nobody was asked about a refused call');
  }

  it('runs an approved, harmless command (the server really runs what it is sent)', async () => {
    const dir = victim();
    const outcome = await startProcess(`cat ${dir}/keep.txt`);
    assert.match(textOf(outcome.result), /keep/);
  });

  const deletes: [string, (dir: string) => string][] = [
    ['bash -c -- with a quoted rm', (d) => `bash -c -- 'r""m -rf ${d}'`],
    ['a GNU prefix of --recursive', (d) => `rm --rec ${d}`],
    ['a pattern as the program', (d) => `/bin/r? -rf ${d}`],
    ['find -exec sh -c', (d) => `find ${d} -maxdepth 0 -exec sh -c 'r""m -rf "$1"' _ {} \\;`],
    ['bash -c -x with a chain', (d) => `bash -c -x 'true;r""m -rf ${d}'`],
    ['a here-string fed to bash', (d) => `bash <<< 'r""m -rf ${d}'`],
    ['env -S', (d) => `env -S 'r""m -rf ${d}'`],
    ['xargs -a', (d) => `xargs -a /dev/null r""m -rf ${d}`],
    ['a git alias', (d) => `git -c alias.x='!r""m -rf ${d}' x`],
    [
      'tar --checkpoint-action=exec',
      (d) =>
        `tar --checkpoint=1 --checkpoint-action=exec='r""m -rf ${d}' -cf ${archives}/out.tar ${archives}/.bashrc`,
    ],
    ['tar --to-command', (d) => `tar -xf ${archives}/evil.tar --to-command='r""m -rf ${d}'`],
    ['tar -I', (d) => `tar -I 'r""m -rf ${d}' -cf ${archives}/out2.tar ${archives}/.bashrc`],
  ];
  for (const [what, line] of deletes)
    it(`refuses ${what}, and the directory is still there`, async () => {
      const dir = victim();
      await assertRefused(line(dir));
      assert.ok(existsSync(join(dir, 'keep.txt')), `${dir} survived`);
    });

  const writes: [string, string][] = [
    ['sort -o', 'sort -o ~/.bashrc /dev/null'],
    ['curl -o', `curl -s -o ~/.bashrc file://ARCHIVES/.bashrc`],
    ['wget -O', 'wget -q -O ~/.bashrc http://127.0.0.1:9/'],
    ['tar -C ~', 'tar -C ~ -xf ARCHIVES/evil.tar'],
    ['unzip -d ~', 'unzip -o ARCHIVES/evil.zip -d ~'],
    ['a ${HOME:?} path', 'sort -o ${HOME:?}/.bashrc /dev/null'],
    ['a redirection to ${HOME:-…}', 'cat ARCHIVES/.bashrc > ${HOME:-/tmp}/.bashrc'],
  ];
  for (const [what, line] of writes)
    it(`refuses ${what} into the home folder, and the dotfile is unchanged`, async () => {
      writeFileSync(join(home, '.bashrc'), DOTFILE);
      await assertRefused(line.replaceAll('ARCHIVES', archives));
      assert.equal(readFileSync(join(home, '.bashrc'), 'utf8'), DOTFILE);
    });

  it('judges what is typed into a running shell (interact_with_process)', async () => {
    const started = textOf(
      (await approved('start_process', { command: 'bash', timeout_ms: 3_000 })).result,
    );
    const pid = Number(/PID:? *(\d+)/i.exec(started)?.[1]);
    assert.ok(pid > 0, `a shell session started: ${started}`);
    const type = (input: string) =>
      approved('interact_with_process', { pid, input, timeout_ms: 5_000 });
    try {
      const dir = victim();
      await assertRefused(`rm --rec ${dir}`, type);
      await assertRefused(`bash -c -- 'r""m -rf ${dir}'`, type);
      writeFileSync(join(home, '.bashrc'), DOTFILE);
      await assertRefused('sort -o ${HOME:?}/.bashrc /dev/null', type);
      const listing = await type(`ls ${dir}`);
      assert.match(textOf(listing.result), /keep\.txt/, 'the session reads what it is typed');
      assert.ok(existsSync(join(dir, 'keep.txt')));
      assert.equal(readFileSync(join(home, '.bashrc'), 'utf8'), DOTFILE);
    } finally {
      await approved('force_terminate', { pid });
    }
  });
});
