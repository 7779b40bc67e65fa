/**
 * The options of the programs whose arguments the sandbox must read as they do (shellOptions.ts):
 * the GNU coreutils and findutils manuals, bash(1), su(1), git(1), tar(1), curl(1), wget(1), unzip(1),
 * ssh(1). Long options are written `name` (a flag), `name=` (takes a value), `name?` (an optional,
 * attached value). Only the options that take values and the ones with a role need to be listed: an
 * unlisted long prefix is read as every listed option it begins.
 *
 * A program not listed here is read with GENERIC_SPEC: the options that conventionally name an output
 * (`-o`, `--output`, `-O`, `-C`, `-d`, `--directory`) are taken to, so their values are judged as write
 * targets.
 */
import type { ProgramSpec, Role, Takes } from './shellOptions';

function longs(list: string): Record<string, Takes> {
  const out: Record<string, Takes> = {};
  for (const item of list.split(/\s+/).filter(Boolean)) {
    const takes: Takes = item.endsWith('=') ? 'value' : item.endsWith('?') ? 'optional' : 'none';
    out[item.replace(/[=?]$/, '')] = takes;
  }
  return out;
}

const HELP = ' help version';
const RECURSIVE: Record<string, Role> = {
  '-r': 'recursive',
  '-R': 'recursive',
  '--recursive': 'recursive',
};
const TARGET_DIR: Record<string, Role> = { '-t': 'output_dir', '--target-directory': 'output_dir' };

const SHELL: ProgramSpec = {
  short: 'abefhkmnptuvxBCHPcilrsDo:O:',
  long: longs(`login noprofile norc posix restricted verbose debugger dump-strings dump-po-strings
    init-file= rcfile= pretty-print noediting wordexp${HELP}`),
  roles: { '-c': 'command_operand', '-s': 'stdin' },
  stopAtOperand: true,
  plus: true,
};

const SU: ProgramSpec = {
  short: 'c:fg:G:lmpPs:w:',
  long: longs(`command= session-command= fast group= supp-group= login preserve-environment pty
    shell= whitelist-environment=${HELP}`),
  roles: { '-c': 'line', '--command': 'line', '--session-command': 'line' },
};

/** Programs that run the command in their operands (`sudo rm …`, `env X=1 rm …`, `timeout 5 rm …`). */
export const RUNNERS: Record<string, { spec: ProgramSpec; skip?: number; unknownTail?: boolean }> =
  {
    env: {
      spec: {
        short: 'i0u:C:S:va:',
        long: longs(`ignore-environment null unset= chdir= split-string= block-signal? default-signal?
        ignore-signal? list-signal-handling debug argv0=${HELP}`),
        roles: { '-S': 'split', '--split-string': 'split' },
        stopAtOperand: true,
      },
    },
    sudo: {
      spec: {
        short: 'AbBc:C:D:eEg:h::HiklKnNp:PR:r:sSt:T:u:U:vV',
        long: longs(`askpass background bell close-from= chdir= chroot= preserve-env? edit group= set-home
        host= login remove-timestamp reset-timestamp non-interactive preserve-groups prompt= role=
        shell stdin type= command-timeout= other-user= user= list validate${HELP}`),
        stopAtOperand: true,
      },
    },
    doas: { spec: { short: 'a:C:Lnsu:', stopAtOperand: true } },
    xargs: {
      spec: {
        short: '0a:d:E:e::I:i::L:l::n:oP:prs:tx',
        long: longs(`null arg-file= delimiter= eof? replace? max-lines? max-args= open-tty max-procs=
        interactive process-slot-var= no-run-if-empty max-chars= show-limits verbose exit${HELP}`),
        stopAtOperand: true,
      },
      // The words it reads from its input are appended to the command: known only when it runs.
      unknownTail: true,
    },
    timeout: {
      spec: {
        short: 'fk:ps:v',
        long: longs(`foreground kill-after= preserve-status signal= verbose${HELP}`),
        stopAtOperand: true,
      },
      skip: 1,
    },
    nice: { spec: { short: 'n:', long: longs(`adjustment=${HELP}`), stopAtOperand: true } },
    nohup: { spec: { long: longs(HELP), stopAtOperand: true } },
    stdbuf: {
      spec: { short: 'i:o:e:', long: longs(`input= output= error=${HELP}`), stopAtOperand: true },
    },
    ionice: {
      spec: {
        short: 'c:n:p:P:tu:',
        long: longs(`class= classdata= pid= pgid= ignore uid=${HELP}`),
        stopAtOperand: true,
      },
    },
    time: {
      spec: {
        short: 'af:o:pqv',
        long: longs(`append format= output= portability quiet verbose${HELP}`),
        roles: { '-o': 'output', '--output': 'output' },
        stopAtOperand: true,
      },
    },
    exec: { spec: { short: 'cla:', stopAtOperand: true } },
    command: { spec: { short: 'pvV', stopAtOperand: true } },
    builtin: { spec: { stopAtOperand: true } },
    setsid: { spec: { short: 'cfw', long: longs(`ctty fork wait${HELP}`), stopAtOperand: true } },
    busybox: { spec: { stopAtOperand: true } },
    chrt: { spec: { short: 'abdefimoprRT:P:D:v', stopAtOperand: true }, skip: 1 },
    taskset: { spec: { short: 'acp', stopAtOperand: true }, skip: 1 },
  };

/** Programs whose options change what the sandbox must judge. */
export const PROGRAMS: Record<string, ProgramSpec> = {
  rm: {
    short: 'dfirIRv',
    long: longs(`force interactive? one-file-system no-preserve-root preserve-root? recursive dir
      verbose${HELP}`),
    roles: { ...RECURSIVE, '--no-preserve-root': 'root' },
  },
  chmod: {
    short: 'cfvR',
    long: longs(`changes silent quiet verbose no-preserve-root preserve-root reference=
      recursive${HELP}`),
    roles: RECURSIVE,
  },
  chown: {
    short: 'cfvhHLPR',
    long: longs(`changes silent quiet verbose dereference no-dereference from= no-preserve-root
      preserve-root reference= recursive${HELP}`),
    roles: RECURSIVE,
  },
  get chgrp(): ProgramSpec {
    return this.chown;
  },
  cp: {
    short: 'abdfHilLnPprRsS:t:TuvxZ',
    long: longs(`archive attributes-only backup? copy-contents force interactive link dereference
      no-clobber no-dereference preserve? no-preserve= parents recursive reflink? remove-destination
      sparse= strip-trailing-slashes symbolic-link suffix= target-directory= no-target-directory update?
      verbose one-file-system context? debug keep-directory-symlink${HELP}`),
    roles: TARGET_DIR,
  },
  mv: {
    short: 'bfinS:t:TuvZ',
    long: longs(`backup? force interactive no-clobber strip-trailing-slashes suffix= target-directory=
      no-target-directory update? verbose context exchange no-copy debug${HELP}`),
    roles: TARGET_DIR,
  },
  install: {
    short: 'bcCdDg:m:o:pS:st:TvZ',
    long: longs(`backup? compare directory group= mode= owner= preserve-timestamps strip
      strip-program= suffix= target-directory= no-target-directory verbose preserve-context context?
      debug${HELP}`),
    roles: { ...TARGET_DIR, '--strip-program': 'line' },
  },
  ln: {
    short: 'bdfFinLPrsS:t:Tv',
    long: longs(`backup? directory force interactive logical no-dereference physical relative symbolic
      suffix= target-directory= no-target-directory verbose${HELP}`),
    roles: TARGET_DIR,
  },
  sort: {
    short: 'bcCdfghik:mMno:rRsS:t:T:uVz',
    long: longs(`ignore-leading-blanks dictionary-order ignore-case general-numeric-sort
      ignore-nonprinting month-sort human-numeric-sort numeric-sort random-sort random-source= reverse
      sort= version-sort batch-size= check? compress-program= debug files0-from= key= merge output=
      stable buffer-size= field-separator= temporary-directory= parallel= unique zero-terminated${HELP}`),
    roles: { '-o': 'output', '--output': 'output', '--compress-program': 'line' },
  },
  tee: { short: 'aip', long: longs(`append ignore-interrupts output-error?${HELP}`) },
  curl: {
    short: 'a:A:b:c:C:d:D:e:E:F:H:K:m:o:P:Q:r:t:T:u:U:w:x:X:y:Y:z:',
    long: longs(`output= output-dir= dump-header= cookie-jar= trace= trace-ascii= stderr= libcurl=
      etag-save= hsts= alt-svc= config= upload-file= data= data-binary= data-raw= data-urlencode= form=
      header= request= user= user-agent= proxy= cookie= referer= url= write-out= remote-name
      remote-name-all create-dirs${HELP}`),
    roles: {
      '-o': 'output',
      '--output': 'output',
      '--output-dir': 'output_dir',
      '-D': 'output',
      '--dump-header': 'output',
      '-c': 'output',
      '--cookie-jar': 'output',
      '--trace': 'output',
      '--trace-ascii': 'output',
      '--stderr': 'output',
      '--libcurl': 'output',
      '--etag-save': 'output',
      '--hsts': 'output',
      '--alt-svc': 'output',
    },
  },
  wget: {
    short: 'a:A:B:D:e:i:I:l:o:O:P:Q:R:t:T:U:w:X:',
    long: longs(`output-document= output-file= append-output= directory-prefix= save-cookies=
      load-cookies= input-file= execute= config= rejected-log= warc-file= use-askpass= post-file=
      body-file= user-agent= header= level= tries= timeout= wait= accept= reject= domains=${HELP}`),
    roles: {
      '-O': 'output',
      '--output-document': 'output',
      '-o': 'output',
      '--output-file': 'output',
      '-a': 'output',
      '--append-output': 'output',
      '--save-cookies': 'output',
      '--rejected-log': 'output',
      '-P': 'output_dir',
      '--directory-prefix': 'output_dir',
      '-e': 'config',
      '--execute': 'config',
      '--use-askpass': 'line',
    },
  },
  tar: {
    short: 'Acdtrux0123456789ab:B:C:f:F:g:GhH:iI:jJkK:lL:mMnN:oOpPsSST:UvV:wWX:zZ',
    long: longs(`absolute-names acls add-file= after-date= anchored append atime-preserve? auto-compress
      backup? block-number blocking-factor= bzip2 catenate check-device check-links checkpoint?
      checkpoint-action= clamp-mtime compare compress concatenate confirmation create
      delay-directory-restore delete dereference diff directory= exclude= exclude-backups exclude-caches
      exclude-caches-all exclude-caches-under exclude-from= exclude-ignore= exclude-ignore-recursive=
      exclude-tag= exclude-tag-all= exclude-tag-under= exclude-vcs exclude-vcs-ignores extract file=
      files-from= force-local format= full-time get group= group-map= gunzip gzip hard-dereference
      hole-detection= ignore-case ignore-command-error ignore-failed-read ignore-zeros incremental
      index-file= info-script= interactive keep-directory-symlink keep-newer-files keep-old-files label=
      level= list listed-incremental= lzip lzma lzop mode= mtime= multi-volume new-volume-script= newer=
      newer-mtime= no-acls no-anchored no-auto-compress no-check-device no-delay-directory-restore
      no-ignore-case no-ignore-command-error no-null no-overwrite-dir no-quote-chars= no-recursion
      no-same-owner no-same-permissions no-seek no-selinux no-unquote no-verbatim-files-from
      no-wildcards no-wildcards-match-slash no-xattrs null numeric-owner occurrence? old-archive
      one-file-system one-top-level? overwrite overwrite-dir owner= owner-map= pax-option= portability
      posix preserve-order preserve-permissions quote-chars= quoting-style= read-full-records
      record-size= recursion recursive-unlink remove-files restrict rmt-command= rsh-command= same-order
      same-owner same-permissions seek selinux show-defaults show-omitted-dirs
      show-snapshot-field-ranges show-stored-names show-transformed-names skip-old-files sort= sparse
      sparse-version= starting-file= strip-components= suffix= tape-length= test-label to-command=
      to-stdout totals? touch transform= uncompress ungzip unlink-first unquote update usage
      use-compress-program= utc verbatim-files-from verbose verify volno-file= warning= wildcards
      wildcards-match-slash xattrs xattrs-exclude= xattrs-include= xform= xz zstd${HELP}`),
    roles: {
      '-C': 'output_dir',
      '--directory': 'output_dir',
      '--index-file': 'output',
      '--volno-file': 'output',
      '--checkpoint-action': 'action',
      '--to-command': 'line',
      '--use-compress-program': 'line',
      '-I': 'line',
      '--info-script': 'line',
      '--new-volume-script': 'line',
      '-F': 'line',
      '--rsh-command': 'line',
      '--rmt-command': 'line',
    },
    oldStyle: true,
  },
  unzip: { short: 'd:aAbBcCfhjJKlLMnNopqsStTuUvVWXYzZ$:', roles: { '-d': 'output_dir' } },
  git: {
    short: 'C:c:hpPv',
    long: longs(`exec-path? html-path man-path info-path paginate no-pager no-replace-objects
      no-lazy-fetch no-optional-locks no-advice bare git-dir= work-tree= namespace= super-prefix=
      config-env= literal-pathspecs glob-pathspecs noglob-pathspecs icase-pathspecs list-cmds=
      attr-source=${HELP}`),
    roles: { '-c': 'config', '--config-env': 'config_env' },
    stopAtOperand: true,
  },
  ssh: {
    short: '46AaCfGgKkMNnqsTtVvXxYyB:b:c:D:E:e:F:I:i:J:L:l:m:O:o:P:p:Q:R:S:W:w:',
    roles: { '-o': 'config' },
    stopAtOperand: true,
  },
  rsync: {
    short: 'vqcahrRbulLkKHpEAXogDtUNOJmnWxyzFCe:f:T:B:M:',
    long: longs(`rsh= rsync-path= temp-dir= partial-dir= backup-dir= log-file= write-batch=
      only-write-batch= filter= exclude= include= exclude-from= include-from= files-from= suffix=
      compare-dest= copy-dest= link-dest= out-format= password-file=${HELP}`),
    roles: { '-e': 'line', '--rsh': 'line', '--rsync-path': 'line' },
  },
  watch: {
    short: 'bcd::eghn:pqtwx',
    long: longs(
      `beep color differences? errexit chgexit interval= precise no-title exec no-wrap${HELP}`,
    ),
    stopAtOperand: true,
  },
  ls: {
    short: 'I:T:w:',
    long: longs(`ignore= tabsize= width= hide= format= sort= time= color?${HELP}`),
  },
  make: {
    short: 'C:f:I:j::l::o:O::W:',
    long: longs(`directory= file= makefile= include-dir= jobs? load-average? old-file= new-file=
      what-if= assume-old= assume-new= output-sync?${HELP}`),
  },
  bash: SHELL,
  sh: SHELL,
  dash: SHELL,
  zsh: SHELL,
  ksh: SHELL,
  mksh: SHELL,
  ash: SHELL,
  yash: SHELL,
  posh: SHELL,
  fish: {
    short: 'c:C:d:f:iIlnNpPv',
    long: longs(`command= init-command= debug= features= interactive login no-execute no-config
      private profile= print-rusage-self${HELP}`),
    roles: {
      '-c': 'line',
      '--command': 'line',
      '-C': 'line',
      '--init-command': 'line',
    },
    stopAtOperand: true,
  },
  su: SU,
  runuser: SU,
};

export const GENERIC_SPEC: ProgramSpec = {
  short: 'o:O:C:d:',
  long: longs('output= directory= output-dir= output-file= output-document='),
  roles: {
    '-o': 'output',
    '-O': 'output',
    '--output': 'output',
    '--output-file': 'output',
    '--output-document': 'output',
    '-C': 'output_dir',
    '-d': 'output_dir',
    '--directory': 'output_dir',
    '--output-dir': 'output_dir',
  },
};

/** The spec a program is read with. */
export function specOf(program: string): ProgramSpec {
  if (Object.hasOwn(PROGRAMS, program)) return PROGRAMS[program];
  if (Object.hasOwn(RUNNERS, program)) return RUNNERS[program].spec;
  return GENERIC_SPEC;
}
