/**
 * The code safety lists the kernel uses when a declaration gives none (MGP §7.3 leaves the defaults to
 * the kernel). A declared list replaces the default of the same kind; an empty list counts as not given.
 *
 * - Blocked imports (`standard` and up): process spawning, raw sockets and servers, native code,
 *   interpreter internals and dynamic importers, serialization formats that run code, and — for
 *   JavaScript — the modules that reach outside the runtime. Entries may be dotted (`os.system`), so
 *   `from os import system` is caught while `import os` for `os.path` is not.
 * - Allowed imports (`strict` and `readonly` without a declared allowlist): pure computation only.
 * - Blocked patterns: dynamic evaluation, sandbox-escape gadgets, process and file-system mutation.
 *   Each is a regular expression with word boundaries (`eval(` does not match `retrieval(` nor
 *   PyTorch's `model.eval()`), searched in code with comments and string contents blanked, except the
 *   gadget names that are just as dangerous spelled inside a string (`'__subclasses__'`).
 * - Write operations (`readonly` level): file writes, network sends and subprocesses, always checked
 *   at that level whatever the declaration says.
 */
import type { CodeLanguage } from './codeLexer';

export interface CodePattern {
  /** As shown in violations: "Blocked pattern: 'eval('". */
  name: string;
  regex: RegExp;
  /** `stripped` when the pattern matters inside strings too. */
  view: 'codeOnly' | 'stripped';
}

const OS_EXEC = ['execl', 'execle', 'execlp', 'execlpe', 'execv', 'execve', 'execvp', 'execvpe'];
const OS_SPAWN = [
  'spawnl',
  'spawnle',
  'spawnlp',
  'spawnlpe',
  'spawnv',
  'spawnve',
  'spawnvp',
  'spawnvpe',
  'posix_spawn',
  'posix_spawnp',
];

export const DEFAULT_BLOCKED_IMPORTS: Record<CodeLanguage, readonly string[]> = {
  python: [
    'subprocess',
    '_posixsubprocess',
    'os.system',
    'os.popen',
    'os.fork',
    'os.forkpty',
    'os.kill',
    'os.killpg',
    'os.startfile',
    ...OS_EXEC.map((f) => `os.${f}`),
    ...OS_SPAWN.map((f) => `os.${f}`),
    'posix',
    'nt',
    'pty',
    'shutil',
    'socket',
    'socketserver',
    'ssl',
    'ctypes',
    'cffi',
    'multiprocessing',
    'concurrent.futures.process',
    'asyncio.subprocess',
    'importlib',
    'imp',
    'builtins',
    '__builtin__',
    'code',
    'codeop',
    'pickle',
    'marshal',
    'shelve',
    'dill',
    'pexpect',
    'sh',
    'plumbum',
    'paramiko',
    'telnetlib',
    'ftplib',
    'smtplib',
    'http.server',
    'xmlrpc',
    'winreg',
    '_winapi',
    'msvcrt',
    'commands',
    'popen2',
    'sys.modules',
  ],
  javascript: [
    'child_process',
    'cluster',
    'dgram',
    'net',
    'tls',
    'http2',
    'inspector',
    'module',
    'repl',
    'vm',
    'worker_threads',
    'v8',
    'wasi',
    'process',
    'process.binding',
    'shelljs',
    'execa',
    'cross-spawn',
    'node-pty',
  ],
};

export const DEFAULT_ALLOWED_IMPORTS: Record<CodeLanguage, readonly string[]> = {
  python: [
    'json',
    'math',
    'cmath',
    're',
    'datetime',
    'time',
    'calendar',
    'zoneinfo',
    'typing',
    'typing_extensions',
    'collections',
    'itertools',
    'functools',
    'operator',
    'dataclasses',
    'enum',
    'decimal',
    'fractions',
    'statistics',
    'random',
    'string',
    'textwrap',
    'unicodedata',
    'difflib',
    'copy',
    'pprint',
    'bisect',
    'heapq',
    'abc',
    'numbers',
    'hashlib',
    'hmac',
    'base64',
    'binascii',
    'uuid',
    'array',
    'struct',
    'csv',
    'html',
    'contextlib',
    'types',
  ],
  javascript: [
    'assert',
    'buffer',
    'events',
    'path',
    'querystring',
    'string_decoder',
    'url',
    'util',
    'crypto',
  ],
};

/** The default size limit at `strict` and `readonly` when none is declared. */
export const DEFAULT_MAX_CODE_SIZE_BYTES = 65_536;

function p(name: string, regex: RegExp, view: CodePattern['view'] = 'codeOnly'): CodePattern {
  return { name, regex, view };
}

export const DEFAULT_BLOCKED_PATTERNS: Record<CodeLanguage, readonly CodePattern[]> = {
  python: [
    p('eval(', /(?<![\w.])eval\s*\(/),
    p('exec(', /(?<![\w.])exec\s*\(/),
    p('compile(', /(?<![\w.])compile\s*\(/),
    p('__import__(', /\b__import__\s*\(/),
    p('globals()', /(?<![\w.])globals\s*\(/),
    p('breakpoint()', /(?<![\w.])breakpoint\s*\(/),
    p(
      'os.system',
      /\bos\s*\.\s*(?:system|popen|fork|forkpty|kill|killpg|startfile|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?)\b/,
    ),
    p(
      'os file removal',
      /\bos\s*\.\s*(?:remove|unlink|rmdir|removedirs|chmod|chown|lchown|truncate)\s*\(/,
    ),
    p('__builtins__', /\b__builtins__\b/, 'stripped'),
    p('__subclasses__', /\b__(?:subclasses|globals|code|bases|mro|getattribute)__\b/, 'stripped'),
    p('sys.modules', /\bsys\s*\.\s*modules\b/),
    p('vars(', /(?<![\w.])vars\s*\(/),
    p('__dict__', /\b__dict__\b/, 'stripped'),
  ],
  javascript: [
    p('eval(', /(?<![\w$.])eval\b(?!\s*:)|\b(?:globalThis|window|global|self)\s*\.\s*eval\b/),
    p(
      'new Function',
      /(?<![\w$.])Function\s*\(|\bnew\s+Function\b|\bconstructor\s*\.\s*constructor\b|\.\s*constructor\s*\(/,
    ),
    p("['constructor']", /\[\s*(['"`])constructor\1\s*\]/, 'stripped'),
    p('setTimeout with a string', /\bset(?:Timeout|Interval|Immediate)\s*\(\s*['"`]/),
    p('process.binding', /\bprocess\s*\.\s*(?:binding|_linkedBinding|dlopen)\b/),
    p('process.exit', /\bprocess\s*\.\s*(?:exit|abort|kill|reallyExit)\b/),
    p('process.mainModule', /\bprocess\s*\.\s*mainModule\b/),
    p(
      'module.constructor',
      /\bmodule\s*\.\s*constructor\b|\.\s*(?:_load|_resolveFilename|_compile)\s*\(|\bcreateRequire\b/,
    ),
    p('process[…]', /\b(?:process|globalThis|global)\s*\[/),
    p(
      'fs writes',
      /\b(?:writeFile|appendFile|createWriteStream|unlink|rmdir|rmSync|renameSync|copyFileSync|cpSync|chmodSync|chownSync|symlinkSync|truncateSync|mkdirSync)(?:Sync)?\s*\(|\b(?:fs|fsp|fsPromises|promises)\s*\.\s*(?:rm|rename|cp|link|mkdir|chmod|chown|truncate|symlink|copyFile|utimes|lchown)\s*\(/,
    ),
    p('Deno.run', /\b(?:Deno\s*\.\s*(?:run|Command)|Bun\s*\.\s*spawn(?:Sync)?)\b/),
  ],
};

/** The `readonly` level: code may read, nothing else (MGP §7.2). */
export const WRITE_OPERATIONS: Record<CodeLanguage, readonly CodePattern[]> = {
  python: [
    p(
      'file write (pathlib)',
      /\.\s*(?:write_text|write_bytes|touch|mkdir|unlink|rmdir|rename|symlink_to|hardlink_to|chmod)\s*\(/,
    ),
    p(
      'file write (os)',
      /\bos\s*\.\s*(?:remove|unlink|rmdir|removedirs|mkdir|makedirs|rename|renames|replace|chmod|chown|link|symlink|truncate|write|utime|mkfifo|mknod)\s*\(/,
    ),
    p('shutil', /\bshutil\s*\./),
    p(
      'subprocess',
      /\b(?:subprocess|pty)\s*\.|\bos\s*\.\s*(?:system|popen|fork|exec\w*|spawn\w*)\b/,
    ),
    p(
      'network send',
      /\b\w*(?:requests|httpx|session|client|aiohttp|urllib3|http)\w*\s*\.\s*(?:post|put|patch|delete|request|send)\s*\(|\.\s*(?:sendall|sendto|sendmail|send_message)\s*\(/i,
    ),
    p('socket', /\bsocket\s*\.\s*socket\s*\(|\bsocket\s*\.\s*create_connection\s*\(/),
    p('database commit', /\.\s*commit\s*\(\s*\)/),
    p('os.open flags', /\bO_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND)\b/),
  ],
  javascript: [
    DEFAULT_BLOCKED_PATTERNS.javascript.find((x) => x.name === 'fs writes') as CodePattern,
    p('network send', /\bmethod\s*:\s*(['"`])(?:post|put|patch|delete)\1/i, 'stripped'),
    p(
      'HTTP client write',
      /\b(?:axios|got|ky|superagent|request|needle|http|https|client|api)\s*\.\s*(?:post|put|patch|delete|request)\s*\(/,
    ),
    p(
      'socket',
      /\bnew\s+(?:WebSocket|XMLHttpRequest)\b|\bnavigator\s*\.\s*sendBeacon\b|\bnet\s*\.\s*(?:connect|createConnection|createServer)\b/,
    ),
    p(
      'subprocess',
      /\bchild_process\b|(?<![\w$.])(?:execSync|execFileSync|spawnSync|spawn|execFile)\s*\(/,
    ),
    p('open flags', /\bO_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND)\b/),
  ],
};

/** Imports the `readonly` level refuses even when an allowlist names them. */
export const READONLY_FORBIDDEN_IMPORTS: Record<CodeLanguage, readonly string[]> = {
  python: [
    'subprocess',
    'socket',
    'shutil',
    'multiprocessing',
    'pty',
    'ctypes',
    'smtplib',
    'ftplib',
    'telnetlib',
    'http.server',
    'socketserver',
    'asyncio.subprocess',
  ],
  javascript: ['child_process', 'net', 'dgram', 'tls', 'http2', 'cluster', 'worker_threads'],
};
