/**
 * Reads a program's arguments the way its option parser will (POSIX getopt, GNU getopt_long): short
 * options in clusters (`-rf`), a value attached or in the next word (`-ofile`, `-o file`), long
 * options with `=value` or the next word, a unique prefix of a long option standing for it (`--rec` is
 * `--recursive`), `--` ending the options, and options after operands unless the program stops at its
 * first operand. A prefix that fits several long options is read as all of them, so a check that looks
 * for one of them sees it. A spec describes a program's options (shellPrograms.ts).
 */
import { wordFrom, type Expanded } from './shellExpand';

/** How an option takes a value: none, required (attached or the next word), optional (attached only). */
export type Takes = 'none' | 'value' | 'optional';

/** What an option means to the sandbox. */
export type Role =
  /** Deletes or changes a tree (`rm -r`, `chmod -R`). */
  | 'recursive'
  /** Lets `rm` work on `/`. */
  | 'root'
  /** Its value is a file the program writes. */
  | 'output'
  /** Its value is a directory the program writes files into. */
  | 'output_dir'
  /** Its value is a command line a shell runs, or a program with its arguments. */
  | 'line'
  /** The first operand is a command line (`bash -c`). */
  | 'command_operand'
  /** The program reads its commands from standard input (`bash -s`). */
  | 'stdin'
  /** Its value is split into words that come before the operands (`env -S`). */
  | 'split'
  /** Its value is `key=value` (or `key value`) configuration, some of whose keys run commands. */
  | 'config'
  /** Its value is `key=ENVVAR`: a configuration value only known when it runs. */
  | 'config_env'
  /** Its value is a tar checkpoint action (`exec=COMMAND` runs a command). */
  | 'action';

export interface ProgramSpec {
  /** getopt's option string: a letter, `:` after it when it takes a value, `::` for an optional one. */
  short?: string;
  /** Long options and how each takes a value. */
  long?: Record<string, Takes>;
  /** Roles by option, short (`-o`) or long (`--output`). */
  roles?: Record<string, Role>;
  /** Options end at the first operand (the program or subcommand comes next: sudo, env, git, bash). */
  stopAtOperand?: boolean;
  /** Options may also start with `+` (`bash +o posix`), and a lone `-` ends them as `--` does. */
  plus?: boolean;
  /** A first word without a dash is a cluster of short options (`tar xzf a.tar`). */
  oldStyle?: boolean;
}

export interface Option {
  /** The option as written up to its value: `-o`, `--output`, `--out` read as `--output`. */
  names: string[];
  roles: Role[];
  value?: Expanded;
  word: Expanded;
}

export interface ParsedArgs {
  options: Option[];
  operands: Expanded[];
}

function shortTakes(spec: ProgramSpec, letter: string): Takes {
  const at = (spec.short ?? '').indexOf(letter);
  if (at < 0 || letter === ':') return 'none';
  const rest = spec.short!.slice(at + 1);
  return rest.startsWith('::') ? 'optional' : rest.startsWith(':') ? 'value' : 'none';
}

/** The long options a written name stands for: itself when exact, else every option it begins. */
export function longNames(spec: ProgramSpec, name: string): string[] {
  const long = spec.long ?? {};
  if (Object.hasOwn(long, name)) return [name];
  const found = Object.keys(long).filter((option) => option.startsWith(name));
  return found.length ? found : [name];
}

function rolesOf(spec: ProgramSpec, names: string[]): Role[] {
  const roles = spec.roles ?? {};
  return names.flatMap((n) => (Object.hasOwn(roles, n) ? [roles[n]] : []));
}

function readLong(spec: ProgramSpec, args: Expanded[], i: number, out: Option[]): number {
  const word = args[i];
  const body = word.text.slice(2);
  const eq = body.indexOf('=');
  const written = eq >= 0 ? body.slice(0, eq) : body;
  const names = longNames(spec, written);
  const takes = names.map((n) => spec.long?.[n] ?? 'none');
  let value: Expanded | undefined;
  if (eq >= 0) value = wordFrom(word, eq + 3);
  else if (takes.includes('value') && i + 1 < args.length) value = args[++i];
  out.push({
    names: names.map((n) => `--${n}`),
    roles: rolesOf(
      spec,
      names.map((n) => `--${n}`),
    ),
    value,
    word,
  });
  return i;
}

function readCluster(
  spec: ProgramSpec,
  args: Expanded[],
  i: number,
  out: Option[],
  from = 1,
): number {
  const word = args[i];
  for (let j = from; j < word.text.length; j++) {
    const letter = word.text[j];
    const name = `-${letter}`;
    const takes = shortTakes(spec, letter);
    const option: Option = { names: [name], roles: rolesOf(spec, [name]), word };
    out.push(option);
    if (takes === 'none') continue;
    if (j + 1 < word.text.length) option.value = wordFrom(word, j + 1);
    else if (takes === 'value' && i + 1 < args.length) option.value = args[++i];
    break;
  }
  return i;
}

/** `tar xzf a.tar -C dir`: the letters of the first word, each value taken from the words after it. */
function readOldStyle(spec: ProgramSpec, args: Expanded[], out: Option[]): number {
  const word = args[0];
  let next = 1;
  for (const letter of word.text) {
    const name = `-${letter}`;
    const option: Option = { names: [name], roles: rolesOf(spec, [name]), word };
    if (shortTakes(spec, letter) === 'value' && next < args.length) option.value = args[next++];
    out.push(option);
  }
  return next - 1;
}

/** The options and operands of `args` (the words after the program) as `spec`'s program reads them. */
export function parseArgs(spec: ProgramSpec, args: Expanded[]): ParsedArgs {
  const options: Option[] = [];
  const operands: Expanded[] = [];
  let i = 0;
  if (spec.oldStyle && args[0] && !/^[-+]/.test(args[0].text) && args[0].text !== '')
    i = readOldStyle(spec, args, options) + 1;
  for (; i < args.length; i++) {
    const text = args[i].text;
    if (text === '--' || (text === '-' && spec.plus === true)) {
      operands.push(...args.slice(i + 1));
      break;
    }
    const dash = text.length > 1 && (text[0] === '-' || (spec.plus === true && text[0] === '+'));
    if (dash && text.startsWith('--')) i = readLong(spec, args, i, options);
    else if (dash) i = readCluster(spec, args, i, options);
    else if (spec.stopAtOperand) {
      operands.push(...args.slice(i));
      break;
    } else operands.push(args[i]);
  }
  return { options, operands };
}

/** The options of `parsed` that have `role`. */
export function withRole(parsed: ParsedArgs, role: Role): Option[] {
  return parsed.options.filter((o) => o.roles.includes(role));
}
