import { readFile } from 'node:fs/promises';
import { parse as parseToml, TomlError } from 'smol-toml';
import { looksLikeOpenFangConfig } from '../../../../shared/src/configFiles';
import { ConfigLocation, discoverConfigFiles, DiscoveryInputs } from './discover';
import {
  ConfigProblem,
  ConfiguredServer,
  KernelConfig,
  LoadedConfigFile,
  ShadowedServer,
  TransportKind,
} from './model';

type Table = Record<string, unknown>;

const TRANSPORTS: readonly TransportKind[] = ['stdio', 'http', 'sse'];

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** 1-based line numbers of each `[[name]]` header, in order, skipping comments. */
function arrayTableHeaderLines(text: string, name: string): number[] {
  const header = new RegExp(`^[ \\t]*\\[\\[[ \\t]*${name.replace('.', '\\.')}[ \\t]*\\]\\]`);
  const lines: number[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (header.test(line)) lines.push(index + 1);
  });
  return lines;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

interface RawServer {
  id: unknown;
  idKey: string;
  transport: unknown;
  command: unknown;
  args: unknown;
  url: unknown;
}

function rawMgpServer(table: Table): RawServer {
  return { id: table.id, idKey: 'id', transport: table.transport, command: table.command, args: table.args, url: table.url };
}

function rawOpenFangServer(table: Table): RawServer {
  const transport = isTable(table.transport) ? table.transport : {};
  return { id: table.name, idKey: 'name', transport: transport.type, command: transport.command, args: transport.args, url: transport.url };
}

function toServer(raw: RawServer, location: ConfigLocation, line: number, problems: ConfigProblem[]): ConfiguredServer | undefined {
  const problem = (key: string, message: string) =>
    problems.push({ file: location.path, line, column: 1, key, severity: 'error', message });
  const id = optionalString(raw.id);
  if (!id) {
    problem(raw.idKey, `server at line ${line} has no \`${raw.idKey}\``);
    return undefined;
  }
  const command = optionalString(raw.command);
  const url = optionalString(raw.url);
  const declared = optionalString(raw.transport);
  const transport = (declared ?? (url && !command ? 'http' : 'stdio')) as TransportKind;
  if (!TRANSPORTS.includes(transport)) {
    problem('transport', `server "${id}": transport must be one of ${TRANSPORTS.join(', ')}; got "${declared}"`);
    return undefined;
  }
  if (transport === 'stdio' && !command) problem('command', `server "${id}": a stdio server needs a \`command\``);
  if (transport !== 'stdio' && !url) problem('url', `server "${id}": a ${transport} server needs a \`url\``);
  return {
    id,
    transport,
    command,
    args: stringList(raw.args),
    url,
    source: { file: location.path, line, format: location.format },
  };
}

/** Reads one config file's text into the servers it declares and the problems found on the way. */
export function parseConfigText(text: string, location: ConfigLocation): LoadedConfigFile {
  const loaded: LoadedConfigFile = { location, servers: [], problems: [], ignored: false };
  if (location.format === 'openfang' && !looksLikeOpenFangConfig(text)) {
    loaded.ignored = true;
    return loaded;
  }
  let document: Table;
  try {
    document = parseToml(text) as Table;
  } catch (error) {
    const syntax = error instanceof TomlError ? error : undefined;
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    loaded.problems.push({
      file: location.path,
      line: syntax?.line ?? 1,
      column: syntax?.column ?? 1,
      severity: 'error',
      message: message.replace(/^Invalid TOML document: /, 'TOML syntax error: '),
    });
    return loaded;
  }
  const tableName = location.format === 'openfang' ? 'mcp_servers' : 'servers';
  const tables = document[tableName];
  if (tables === undefined) return loaded;
  if (!Array.isArray(tables)) {
    loaded.problems.push({ file: location.path, line: 1, column: 1, key: tableName, severity: 'error', message: `\`${tableName}\` must be an array of tables ([[${tableName}]])` });
    return loaded;
  }
  const lines = arrayTableHeaderLines(text, tableName);
  tables.forEach((table, index) => {
    if (!isTable(table)) return;
    const raw = location.format === 'openfang' ? rawOpenFangServer(table) : rawMgpServer(table);
    const server = toServer(raw, location, lines[index] ?? 1, loaded.problems);
    if (server) loaded.servers.push(server);
  });
  return loaded;
}

/** Merges files given nearest first: the same id in two files resolves to the nearer one. */
export function mergeConfigFiles(files: LoadedConfigFile[]): KernelConfig {
  const winners = new Map<string, ConfiguredServer>();
  const shadowed: ShadowedServer[] = [];
  const problems: ConfigProblem[] = files.flatMap((file) => file.problems);
  for (const file of files) {
    for (const server of file.servers) {
      const winner = winners.get(server.id);
      if (!winner) {
        winners.set(server.id, server);
        continue;
      }
      shadowed.push({ server, winner });
      if (winner.source.file === server.source.file) {
        problems.push({ file: server.source.file, line: server.source.line, column: 1, key: 'id', severity: 'error', message: `duplicate server id "${server.id}" (first defined at line ${winner.source.line})` });
      } else {
        problems.push({ file: server.source.file, line: server.source.line, column: 1, key: 'id', severity: 'information', message: `server "${server.id}" is overridden by ${winner.source.file}:${winner.source.line}` });
      }
    }
  }
  return { files, servers: [...winners.values()], shadowed, problems };
}

export async function loadKernelConfig(inputs: DiscoveryInputs): Promise<KernelConfig> {
  const locations = discoverConfigFiles(inputs);
  const files = await Promise.all(
    locations.map(async (location) => {
      try {
        return parseConfigText(await readFile(location.path, 'utf8'), location);
      } catch (error) {
        const message = `cannot read config file: ${error instanceof Error ? error.message : String(error)}`;
        return { location, servers: [], ignored: false, problems: [{ file: location.path, line: 1, column: 1, severity: 'error' as const, message }] };
      }
    }),
  );
  return mergeConfigFiles(files);
}
