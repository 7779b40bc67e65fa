/**
 * Sandbox checks that need to know which program runs with which arguments (shellSyntax.ts), for
 * command-like arguments only: `rm` with a recursive flag, privilege escalation, `eval`, disk tools,
 * power control, `nc -e`, permission changes, and writes into system paths.
 *
 * Rules decided here:
 * - `rm` is blocked when recursive as rm reads its options (`-r`, `-R`, `--recursive` or a prefix such as
 *   `--rec`, in any flag cluster such as `-rf` or `-fR`; `-Recurse`); `rm file.txt` and `rm -f file.txt`
 *   pass. A program word that is a variable, a substitution or a pattern (`/bin/r? -rf`) is refused. On `/`, `~`, `*`, `.`, a top-level or a
 *   system directory it is reported as catastrophic instead.
 * - `chmod`/`chown`/`chgrp` are blocked when recursive on a critical path, or when `chmod` makes a tree
 *   world-writable (`-R 777`, `-R o+w`); `chmod +x build.sh` passes.
 * - Writes into system paths are blocked whatever the program: redirections and the targets of
 *   shellTargets.ts (output options, copy destinations, `tee`, `sed -i`, `dd of=`…).
 */
import type { Expanded } from './shellExpand';
import { parseArgs, withRole, type Role } from './shellOptions';
import { PROGRAMS } from './shellPrograms';
import type { ShellCommand } from './shellRead';
import {
  commandStart,
  isCriticalTarget,
  isSystemPath,
  programName,
  type Invocation,
  type Word,
} from './shellSyntax';
import { writeTargets, writesSystemPath } from './shellTargets';

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

/**
 * Whether `call` works on whole trees: its `recursive` options as its program reads them (`--rec` is
 * `--recursive` to GNU rm), or, for programs not described, a flag that looks recursive.
 */
function recursive(call: Invocation, role: Role = 'recursive'): boolean {
  const spec = PROGRAMS[call.name];
  const args = call.args.map((a) => ({ unknown: false, ...a, text: a.text.replace(/\\/g, '') }));
  if (spec && withRole(parseArgs(spec, args), role).length) return true;
  return (
    role === 'recursive' &&
    flagsOf(call.args).some(
      (f) => (/^-[a-zA-Z]*[rR]/.test(f) && !f.startsWith('--')) || /^--?recurs/i.test(f),
    )
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
  if (call.name !== 'rm' || !recursive(call)) return undefined;
  const critical =
    recursive(call, 'root') || operands(call.args).some((w) => isCriticalTarget(w.text));
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
  const tree = recursive(call);
  if (!((tree && (critical || worldWritable)) || (worldWritable && critical))) return undefined;
  return finding(
    'permission_change',
    `a recursive ${call.name}`,
    'Changing permissions or owners of whole trees (or of system paths) is not allowed.',
    call,
    call.name.length,
  );
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

const UNKNOWN_PROGRAM = {
  what: 'a program named by a variable, a substitution or a pattern',
  why: 'What it runs is only known when it runs.',
};

/** The program word and the call it makes: the first word, and the program after any wrappers. */
function callsOf(words: Expanded[]): { program: Expanded; call: Invocation }[] {
  const first = words.findIndex((w) => w.quoted || !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text));
  const { at, wrappers } = commandStart(words);
  const starts = [...new Set([first, at])].filter((i) => i >= 0);
  return starts.map((i) => ({
    program: words[i],
    call: {
      name: programName(words[i].text),
      wrappers: i === at ? wrappers : [],
      args: words.slice(i + 1),
      index: words[i].index,
    },
  }));
}

function callFindings(program: Expanded, call: Invocation): Finding[] {
  if (program.unknown || program.glob)
    return [finding('unknown_command', UNKNOWN_PROGRAM.what, UNKNOWN_PROGRAM.why, program)];
  const found: Finding[] = [];
  const hit = checkCall(call);
  if (hit) found.push(hit);
  else if (call.name === 'rm' && (call.args as Expanded[]).some((w) => w.unknown || w.glob))
    found.push(
      finding(
        'recursive_delete',
        'a delete whose arguments are only known when it runs',
        'A variable or a pattern may hold -r; delete named files instead.',
        call,
        2,
      ),
    );
  const target = writeTargets(call.name, call.args as Expanded[]).find(writesSystemPath);
  if (target)
    found.push(finding('write_system_path', SYSTEM_WRITE.what, SYSTEM_WRITE.why, target.word));
  return found;
}

/** The findings for commands read by the shell parser (shellRead.ts), words already expanded. */
export function commandFindings(commands: ShellCommand[]): Finding[] {
  const found: Finding[] = [];
  for (const command of commands) {
    for (const { program, call } of callsOf(command.words))
      found.push(...callFindings(program, call));
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
