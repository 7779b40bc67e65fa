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
 *
 * A tool can get several validators (`run_shell_script` → sandbox and code_safety); [] means none.
 *
 * `language` for code_safety is not part of the result: the validator guesses it from the tool name
 * (`run_python` → python) when the declaration has none, and from the code after that.
 */
import type { ValidatorName } from '../../model/security';
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

function topProperties(inputSchema: Record<string, unknown> | undefined): string[] {
  const properties = inputSchema?.properties;
  return typeof properties === 'object' && properties !== null && !Array.isArray(properties)
    ? Object.keys(properties)
    : [];
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
  const order: ValidatorName[] = ['sandbox', 'code_safety', 'network_restricted', 'readonly'];
  return order.filter((name) => chosen.has(name));
}
