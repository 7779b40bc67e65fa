/**
 * MGP §17.2 fallback validators: for plain MCP servers, which declare no `security`, the kernel still
 * picks validators from the tool's name, its argument names and its description.
 *
 * | Signal                                                                    | Validator            |
 * |---------------------------------------------------------------------------|----------------------|
 * | name has shell, bash, sh, zsh, powershell, pwsh, cmd, terminal, command,  | `sandbox`            |
 * | subprocess, spawn, ssh, pty; or is just exec / execute / run              |                      |
 * | a top-level property `command`, `cmd`, `shell_command`, `shell`…          | `sandbox`            |
 * | description says shell command(s), terminal, command line, bash           | `sandbox`            |
 * | name has a run verb (run, exec, execute, eval, evaluate, interpret) with  | `code_safety`        |
 * | code, script, snippet, program or a language (python, js, node, ts…);     |                      |
 * | or is just a language or `eval`; or has repl, interpreter, jupyter        |                      |
 * | a top-level property `code`, `source_code`, `script`, `program`           | `code_safety`        |
 * | description says it runs/executes/evaluates code or a language            | `code_safety`        |
 * | name has fetch, http, curl, wget, browse, browser, navigate, download,    | `network_restricted` |
 * | url, web, scrape, crawl, webhook, website, webpage, proxy, ping           |                      |
 * | a top-level property whose name has url, uri, href, endpoint, host(name)  | `network_restricted` |
 * | description says it fetches/downloads a URL or page, HTTP requests, browse| `network_restricted` |
 * | name has sql, query, select, cypher, and either a read word (read, get,   | `readonly`           |
 * | list, search, find, describe, show, count, explain), or nothing else, or  |                      |
 * | the description says read-only; and no write word (write, insert, exec…)  |                      |
 * | description says it sends input (text, keys, commands) to a terminal,     | `sandbox`,           |
 * | shell, REPL, console or running process: its string arguments are typed   | `code_safety`        |
 * | into it (`interact_with_process`'s `input`), a command line or code        |                      |
 * | name is a run verb and a noun, with a string argument of that noun         | `sandbox`            |
 * | (`run_task` with `task`): that argument is what runs                       |                      |
 *
 * Those arguments are command lines to the sandbox whatever their names (`typedIntoProcess`, used by
 * context.ts).
 * A tool can get several validators (`run_shell_script` → sandbox and code_safety); [] means none.
 *
 * `language` for code_safety is not part of the result: the validator guesses it from the tool name
 * (`run_python` → python) when the declaration has none, and from the code after that.
 */
import type { ValidatorName } from '../../domain/security';
import { nameWords } from './text';

const SHELL_WORDS = new Set([
  'shell',
  'bash',
  'sh',
  'zsh',
  'fish',
  'ksh',
  'powershell',
  'pwsh',
  'cmd',
  'terminal',
  'command',
  'commands',
  'subprocess',
  'spawn',
  'ssh',
  'pty',
  'tty',
]);
const BARE_RUN = new Set(['exec', 'execute', 'run']);
const RUN_VERBS = new Set(['run', 'exec', 'execute', 'eval', 'evaluate', 'interpret', 'invoke']);
const CODE_WORDS = new Set(['code', 'script', 'snippet', 'program', 'cell', 'notebook']);
const PYTHON_WORDS = new Set(['python', 'py', 'ipython', 'jupyter']);
const JAVASCRIPT_WORDS = new Set([
  'javascript',
  'js',
  'node',
  'nodejs',
  'typescript',
  'ts',
  'deno',
  'bun',
]);
const BARE_CODE = new Set([
  'repl',
  'interpreter',
  'eval',
  'evaluate',
  ...PYTHON_WORDS,
  ...JAVASCRIPT_WORDS,
]);
const NETWORK_WORDS = new Set([
  'fetch',
  'http',
  'https',
  'curl',
  'wget',
  'browse',
  'browser',
  'navigate',
  'download',
  'url',
  'web',
  'scrape',
  'crawl',
  'webhook',
  'website',
  'webpage',
  'proxy',
  'ping',
]);
const SQL_WORDS = new Set(['sql', 'query', 'select', 'cypher']);
const READ_WORDS = new Set([
  'read',
  'get',
  'list',
  'search',
  'find',
  'describe',
  'show',
  'count',
  'explain',
  'lookup',
  'fetch',
]);
const WRITE_WORDS = new Set([
  'write',
  'insert',
  'update',
  'delete',
  'modify',
  'create',
  'drop',
  'alter',
  'mutate',
  'migrate',
  'exec',
  'execute',
  'run',
  'admin',
  'upsert',
  'set',
  'put',
]);

const COMMAND_PROPERTY =
  /^(?:command|commands|cmd|cmdline|command_?line|shell_?command|bash_?command|shell)$/i;
const CODE_PROPERTY = /^(?:code|source_?code|script|program|snippet)$/i;
const URL_PROPERTY_WORDS = new Set(['url', 'urls', 'uri', 'href', 'endpoint', 'host', 'hostname']);

const SHELL_DESCRIPTION = /\b(?:shell commands?|terminal|command[- ]line|bash|powershell)\b/i;
const CODE_DESCRIPTION =
  /\b(?:run|runs|execute|executes|evaluate|evaluates|eval)\b[^.]{0,40}\b(?:python|javascript|typescript|node\.?js|code|script)\b/i;
const NETWORK_DESCRIPTION =
  /\b(?:fetch(?:es)?|downloads?|retrieves?|gets?|opens?)\s+(?:the\s+|a\s+)?(?:contents?\s+of\s+(?:the\s+|a\s+)?)?(?:url|web ?page|web ?site|page at)\b|\bhttp requests?\b|\bbrowses?\b/i;
const READONLY_DESCRIPTION = /\bread[- ]?only\b/i;
const PROCESS_INPUT_DESCRIPTION =
  /\b(?:send|sends|sending|write|writes|writing|type|types|typing|pass|passes|feed|feeds)\b[^.]{0,40}?\b(?:input|text|keys|keystrokes|commands?|lines?|stdin)\b[^.]{0,20}?\b(?:to|into)\b[^.]{0,40}?\b(?:terminals?|shells?|repls?|consoles?|process(?:es)?|sessions?|ptys?|ttys?|stdin)\b/i;
/** Arguments that name the process rather than what is typed into it. */
const NOT_TYPED_WORDS = new Set(['id', 'pid', 'uuid', 'session', 'timeout', 'ms', 'encoding']);
/** Nouns that have validators of their own (SQL, code), so a run verb with them is not a command. */
const OWN_VALIDATOR_WORDS = new Set([
  ...SQL_WORDS,
  ...CODE_WORDS,
  ...PYTHON_WORDS,
  ...JAVASCRIPT_WORDS,
]);

/** Whether a tool's name alone says it runs shell commands (also used to call its arguments commands). */
export function nameSuggestsShell(toolName: string): boolean {
  const words = nameWords(toolName);
  return words.some((w) => SHELL_WORDS.has(w)) || (words.length === 1 && BARE_RUN.has(words[0]));
}

const REPL_WORDS = new Set(['repl', 'interpreter', 'jupyter', 'ipython']);

function nameSuggestsCode(words: string[]): boolean {
  if ((words.length === 1 && BARE_CODE.has(words[0])) || words.some((w) => REPL_WORDS.has(w)))
    return true;
  const runs = words.some((w) => RUN_VERBS.has(w));
  return (
    runs &&
    words.some(
      (w) => CODE_WORDS.has(w) || PYTHON_WORDS.has(w) || JAVASCRIPT_WORDS.has(w) || w === 'repl',
    )
  );
}

/** The code language a tool's name points at, if any (`run_python` → python, `eval_js` → javascript). */
export function languageFromName(toolName: string): 'python' | 'javascript' | undefined {
  const words = nameWords(toolName);
  if (words.some((w) => PYTHON_WORDS.has(w))) return 'python';
  if (words.some((w) => JAVASCRIPT_WORDS.has(w))) return 'javascript';
  return undefined;
}

function nameSuggestsReadQuery(words: string[], description: string): boolean {
  if (!words.some((w) => SQL_WORDS.has(w)) || words.some((w) => WRITE_WORDS.has(w))) return false;
  const onlySql = words.every((w) => SQL_WORDS.has(w));
  return onlySql || words.some((w) => READ_WORDS.has(w)) || READONLY_DESCRIPTION.test(description);
}

function propertiesOf(
  inputSchema: Record<string, unknown> | undefined,
): Record<string, { type?: unknown }> {
  const properties = inputSchema?.properties;
  return typeof properties === 'object' && properties !== null && !Array.isArray(properties)
    ? (properties as Record<string, { type?: unknown }>)
    : {};
}

function topProperties(inputSchema: Record<string, unknown> | undefined): string[] {
  return Object.keys(propertiesOf(inputSchema));
}

function stringProperties(inputSchema: Record<string, unknown> | undefined): string[] {
  return Object.entries(propertiesOf(inputSchema))
    .filter(([, schema]) => {
      const type = schema && typeof schema === 'object' ? schema.type : undefined;
      return (
        type === undefined || type === 'string' || (Array.isArray(type) && type.includes('string'))
      );
    })
    .map(([name]) => name);
}

/**
 * The top-level arguments that are typed into a running process or run as a command line, whatever
 * their names: the string arguments of a tool whose description says it sends input to a terminal,
 * shell, REPL or process (but not the ones naming the process: `pid`, `session_id`…); and, for a name
 * that is a run verb and a noun, the string argument named that noun (`run_task` → `task`).
 */
export function typedIntoProcess(
  toolName: string,
  description = '',
  inputSchema?: Record<string, unknown>,
): { properties: string[]; intoProcess: boolean } {
  const strings = stringProperties(inputSchema);
  if (PROCESS_INPUT_DESCRIPTION.test(description)) {
    const typed = strings.filter((p) => !nameWords(p).some((w) => NOT_TYPED_WORDS.has(w)));
    if (typed.length) return { properties: typed, intoProcess: true };
  }
  const words = nameWords(toolName);
  const nouns = words.filter((w) => !RUN_VERBS.has(w));
  if (!words.some((w) => RUN_VERBS.has(w)) || nouns.some((w) => OWN_VALIDATOR_WORDS.has(w)))
    return { properties: [], intoProcess: false };
  const named = strings.filter((p) => {
    const key = nameWords(p);
    return key.length === 1 && nouns.includes(key[0]);
  });
  return { properties: named, intoProcess: false };
}

/** MGP §17.2: validators for a tool whose server declared no `security`; [] when nothing fits. */
export function fallbackValidators(
  toolName: string,
  description = '',
  inputSchema?: Record<string, unknown>,
): ValidatorName[] {
  const words = nameWords(toolName);
  const properties = topProperties(inputSchema);
  const chosen = new Set<ValidatorName>();
  if (
    nameSuggestsShell(toolName) ||
    properties.some((p) => COMMAND_PROPERTY.test(p)) ||
    SHELL_DESCRIPTION.test(description)
  ) {
    chosen.add('sandbox');
  }
  if (
    nameSuggestsCode(words) ||
    properties.some((p) => CODE_PROPERTY.test(p)) ||
    CODE_DESCRIPTION.test(description)
  ) {
    chosen.add('code_safety');
  }
  const urlProperty = properties.some((p) => nameWords(p).some((w) => URL_PROPERTY_WORDS.has(w)));
  if (
    words.some((w) => NETWORK_WORDS.has(w)) ||
    urlProperty ||
    NETWORK_DESCRIPTION.test(description)
  ) {
    chosen.add('network_restricted');
  }
  if (nameSuggestsReadQuery(words, description)) chosen.add('readonly');
  const typed = typedIntoProcess(toolName, description, inputSchema);
  if (typed.properties.length) chosen.add('sandbox');
  // What is typed into a process may be a REPL's code as well as a shell's command line.
  if (typed.intoProcess) chosen.add('code_safety');
  const order: ValidatorName[] = ['sandbox', 'code_safety', 'network_restricted', 'readonly'];
  return order.filter((name) => chosen.has(name));
}
