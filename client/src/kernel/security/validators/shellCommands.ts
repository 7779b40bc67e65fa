/**
 * The commands a command runs in turn, found the way each program reads its arguments
 * (shellOptions.ts, shellPrograms.ts), and read again until none is left:
 * - command lines: `bash -c` (the first operand after the options, `--` and `-x` included), `su -c`,
 *   `eval`, a here-string or here-document fed to a shell, `env -S`, `watch`, `git -c alias.x=!…` and
 *   git's other command-running keys, `ssh -o ProxyCommand=…`, `tar --checkpoint-action=exec=…`,
 *   `--to-command`, `--use-compress-program`/`-I`, `rsync -e`, `sort --compress-program`…;
 * - argument vectors: the command after `sudo`, `env`, `xargs` (with the words it reads appended,
 *   unknown), `timeout`, `nice`…, and each `find -exec/-execdir/-ok/-okdir … ;` (`{}` unknown).
 * Command lines nest at most MAX_NESTING deep; argument vectors, which only ever get shorter, at most
 * MAX_UNWRAPS times per line.
 */
import type { Expanded } from './shellExpand';
import { type ParsedArgs, parseArgs, withRole } from './shellOptions';
import { PROGRAMS, RUNNERS } from './shellPrograms';
import { readShell, shellIssue, type ShellCommand, type ShellReading } from './shellRead';
import { programName } from './shellSyntax';

export const MAX_NESTING = 4;
const MAX_UNWRAPS = 32;

export type Nested = { line: Expanded } | { argv: Expanded[]; stdin?: Expanded };

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const SHELL_NAMES = /^(?:(?:ba|da|z|k|a|mk|po|fi)?sh|yash)$/;

/** Configuration keys whose values git runs as commands (git-config(1)); `alias.*` only after `!`. */
const GIT_COMMAND_KEYS =
  /^(?:core\.(?:pager|editor|sshcommand|fsmonitor|askpass)|sequence\.editor|diff\.external|pager\..+|credential(?:\..+)?\.helper|gpg(?:\..+)?\.program|uploadpack\.packobjectshook|(?:filter|merge|diff)\..+\.(?:clean|smudge|process|driver|command|textconv)|alias\..+)$/i;
/** ssh_config(5) keys whose values run as commands. */
const SSH_COMMAND_KEYS = /^(?:proxycommand|localcommand|knownhostscommand|remotecommand)$/i;

const part = (word: Expanded, text: string): Expanded => ({ ...word, text });

/** A word as a shell line spells it: quoted when known, as written when only known at run time. */
function spelled(word: Expanded): string {
  return word.unknown ? word.text : `'${word.text.replace(/'/g, `'\\''`)}'`;
}

function joined(words: Expanded[]): Expanded {
  return { ...words[0], text: words.map((w) => w.text).join(' '), quoted: true };
}

/** `key=value` (or `key value`, as ssh also takes it), split at the first `=` or blank. */
function keyValue(text: string): [string, string] {
  const at = text.search(/[=\s]/);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1).trimStart()];
}

function configLine(program: string, value: Expanded): Nested | undefined {
  const [key, setting] = keyValue(value.text);
  if (program === 'ssh')
    return SSH_COMMAND_KEYS.test(key) ? { line: part(value, setting) } : undefined;
  if (program !== 'git' || !GIT_COMMAND_KEYS.test(key)) return undefined;
  const bang = setting.startsWith('!');
  if (/^alias\./i.test(key) && !bang) return undefined;
  return { line: part(value, bang ? setting.slice(1) : setting) };
}

/** `find … -exec CMD … ;` (or `+`): each command, with the file names (`{}`) unknown. */
function findCommands(args: Expanded[]): Nested[] {
  const found: Nested[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[i].text)) continue;
    const argv: Expanded[] = [];
    for (i++; i < args.length; i++) {
      const text = args[i].text;
      if (text === ';' || (text === '+' && args[i - 1]?.text === '{}')) break;
      argv.push(text.includes('{}') ? { ...args[i], unknown: true } : args[i]);
    }
    if (argv.length) found.push({ argv });
  }
  return found;
}

function runnerCommands(name: string, args: Expanded[], stdin?: Expanded): Nested[] {
  const runner = RUNNERS[name];
  const parsed = parseArgs(runner.spec, args);
  let operands = parsed.operands;
  while (name === 'env' && operands[0] && ASSIGNMENT.test(operands[0].text))
    operands = operands.slice(1);
  const rest = operands.slice(runner.skip ?? 0);
  const split = withRole(parsed, 'split').filter((o) => o.value);
  if (split.length) {
    const text = [...split.map((o) => o.value!.text), ...rest.map(spelled)].join(' ');
    return [{ line: part(split[0].value!, text) }];
  }
  if (!rest.length) return [];
  if (!runner.unknownTail) return [{ argv: rest, stdin }];
  const tail: Expanded = { ...rest[rest.length - 1], text: '{input}', unknown: true };
  return [{ argv: [...rest, tail], stdin }];
}

function shellCommands(parsed: ParsedArgs, stdin?: Expanded): Nested[] {
  if (withRole(parsed, 'command_operand').length)
    return parsed.operands[0] ? [{ line: parsed.operands[0] }] : [];
  const readsStdin = withRole(parsed, 'stdin').length > 0 || parsed.operands.length === 0;
  return readsStdin && stdin ? [{ line: stdin }] : [];
}

function optionCommands(name: string, parsed: ParsedArgs): Nested[] {
  const found: Nested[] = [];
  for (const o of withRole(parsed, 'line')) if (o.value) found.push({ line: o.value });
  for (const o of withRole(parsed, 'action'))
    if (o.value?.text.startsWith('exec='))
      found.push({ line: part(o.value, o.value.text.slice(5)) });
  for (const o of withRole(parsed, 'config')) {
    const line = o.value && configLine(name, o.value);
    if (line) found.push(line);
  }
  for (const o of withRole(parsed, 'config_env')) {
    const [key] = keyValue(o.value?.text ?? '');
    // The value comes from the environment: what it runs is only known when it runs.
    if (o.value && GIT_COMMAND_KEYS.test(key))
      found.push({ argv: [{ ...o.value, unknown: true }] });
  }
  return found;
}

/** What one command runs in turn. */
export function runsInTurn(command: ShellCommand): Nested[] {
  const { words } = command;
  let at = 0;
  while (at < words.length && !words[at].quoted && ASSIGNMENT.test(words[at].text)) at++;
  const program = words[at];
  if (!program || program.unknown || program.glob) return [];
  const name = programName(program.text);
  const args = words.slice(at + 1);
  if (name === 'eval') return args.length ? [{ line: joined(args) }] : [];
  if (Object.hasOwn(RUNNERS, name)) return runnerCommands(name, args, command.stdin);
  if (name === 'find') return findCommands(args);
  if (!Object.hasOwn(PROGRAMS, name)) return [];
  const parsed = parseArgs(PROGRAMS[name], args);
  // watch runs its operands, joined, with `sh -c` (`-x`: as they are).
  if (name === 'watch' && parsed.operands.length)
    return parsed.options.some((o) => o.names.includes('-x') || o.names.includes('--exec'))
      ? [{ argv: parsed.operands }]
      : [{ line: joined(parsed.operands) }];
  const found = optionCommands(name, parsed);
  if (SHELL_NAMES.test(name)) found.push(...shellCommands(parsed, command.stdin));
  return found;
}

async function expandNested(reading: ShellReading, depth: number): Promise<ShellReading> {
  const queue = [...reading.commands];
  let unwraps = 0;
  for (let command = queue.shift(); command; command = queue.shift()) {
    for (const nested of runsInTurn(command)) {
      if ('argv' in nested) {
        const at = { index: nested.argv[0].index, length: 1 };
        if (++unwraps > MAX_UNWRAPS) {
          reading.issues.push(shellIssue('nesting', at));
          continue;
        }
        const inner = { words: nested.argv, redirects: [], index: at.index, stdin: nested.stdin };
        reading.commands.push(inner);
        queue.push(inner);
      } else if (depth + 1 >= MAX_NESTING) {
        const { index, text } = nested.line;
        reading.issues.push(shellIssue('nesting', { index, length: text.length }));
      } else {
        const inner = await readCommands(nested.line.text, nested.line.index, depth + 1);
        reading.commands.push(...inner.commands);
        reading.issues.push(...inner.issues);
      }
    }
  }
  return reading;
}

/**
 * Every command a command line runs: its own (`read` when already read, else parsed from `text`)
 * and, recursively, those they run in turn.
 */
export async function readCommands(
  text: string,
  offset = 0,
  depth = 0,
  read?: ShellReading,
): Promise<ShellReading> {
  return expandNested(read ?? (await readShell(text, offset)), depth);
}
