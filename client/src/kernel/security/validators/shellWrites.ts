/**
 * Shell commands that write, for the readonly validator (command-like arguments only).
 *
 * Counted as writes: an output redirection to anything but a discard target (`/dev/null`, `NUL`, the std
 * streams); programs that change files (`rm`, `mv`, `cp`, `mkdir`, `touch`, `ln`, `chmod`, `tee`, `dd`,
 * `truncate`, `sed -i`, `perl -i`, PowerShell's `Set-Content`/`Remove-Item`…); and the writing
 * subcommands of git (push, commit, merge, reset, checkout…), package managers (install, publish…),
 * docker, kubectl and systemctl. curl counts when it sends data or writes a file (`-X POST`, `-d`, `-F`,
 * `-T`, `-o`); wget counts unless it writes to stdout (`-O -`) or only checks (`--spider`).
 */
import {
  invocations,
  isDiscardTarget,
  maskQuoted,
  outputRedirects,
  type Invocation,
} from './shellSyntax';

export interface ShellWrite {
  what: string;
  index: number;
  length: number;
}

const WRITE_PROGRAMS = new Set([
  'rm',
  'rmdir',
  'mv',
  'cp',
  'mkdir',
  'touch',
  'ln',
  'chmod',
  'chown',
  'chgrp',
  'truncate',
  'shred',
  'unlink',
  'install',
  'tee',
  'dd',
  'rsync',
  'scp',
  'patch',
  'mkfifo',
  'mknod',
  'chattr',
  'del',
  'erase',
  'copy',
  'move',
  'ren',
  'rename',
  'md',
  'rd',
  'xcopy',
  'robocopy',
  'set-content',
  'add-content',
  'out-file',
  'new-item',
  'remove-item',
  'move-item',
  'copy-item',
  'rename-item',
  'clear-content',
  'set-itemproperty',
  'mkfs',
  'crontab',
  'passwd',
  'useradd',
  'userdel',
]);

const WRITE_SUBCOMMANDS: Record<string, Set<string>> = {
  git: new Set([
    'push',
    'commit',
    'merge',
    'rebase',
    'reset',
    'checkout',
    'switch',
    'add',
    'rm',
    'mv',
    'stash',
    'pull',
    'apply',
    'am',
    'cherry-pick',
    'revert',
    'clean',
    'init',
    'clone',
    'restore',
    'gc',
    'prune',
    'notes',
    'submodule',
    'worktree',
  ]),
  npm: new Set([
    'install',
    'i',
    'add',
    'remove',
    'rm',
    'uninstall',
    'un',
    'publish',
    'unpublish',
    'update',
    'up',
    'upgrade',
    'ci',
    'link',
    'unlink',
    'init',
    'version',
    'dedupe',
    'prune',
  ]),
  pip: new Set(['install', 'uninstall', 'download', 'wheel']),
  apt: new Set(['install', 'remove', 'purge', 'upgrade', 'dist-upgrade', 'autoremove', 'update']),
  brew: new Set(['install', 'uninstall', 'upgrade', 'update', 'link', 'unlink', 'tap', 'cleanup']),
  docker: new Set([
    'rm',
    'rmi',
    'run',
    'build',
    'push',
    'pull',
    'kill',
    'stop',
    'start',
    'restart',
    'create',
    'exec',
    'cp',
    'commit',
    'tag',
    'prune',
    'volume',
    'network',
    'compose',
    'system',
    'load',
    'import',
  ]),
  kubectl: new Set([
    'apply',
    'delete',
    'create',
    'patch',
    'edit',
    'scale',
    'replace',
    'set',
    'label',
    'annotate',
    'rollout',
    'drain',
    'cordon',
    'uncordon',
    'taint',
    'cp',
    'exec',
    'run',
    'expose',
    'autoscale',
  ]),
  systemctl: new Set([
    'start',
    'stop',
    'restart',
    'reload',
    'enable',
    'disable',
    'mask',
    'unmask',
    'kill',
    'isolate',
    'poweroff',
    'reboot',
  ]),
};
for (const alias of ['pnpm', 'yarn', 'bun']) WRITE_SUBCOMMANDS[alias] = WRITE_SUBCOMMANDS.npm;
WRITE_SUBCOMMANDS.pip3 = WRITE_SUBCOMMANDS.pip;
for (const alias of ['apt-get', 'yum', 'dnf', 'zypper', 'choco', 'winget', 'snap'])
  WRITE_SUBCOMMANDS[alias] = WRITE_SUBCOMMANDS.apt;
WRITE_SUBCOMMANDS.podman = WRITE_SUBCOMMANDS.docker;

const WRITE_METHOD = /^(?:POST|PUT|PATCH|DELETE)$/i;

function curlWrites(args: Invocation['args']): boolean {
  return args.some((a, i) => {
    const t = a.text;
    if (t === '-X' || t === '--request') return WRITE_METHOD.test(args[i + 1]?.text ?? '');
    if (/^(?:-X|--request=)/.test(t)) return WRITE_METHOD.test(t.replace(/^(?:-X|--request=)/, ''));
    if (
      /^--(?:data|data-[a-z]+|form|form-string|upload-file|output|remote-name|remote-name-all|json)(?:=|$)/.test(
        t,
      )
    )
      return true;
    return /^-[a-zA-Z]+$/.test(t) && /[dFToO]/.test(t);
  });
}

function wgetToStdout(args: Invocation['args']): boolean {
  return args.some(
    (a, i) =>
      /^(?:-[a-zA-Z]*O-|--spider|--output-document=-)$/.test(a.text) ||
      (/^-[a-zA-Z]*O$/.test(a.text) && args[i + 1]?.text === '-'),
  );
}

/** The first operand, skipping options and the values of `-C dir` / `-c key=value` (git, make). */
function firstSubcommand(call: Invocation): string | undefined {
  for (let i = 0; i < call.args.length; i++) {
    const text = call.args[i].text;
    if (text === '-C' || text === '-c') i++;
    else if (!text.startsWith('-')) return text.toLowerCase();
  }
  return undefined;
}

function programWrite(call: Invocation): string | undefined {
  const { name, args } = call;
  if (WRITE_PROGRAMS.has(name) || /^mkfs\./.test(name)) return `\`${name}\``;
  const sub = WRITE_SUBCOMMANDS[name] && firstSubcommand(call);
  if (sub && WRITE_SUBCOMMANDS[name].has(sub)) return `\`${name} ${sub}\``;
  if (
    name === 'git' &&
    sub === 'branch' &&
    args.some((a) => /^(?:-[dDmMcC]|--delete|--move|--copy)$/.test(a.text))
  )
    return '`git branch` with -d/-m/-c';
  if (name === 'git' && sub === 'tag' && args.filter((a) => !a.text.startsWith('-')).length > 1)
    return '`git tag <name>`';
  if (
    (name === 'sed' || name === 'perl') &&
    args.some((a) => /^-[a-zA-Z]*i|^--in-place/.test(a.text))
  )
    return `\`${name} -i\``;
  if (name === 'curl' && curlWrites(args)) return '`curl` sending data or writing a file';
  if (name === 'wget' && !wgetToStdout(args)) return '`wget` writing a file';
  return undefined;
}

export function shellWrite(text: string): ShellWrite | undefined {
  const masked = maskQuoted(text);
  for (const redirect of outputRedirects(text, masked)) {
    if (!isDiscardTarget(redirect.target))
      return {
        what: `an output redirection to ${redirect.target}`,
        index: redirect.index,
        length: redirect.target.length + 2,
      };
  }
  for (const call of invocations(text, masked)) {
    const what = programWrite(call);
    if (what) return { what, index: call.index, length: call.name.length };
  }
  return undefined;
}
