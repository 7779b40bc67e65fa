/**
 * Sandbox checks that need to know which program runs with which arguments (shellSyntax.ts), for
 * command-like arguments only: `rm` with a recursive flag, privilege escalation, `eval`, disk tools,
 * power control, `nc -e`, permission changes, and writes into system paths.
 *
 * Rules decided here:
 * - `rm` is blocked when recursive (`-r`, `-R`, `--recursive`, `-Recurse`, in any flag cluster such as
 *   `-rf` or `-fR`); `rm file.txt` and `rm -f file.txt` pass. On `/`, `~`, `*`, `.`, a top-level or a
 *   system directory it is reported as catastrophic instead.
 * - `chmod`/`chown`/`chgrp` are blocked when recursive on a critical path, or when `chmod` makes a tree
 *   world-writable (`-R 777`, `-R o+w`); `chmod +x build.sh` passes.
 * - Writes into system paths are blocked whatever the program: redirections, `tee`, `cp`/`mv`/`install`/
 *   `ln`/`rsync` destinations, `touch`/`mkdir`/`truncate`, `sed -i`, `dd of=`.
 */
import type { Expanded } from './shellExpand';
import type { ShellCommand } from './shellRead';
import {
  commandStart,
  invocations,
  isCriticalTarget,
  isSystemPath,
  outputRedirects,
  programName,
  type Invocation,
  type Word,
} from './shellSyntax';

export interface Finding {
  rule: string;
  what: string;
  why: string;
  index: number;
  length: number;
}

const PRIVILEGE = new Set(['sudo', 'doas', 'pkexec', 'runas', 'su', 'gsudo']);
const EVALUATORS = new Set(['eval', 'iex', 'invoke-expression']);
const DISK_TOOLS = /^(?:mkfs(?:\..+)?|mke2fs|mkswap|wipefs|fdisk|sfdisk|gdisk|parted|diskpart)$/;
const POWER = new Set([
  'shutdown',
  'reboot',
  'halt',
  'poweroff',
  'stop-computer',
  'restart-computer',
]);
const NETCAT = new Set(['nc', 'ncat', 'netcat']);
const LAST_ARGUMENT_WRITERS = new Set([
  'cp',
  'mv',
  'install',
  'ln',
  'rsync',
  'scp',
  'copy',
  'move',
  'xcopy',
  'robocopy',
]);
const ALL_ARGUMENT_WRITERS = new Set([
  'tee',
  'touch',
  'mkdir',
  'truncate',
  'chattr',
  'set-content',
  'add-content',
  'out-file',
  'new-item',
]);
const WORLD_WRITABLE =
  /^(?:0?[0-7]?[0-7][0-7][2367]|[ugoa]*[ao][ugoa]*[+=][rwxXst]*w[rwxXst]*|[+=][rwxXst]*w[rwxXst]*)$/;

/** The options among the arguments; backslashes dropped, since `-\\rf` is `-rf` to a POSIX shell. */
function flagsOf(args: Word[]): string[] {
  return args
    .filter((a) => a.text.startsWith('-') && a.text.length > 1)
    .map((a) => a.text.replace(/\\/g, ''));
}

function operands(args: Word[]): Word[] {
  return args.filter((a) => !a.text.startsWith('-') || a.text === '-');
}

function recursive(flags: string[]): boolean {
  return flags.some(
    (f) => (/^-[a-zA-Z]*[rR]/.test(f) && !f.startsWith('--')) || /^--?recurs/i.test(f),
  );
}

function finding(
  rule: string,
  what: string,
  why: string,
  at: { index: number; text?: string },
  length = at.text?.length ?? 1,
): Finding {
  return { rule, what, why, index: at.index, length };
}

function checkRemove(call: Invocation): Finding | undefined {
  if (call.name !== 'rm' || !recursive(flagsOf(call.args))) return undefined;
  const critical =
    flagsOf(call.args).includes('--no-preserve-root') ||
    operands(call.args).some((w) => isCriticalTarget(w.text));
  return critical
    ? finding(
        'catastrophic_delete',
        'a recursive delete of /, ~ or a system directory',
        'It destroys the system or the home directory.',
        call,
        2,
      )
    : finding(
        'recursive_delete',
        'a recursive delete',
        'The sandbox does not allow deleting directory trees; delete single files instead.',
        call,
        2,
      );
}

function checkPermissions(call: Invocation): Finding | undefined {
  if (!['chmod', 'chown', 'chgrp'].includes(call.name)) return undefined;
  const targets = operands(call.args);
  const worldWritable =
    call.name === 'chmod' && targets.length > 0 && WORLD_WRITABLE.test(targets[0].text);
  const critical = targets.slice(1).some((w) => isCriticalTarget(w.text));
  const tree = recursive(flagsOf(call.args));
  if (!((tree && (critical || worldWritable)) || (worldWritable && critical))) return undefined;
  return finding(
    'permission_change',
    `a recursive ${call.name}`,
    'Changing permissions or owners of whole trees (or of system paths) is not allowed.',
    call,
    call.name.length,
  );
}

function writeTargets(call: Invocation): Word[] {
  const ops = operands(call.args);
  if (LAST_ARGUMENT_WRITERS.has(call.name)) {
    const t = call.args.findIndex((a) => a.text === '-t' || a.text === '--target-directory');
    return t >= 0 && call.args[t + 1] ? [call.args[t + 1]] : ops.slice(-1);
  }
  if (ALL_ARGUMENT_WRITERS.has(call.name)) return ops;
  if (call.name === 'sed' && flagsOf(call.args).some((f) => /^-[a-zA-Z]*i|^--in-place/.test(f)))
    return ops;
  if (call.name === 'dd')
    return call.args
      .filter((a) => a.text.startsWith('of='))
      .map((a) => ({ ...a, text: a.text.slice(3) }));
  return [];
}

function checkCall(call: Invocation): Finding | undefined {
  const { name, args } = call;
  if (call.wrappers.some((w) => PRIVILEGE.has(w)) || PRIVILEGE.has(name)) {
    return finding(
      'privilege_escalation',
      'privilege escalation (sudo, su, doas…)',
      'Commands run with the permissions the tool was given, never more.',
      call,
      name.length || 4,
    );
  }
  if (EVALUATORS.has(name))
    return finding(
      'eval',
      `\`${name}\``,
      'It runs a string as a new command line, which hides what will run.',
      call,
      name.length,
    );
  if (DISK_TOOLS.test(name) || (name === 'format' && args.some((a) => /^[a-z]:$/i.test(a.text)))) {
    return finding(
      'disk_destroy',
      `a disk tool (${name})`,
      'Formatting or partitioning disks is not allowed.',
      call,
      name.length,
    );
  }
  const halts =
    ['init', 'telinit'].includes(name) && args.some((a) => a.text === '0' || a.text === '6');
  const systemctl =
    name === 'systemctl' &&
    args.some((a) => /^(?:poweroff|reboot|halt|kexec|rescue|emergency)$/.test(a.text));
  const killAll = name === 'kill' && args.some((a) => a.text === '-1');
  if (POWER.has(name) || halts || systemctl || killAll) {
    return finding(
      'system_control',
      `a system shutdown or kill-all (${name})`,
      'Stopping the machine or every process is not allowed.',
      call,
      name.length,
    );
  }
  if (NETCAT.has(name) && args.some((a) => /^-[a-z]*[ec]$|^--(?:sh-|lua-)?exec$/i.test(a.text))) {
    return finding(
      'reverse_shell',
      'netcat with -e/-c',
      'It hands a shell on this machine to a remote host.',
      call,
      name.length,
    );
  }
  return checkRemove(call) ?? checkPermissions(call);
}

const SYSTEM_WRITE = {
  what: 'a write into a system path',
  why: 'System files, devices and shell start-up files are off limits.',
};

/** The findings that depend on the program and its arguments, for one command-like string. */
export function invocationFindings(text: string, masked: string): Finding[] {
  const found: Finding[] = [];
  for (const call of invocations(text, masked)) {
    const hit = checkCall(call);
    if (hit) found.push(hit);
    const target = writeTargets(call).find((w) => isSystemPath(w.text));
    if (target)
      found.push(finding('write_system_path', SYSTEM_WRITE.what, SYSTEM_WRITE.why, target));
  }
  for (const redirect of outputRedirects(text, masked)) {
    if (isSystemPath(redirect.target))
      found.push(
        finding(
          'write_system_path',
          SYSTEM_WRITE.what,
          SYSTEM_WRITE.why,
          redirect,
          redirect.target.length + 2,
        ),
      );
  }
  return found;
}

/** The program a command's words run (after wrappers such as `sudo` and `env`), for shellRead.ts. */
export function programOf(words: Word[]): { at: number; name: string } {
  const { at } = commandStart(words);
  return { at, name: at >= 0 ? programName(words[at].text) : '' };
}

/** The findings for commands read by the shell parser (shellRead.ts), words already expanded. */
export function commandFindings(commands: ShellCommand[]): Finding[] {
  const found: Finding[] = [];
  for (const command of commands) {
    const words: Expanded[] = command.words;
    const { at, wrappers } = commandStart(words);
    const program = at >= 0 ? words[at] : undefined;
    if (program?.unknown) {
      found.push(
        finding(
          'unknown_command',
          'a program named by a variable or a substitution',
          'What it runs is only known when it runs.',
          program,
        ),
      );
      continue;
    }
    const call: Invocation = {
      name: program ? programName(program.text) : '',
      wrappers,
      args: at >= 0 ? words.slice(at + 1) : [],
      index: program?.index ?? command.index,
    };
    const hit = checkCall(call);
    if (hit) found.push(hit);
    else if (call.name === 'rm' && words.slice(at + 1).some((w) => w.unknown))
      found.push(
        finding(
          'recursive_delete',
          'a delete whose arguments are only known when it runs',
          'A variable may hold -r; delete named files instead.',
          call,
          2,
        ),
      );
    const target = writeTargets(call).find((w) => isSystemPath(w.text));
    if (target)
      found.push(finding('write_system_path', SYSTEM_WRITE.what, SYSTEM_WRITE.why, target));
    for (const redirect of command.redirects)
      if (redirect.targets.some(isSystemPath))
        found.push(
          finding('write_system_path', SYSTEM_WRITE.what, SYSTEM_WRITE.why, {
            index: redirect.index,
            text: redirect.targets[0],
          }),
        );
  }
  return found;
}
