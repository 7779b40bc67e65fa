/**
 * The sandbox validator's pattern rules (MGP §4.5 "dangerous shell patterns"). They look at the raw
 * text, quotes included, so `bash -c '…'` hides nothing.
 *
 * `payload` rules match things that are dangerous wherever they end up and have no business in the
 * arguments of a sandboxed tool, so they apply to prose fields too: fork bombs, reverse shells, piping a
 * download or a decoded blob into a shell, wiping `/` or `~`, writing to a raw disk, `chmod -R` on `/`.
 * The others apply to command-like arguments only (see context.ts).
 */

export interface ShellRule {
  id: string;
  /** What was found, for the message: "a fork bomb". */
  what: string;
  /** Why it is blocked, one sentence. */
  why: string;
  payload: boolean;
  patterns: RegExp[];
}

const SHELLS = String.raw`(?:[\w.\/-]{0,128}\/)?(?:(?:ba|da|k|z|fi|c|tc)?sh|python[\d.]*|perl|ruby|node|php|pwsh|powershell|iex|Invoke-Expression|source)(?:\.exe)?\b`;
const DOWNLOADERS = String.raw`\b(?:curl|wget|fetch|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString|DownloadFile|aria2c|lwp-download)\b`;

export const SHELL_RULES: readonly ShellRule[] = [
  {
    id: 'fork_bomb',
    what: 'a fork bomb',
    why: 'It spawns processes until the machine stops responding.',
    payload: true,
    patterns: [
      /(?<![\w:.])([\w:.]{1,30})\s*\(\s*\)\s*\{[^}]{0,100}?(?<![\w:.])\1\s*\|\s*\1\s*&/,
      /\bfunction\s+([\w:.]{1,30})\s*(?:\(\s*\))?\s*\{[^}]{0,100}?\1\s*\|\s*\1\s*&/,
      /%0\s*\|\s*%0/,
      /\bfork\s*(?:\(\s*\))?\s*while\s+fork\b/i,
      /\bwhile\s*\(?\s*(?:true|1)\s*\)?\s*:?\s*\{?\s*(?:os\.)?fork\s*\(/i,
    ],
  },
  {
    id: 'reverse_shell',
    what: 'a reverse shell',
    why: 'It hands a shell on this machine to a remote host.',
    payload: true,
    patterns: [
      /\/dev\/(?:tcp|udp)\//,
      /\b(?:nc|ncat|netcat)(?:\.exe)?\s(?:[^\n;&|]{0,80}\s)?(?:-[a-z]*[ec]|--(?:sh-|lua-)?exec)\s+\S*(?:sh|cmd(?:\.exe)?|powershell|python[\d.]*|perl)\b/i,
      /\bsocat\b[^\n]{0,200}\b(?:exec|system):/i,
      /\bmkfifo\b[^\n]{0,200}\b(?:nc|ncat|netcat|telnet|openssl\s+s_client)\b/,
      /\bNew-Object\s+(?:System\.)?Net\.Sockets\.TCPClient\b/i,
      /\bsocket\b[^\n]{0,200}\bconnect\b[^\n]{0,200}\b(?:dup2|pty\.spawn)\b/,
    ],
  },
  {
    id: 'pipe_to_shell',
    what: 'a download piped into a shell',
    why: 'It runs code fetched from the network without any review.',
    payload: true,
    patterns: [
      new RegExp(
        String.raw`${DOWNLOADERS}[^\n|]{0,300}\|\s*(?:sudo\s+(?:-\S+\s+){0,8})?${SHELLS}`,
        'i',
      ),
      /\b(?:ba|z|k|da)?sh\s+(?:-\w+\s+){0,8}(?:<\s*\(|["']?\$\()\s*(?:curl|wget)\b/i,
      /\bsource\s+<\s*\(\s*(?:curl|wget)\b/i,
      /\b(?:iex|Invoke-Expression)\b[\s(]*(?:New-Object\b|(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|curl|wget)\b)/i,
    ],
  },
  {
    id: 'base64_exec',
    what: 'decoded data run as code',
    why: 'Encoding hides what the command really does.',
    payload: true,
    patterns: [
      new RegExp(
        String.raw`\b(?:base64|xxd|openssl)\b[^\n|]{0,200}\s(?:-d|--decode|-D|-r|-base64)\b[^\n]{0,200}\|\s*(?:sudo\s+)?${SHELLS}`,
        'i',
      ),
      /\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,120}\s[-/]e[a-z]*\s+[A-Za-z0-9+/=]{20,}/i,
      /\bFromBase64String\b[^\n]{0,300}\b(?:iex|Invoke-Expression)\b|\b(?:iex|Invoke-Expression)\b[^\n]{0,300}\bFromBase64String\b/i,
      /\b(?:exec|eval)\s*\(\s*(?:base64\.)?b64decode\b/,
      /\beval\s*\(\s*(?:atob|Buffer\.from)\s*\(/,
    ],
  },
  {
    id: 'catastrophic_delete',
    what: 'a recursive delete of /, ~ or a whole drive',
    why: 'It destroys the system or the home directory.',
    payload: true,
    patterns: [
      /(?<![\w.-])rm\s+(?=(?:-\S+\s+){0,15}-[a-zA-Z]*[rR])(?:-\S+\s+){1,16}["']?(?:\/+\*?|~\/?\*?|\$\{?HOME\}?\/?\*?|\*)["']?(?=$|[\s;&|)])/,
      /(?<![\w.-])rm\s[^\n;&|]{0,100}--no-preserve-root\b/,
      /(?<![\w.-])(?:rd|rmdir)\s+\/s\s+(?:\/q\s+)?[a-z]:\\?(?=\s|$)/i,
    ],
  },
  {
    id: 'disk_destroy',
    what: 'a write to a raw disk device',
    why: 'It overwrites a disk or a partition.',
    payload: true,
    patterns: [
      /\bdd\b[^\n;|&]{0,200}\bof=\s*["']?\/dev\/(?!null\b|zero\b|stdout\b|stderr\b)/,
      /(?<![\w-])(?:mkfs(?:\.\w+)?|mke2fs|mkswap|wipefs|shred)\b[^\n;|&]{0,100}\/dev\//,
      />\s*\/dev\/(?:sd|hd|nvme|vd|xvd|mmcblk|disk)\w*/,
      /\bformat(?:\.com)?\s+[a-z]:(?=\s|$|\/)/i,
    ],
  },
  {
    id: 'permission_change',
    what: 'a recursive permission change on / or ~',
    why: 'It breaks or opens up the whole system.',
    payload: true,
    patterns: [
      /\bch(?:mod|own|grp)\s+(?=(?:-\S+\s+){0,7}(?:-[a-zA-Z]*R|--recursive))(?:-\S+\s+){1,8}(?:\S+\s+)?["']?(?:\/+\*?|~\/?)["']?(?=$|[\s;&|)])/,
    ],
  },
  {
    id: 'recursive_delete',
    what: 'a recursive delete',
    why: 'The sandbox does not allow deleting directory trees; delete single files instead.',
    payload: false,
    patterns: [
      /\bfind\b[^\n;|&]{0,300}\s-(?:delete\b|exec(?:dir)?\s+(?:[\w./-]{0,128}\/)?(?:rm|shred|unlink)\b)/,
      /(?<![\w.-])(?:del|erase|rd|rmdir)(?:\.exe)?\s+(?:[^\n&|]{0,200}\s)?\/s\b/i,
      /\b(?:Remove-Item|ri)\b[^\n|;]{0,200}\s-r(?:e(?:c(?:u(?:r(?:s(?:e)?)?)?)?)?)?\b/i,
      /\b(?:rm|del|rd|rmdir|erase)\b[^\n|;]{0,200}\s-rec(?:u(?:r(?:s(?:e)?)?)?)?\b/i,
      /\brmtree\b/,
      // Quote-blind, so `perl -e 'system("rm -r dir")'` is seen too.
      /(?<![\w.-])rm\s+(?:-\S+\s+){0,16}-[a-zA-Z]*[rR]|(?<![\w.-])rm\s[^\n;&|]{0,100}--recursive\b/,
    ],
  },
  {
    id: 'control_characters',
    what: 'control or bidirectional-override characters',
    why: 'They hide what a command line really contains.',
    payload: false,
    patterns: [/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/],
  },
  {
    id: 'obfuscation',
    what: "escaped characters in $'…' quoting",
    why: 'ANSI-C escapes can spell out any command while hiding it.',
    payload: false,
    patterns: [/\$'[^']*\\(?:x[0-9a-fA-F]|[0-7]{1,3}|u[0-9a-fA-F]|U[0-9a-fA-F]|c)/],
  },
  {
    id: 'library_injection',
    what: 'a dynamic-linker variable',
    why: 'LD_PRELOAD and its kin load arbitrary code into every program the command starts.',
    payload: false,
    patterns: [
      /\b(?:LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_INSERT_LIBRARIES|DYLD_LIBRARY_PATH)\s*=/,
    ],
  },
];

export const PAYLOAD_RULES: readonly ShellRule[] = SHELL_RULES.filter((rule) => rule.payload);
