import { posix } from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { NewServer } from './serverBlock';
import { uniqueServerId } from './serverBlock';
import type { TransportKind } from './types';

/**
 * VS Code's own MCP configuration, `.vscode/mcp.json`, translated into mgp.toml servers: `servers`
 * (stdio: `command`, `args`, `env`, `cwd`; http/sse: `url`, `headers`) and the `inputs` their values
 * refer to as `${input:ID}`. VS Code keeps input values in its secret storage; so does the kernel:
 * each becomes a `${secret:NAME}` reference whose value the editor asks for and stores, never the file.
 */
export interface McpJsonInput {
  id: string;
  /** The `${secret:NAME}` the input's references become. */
  secretName: string;
  description?: string;
  password: boolean;
  /** `pickString` inputs: the values to choose from. */
  options?: string[];
  default?: string;
}

export interface McpJsonImport {
  servers: NewServer[];
  /** The inputs the imported servers refer to, in the order they were first used. */
  inputs: McpJsonInput[];
  /** What was not carried over, one sentence each, naming the server and the key. */
  notes: string[];
  /** Why nothing could be read at all (the file does not parse, or has no servers). */
  error?: string;
}

export interface ImportOptions {
  /** Server ids already in mgp.toml: an imported server never takes one of them. */
  existingIds: ReadonlySet<string>;
}

const KNOWN_KEYS = new Set(['type', 'command', 'args', 'env', 'envFile', 'url', 'headers', 'cwd']);
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const VARIABLE = /\$\{([^}]*)\}/g;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function importVscodeMcpJson(text: string, options: ImportOptions): McpJsonImport {
  const errors: ParseError[] = [];
  const document: unknown = parse(text, errors, { allowTrailingComma: true });
  const result: McpJsonImport = { servers: [], inputs: [], notes: [] };
  if (errors.length > 0) {
    const { error, offset } = errors[0];
    const line = text.slice(0, offset).split('\n').length;
    return {
      ...result,
      error: `mcp.json does not parse: ${printParseErrorCode(error)} at line ${line}`,
    };
  }
  const servers = isObject(document) ? (document.servers ?? document.mcpServers) : undefined;
  if (!isObject(servers) || Object.keys(servers).length === 0)
    return { ...result, error: 'mcp.json lists no servers (no "servers" object)' };
  const inputs = declaredInputs(isObject(document) ? document.inputs : undefined, result.notes);
  const taken = new Set(options.existingIds);
  for (const [name, entry] of Object.entries(servers)) {
    if (!isObject(entry)) {
      result.notes.push(`"${name}" was not imported: it is not an object`);
      continue;
    }
    const server = translateServer(name, entry, inputs, result);
    if (!server) continue;
    server.id = uniqueServerId(name, taken);
    if (server.id !== name) result.notes.push(`"${name}" was imported as "${server.id}"`);
    result.servers.push(server);
  }
  return result;
}

function declaredInputs(value: unknown, notes: string[]): Map<string, McpJsonInput | string> {
  const inputs = new Map<string, McpJsonInput | string>();
  if (!Array.isArray(value)) return inputs;
  const names = new Set<string>();
  for (const input of value) {
    if (!isObject(input) || typeof input.id !== 'string') {
      notes.push('an input without an "id" was ignored');
      continue;
    }
    const type = input.type;
    if (type !== 'promptString' && type !== 'pickString') {
      // Kept as the reason, reported only if a server imported uses it.
      inputs.set(
        input.id,
        `input "${input.id}" is of type ${String(type)}, which cannot be asked here`,
      );
      continue;
    }
    let secretName = input.id.replace(/[^A-Za-z0-9_.-]/g, '_');
    if (!SECRET_NAME.test(secretName)) secretName = `_${secretName}`;
    for (let n = 2; names.has(secretName); n++) secretName = `${secretName}_${n}`;
    names.add(secretName);
    const options = Array.isArray(input.options)
      ? input.options.map((o) => (isObject(o) ? o.value : o)).filter((o) => typeof o === 'string')
      : undefined;
    inputs.set(input.id, {
      id: input.id,
      secretName,
      description: typeof input.description === 'string' ? input.description : undefined,
      password: input.password === true,
      options: type === 'pickString' ? options : undefined,
      default: typeof input.default === 'string' ? input.default : undefined,
    });
  }
  return inputs;
}

function transportOf(entry: Json): TransportKind | undefined {
  const type = entry.type;
  if (type === undefined) return typeof entry.command === 'string' ? 'stdio' : 'http';
  return type === 'stdio' || type === 'http' || type === 'sse' ? type : undefined;
}

function translateServer(
  name: string,
  entry: Json,
  inputs: Map<string, McpJsonInput | string>,
  result: McpJsonImport,
): NewServer | undefined {
  const transport = transportOf(entry);
  if (!transport) {
    result.notes.push(
      `"${name}" was not imported: type ${JSON.stringify(entry.type)} is not stdio, http or sse`,
    );
    return undefined;
  }
  const problems: string[] = [];
  const cwd = typeof entry.cwd === 'string' ? entry.cwd : undefined;
  const values = new ValueTranslator(cwd, inputs, result, problems);
  const server: NewServer = { id: name, transport };
  if (transport === 'stdio') {
    if (typeof entry.command !== 'string' || entry.command === '') {
      result.notes.push(`"${name}" was not imported: a stdio server needs a "command"`);
      return undefined;
    }
    server.command = values.text(entry.command);
    server.args = stringList(entry.args).map((arg) => values.text(arg));
    if (cwd !== undefined) server.cwd = values.cwd(cwd);
    server.env = values.map(entry.env, 'env');
  } else {
    if (typeof entry.url !== 'string' || entry.url === '') {
      result.notes.push(`"${name}" was not imported: a ${transport} server needs a "url"`);
      return undefined;
    }
    server.url = values.text(entry.url);
    server.headers = values.map(entry.headers, 'headers');
  }
  if (entry.envFile !== undefined)
    problems.push(
      '"envFile" is not read by MGP Kernel: copy the variables it needs into [servers.env]',
    );
  const other = Object.keys(entry).filter((key) => !KNOWN_KEYS.has(key));
  if (other.length) problems.push(`${other.map((k) => `"${k}"`).join(', ')} not imported`);
  result.notes.push(...problems.map((problem) => `"${name}": ${problem}`));
  return server;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Rewrites VS Code's `${…}` variables into the kernel's, noting the ones it cannot. */
class ValueTranslator {
  /** What `${workspaceFolder}` becomes: the server's folder is mgp.toml's unless `cwd` moves it. */
  private readonly workspaceFolder: string;
  private readonly inputs: Map<string, McpJsonInput | string>;
  private readonly result: McpJsonImport;
  private readonly problems: string[];

  constructor(
    cwd: string | undefined,
    inputs: Map<string, McpJsonInput | string>,
    result: McpJsonImport,
    problems: string[],
  ) {
    this.inputs = inputs;
    this.result = result;
    this.problems = problems;
    const inWorkspace = cwd?.match(/^\$\{workspaceFolder\}(\/.*)?$/);
    if (cwd === undefined) this.workspaceFolder = '.';
    else if (inWorkspace) {
      const below = posix.normalize(`.${inWorkspace[1] ?? ''}`);
      this.workspaceFolder = below === '.' ? '.' : posix.relative(below, '.') || '.';
    } else this.workspaceFolder = '${workspaceFolder}';
  }

  /** `cwd` itself is taken from mgp.toml's folder, which is the workspace folder. */
  cwd(value: string): string {
    return this.replace(value, '.');
  }

  text(value: string): string {
    return this.replace(value, this.workspaceFolder);
  }

  map(value: unknown, key: string): Record<string, string> | undefined {
    if (!isObject(value)) return undefined;
    const out: Record<string, string> = {};
    for (const [name, v] of Object.entries(value)) {
      if (typeof v === 'string') out[name] = this.text(v);
      else if (typeof v === 'number' || typeof v === 'boolean') out[name] = String(v);
      else this.problems.push(`${key}.${name} is not a string and was left out`);
    }
    return Object.keys(out).length ? out : undefined;
  }

  private replace(value: string, workspaceFolder: string): string {
    return value.replace(VARIABLE, (reference, variable: string) => {
      if (variable === 'workspaceFolder' && workspaceFolder !== '${workspaceFolder}')
        return workspaceFolder;
      if (variable === 'userHome') return '${HOME}';
      if (variable === 'pathSeparator' || variable === '/') return '/';
      const env = variable.match(/^env:([A-Za-z_][A-Za-z0-9_]*)$/);
      if (env) return `\${${env[1]}}`;
      const input = variable.match(/^input:(.+)$/);
      if (input) return this.input(input[1], reference);
      this.problems.push(`${reference} has no equivalent in mgp.toml and was kept as written`);
      return reference;
    });
  }

  private input(id: string, reference: string): string {
    const input = this.inputs.get(id);
    if (typeof input === 'string' || input === undefined) {
      this.problems.push(
        `${reference} was kept as written: ${input ?? `no input "${id}" is declared`}`,
      );
      return reference;
    }
    if (!this.result.inputs.includes(input)) this.result.inputs.push(input);
    return `\${secret:${input.secretName}}`;
  }
}
