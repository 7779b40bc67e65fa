/**
 * Where a command writes, as its program reads its arguments (shellOptions.ts): the values of its
 * output options (`sort -o`, `curl -o`/`--output`, `wget -O`/`-P`, `tar -C`, `unzip -d`, `time -o`,
 * and for programs not described, `-o`, `-O`, `--output`, `-C`, `-d`, `--directory`), the destination
 * of `cp`/`mv`/`install`/`ln`/`rsync` (with each source's name under it, since `cp .bashrc ~` writes
 * `~/.bashrc`), every operand of `tee`/`touch`/`mkdir`/`truncate`, `sed -i`'s files and `dd of=`.
 * A file target is judged like a redirection's; a directory target by whether anything written under
 * it can land on a system path (`tar -C ~`, `unzip -d /`). A target with a piece only known at run
 * time is judged as each value that piece may take (shellExpand.ts `worst`).
 */
import { wordFrom, type Expanded } from './shellExpand';
import { parseArgs, withRole, type ParsedArgs } from './shellOptions';
import { specOf } from './shellPrograms';
import { isSystemPath } from './shellSyntax';

export interface WriteTarget {
  word: Expanded;
  /** A directory the program writes files into, rather than a file. */
  dir: boolean;
}

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
/** wgetrc commands (`wget -e key=value`) that name a file or a directory it writes. */
const WGETRC_OUTPUT = /^(?:outputdocument|logfile|savecookies)$/;
const WGETRC_DIRECTORY = /^dirprefix$/;
const TAR_WRITES = /^(?:-[Acru]|--(?:create|append|update|catenate|concatenate))$/;

const file = (word: Expanded): WriteTarget => ({ word, dir: false });
const directory = (word: Expanded): WriteTarget => ({ word, dir: true });

/** `dir` + the last part of `source`'s path: where a copy into a directory lands. */
function under(dir: Expanded, source: Expanded): WriteTarget {
  if (source.unknown || source.glob) return directory(dir);
  const name = source.text.replace(/[\\/]+$/, '').replace(/^.*[\\/]/, '');
  const worst = dir.worst?.map((d) => `${d.replace(/[\\/]+$/, '')}/${name}`);
  return file({ ...dir, text: `${dir.text.replace(/[\\/]+$/, '')}/${name}`, worst });
}

function copyTargets(parsed: ParsedArgs): WriteTarget[] {
  const into = withRole(parsed, 'output_dir').flatMap((o) => (o.value ? [o.value] : []));
  const sources = into.length ? parsed.operands : parsed.operands.slice(0, -1);
  const destinations = into.length ? into : parsed.operands.slice(-1);
  return destinations.flatMap((d) => [file(d), ...sources.map((s) => under(d, s))]);
}

function optionTargets(name: string, parsed: ParsedArgs): WriteTarget[] {
  const found: WriteTarget[] = [];
  for (const o of withRole(parsed, 'output')) if (o.value) found.push(file(o.value));
  for (const o of withRole(parsed, 'output_dir')) if (o.value) found.push(directory(o.value));
  if (name === 'wget')
    for (const o of withRole(parsed, 'config')) {
      if (!o.value) continue;
      const eq = o.value.text.indexOf('=');
      const setting = wordFrom(o.value, eq + 1);
      const normal = o.value.text.slice(0, Math.max(eq, 0)).toLowerCase().replace(/[_-]/g, '');
      if (WGETRC_OUTPUT.test(normal)) found.push(file(setting));
      else if (WGETRC_DIRECTORY.test(normal)) found.push(directory(setting));
    }
  if (name === 'tar' && parsed.options.some((o) => o.names.some((n) => TAR_WRITES.test(n))))
    for (const o of parsed.options)
      if (o.value && (o.names.includes('-f') || o.names.includes('--file')))
        found.push(file(o.value));
  return found;
}

/** Where the program `name` writes when run with `args`. */
export function writeTargets(name: string, args: Expanded[]): WriteTarget[] {
  const parsed = parseArgs(specOf(name), args);
  const found = optionTargets(name, parsed);
  if (LAST_ARGUMENT_WRITERS.has(name)) found.push(...copyTargets(parsed));
  else if (ALL_ARGUMENT_WRITERS.has(name)) found.push(...parsed.operands.map(file));
  else if (name === 'sed' && args.some((a) => /^-[a-zA-Z]*i|^--in-place/.test(a.text)))
    found.push(...args.filter((a) => !a.text.startsWith('-')).map(file));
  else if (name === 'dd')
    for (const a of args)
      if (a.text.startsWith('of=')) found.push(file({ ...a, text: a.text.slice(3) }));
  return found;
}

/** Relative names under which a directory would hold a system path (shellSyntax.ts SYSTEM_PATH). */
const PROBES = [
  'x',
  '.bashrc',
  '.config/autostart',
  'autostart',
  'u/.bashrc',
  'etc',
  'spool/cron',
  'cron',
  'Library/LaunchAgents',
  'LaunchAgents',
];

/** Whether files written under `dir` can land on a system path (`/`, `~`, `/home`, `~/.config`…). */
export function holdsSystemPath(dir: string): boolean {
  const base = dir.replace(/[\\/]+$/, '');
  if (base === '' && !dir.startsWith('/')) return false;
  return PROBES.some((p) => isSystemPath(`${base}/${p}`));
}

/** Whether a write target is, or may be, a system path. */
export function writesSystemPath(target: WriteTarget): boolean {
  const readings = target.word.worst ?? [target.word.text];
  return readings.some((p) => (target.dir ? holdsSystemPath(p) : isSystemPath(p)));
}
