import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { looksLikeOpenFangConfig } from '@shared/configFiles';
import { checkParsed } from '@shared/configCheck/checkDocument';
import type { CheckDiagnostic } from '@shared/configCheck/diagnostic';
import { parseTomlDocument } from '@shared/configCheck/parse';
import { locate, PointerMap, pointerOf } from '@shared/configCheck/pointers';
import type { RuleEnvironment } from '@shared/configCheck/semantic/context';
import { defaultEnvironment } from '@shared/configCheck/semantic/environment';
import { ConfigLocation, discoverConfigFiles, DiscoveryInputs } from './discover';
import { agentServer } from './a2aAgents';
import { a2aServeTable, mergedA2aServe } from './a2aServe';
import { namedHostsOf } from './namedHosts';
import { kernelTable, mergeKernelSettings, serverPolicy } from './policy';
import { serverSandbox } from './sandboxPolicy';
import { tightenKernel } from './workspacePolicy';
import { applyManagedPolicy } from './applyManagedPolicy';
import { readManagedPolicy } from './managedPolicy';

const WORKSPACE_LOOSENS = 'semantic/workspace-loosens';
import { serverSettings } from './settings';
import {
  ConfigProblem,
  ConfiguredServer,
  KernelConfig,
  KernelSettings,
  LoadedConfigFile,
  ManagedPolicy,
  ShadowedServer,
  TransportKind,
} from './types';

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** `/servers/1/transport` → `servers[1].transport`, the way a person names a key. */
export function keyPathOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .reduce(
      (text, part) => (/^\d+$/.test(part) ? `${text}[${part}]` : text ? `${text}.${part}` : part),
      '',
    );
}

function toProblem(file: string, diagnostic: CheckDiagnostic): ConfigProblem {
  return {
    file,
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    key: diagnostic.path ? keyPathOf(diagnostic.path) || undefined : undefined,
    severity: diagnostic.severity,
    message: diagnostic.message,
  };
}

function serverFrom(
  table: Table,
  location: ConfigLocation,
): Omit<ConfiguredServer, 'source'> | undefined {
  const server = connectionFrom(table, location);
  return (
    server && {
      ...server,
      policy: serverPolicy(table, server.id, location.format),
      origin: 'config',
    }
  );
}

function connectionFrom(
  table: Table,
  location: ConfigLocation,
): Omit<ConfiguredServer, 'source' | 'policy'> | undefined {
  const format = location.format;
  const transportTable =
    format === 'openfang' && isTable(table.transport) ? table.transport : table;
  const id = optionalString(format === 'openfang' ? table.name : table.id);
  if (!id) return undefined;
  const command = optionalString(transportTable.command);
  const url = optionalString(transportTable.url);
  const declared = optionalString(format === 'openfang' ? transportTable.type : table.transport);
  const transport = (declared ?? (url && !command ? 'http' : 'stdio')) as TransportKind;
  const args = Array.isArray(transportTable.args)
    ? transportTable.args.filter((a): a is string => typeof a === 'string')
    : [];
  return { id, transport, command, args, url, settings: serverSettings(table, location) };
}

/**
 * Reads one config file with the same checker the language server and `mgp check` use (one source of
 * truth). A server whose table has an error is not loaded; its problems say why, with file, line and key.
 */
export function parseConfigText(
  text: string,
  location: ConfigLocation,
  environment?: RuleEnvironment,
): LoadedConfigFile {
  const loaded: LoadedConfigFile = { location, servers: [], problems: [], ignored: false };
  if (location.format === 'openfang' && !looksLikeOpenFangConfig(text)) {
    loaded.ignored = true;
    return loaded;
  }
  const parsed = parseTomlDocument(text);
  const { diagnostics, pointers } = checkParsed(location.format, parsed, text, {
    path: location.path,
    environment: environment ?? defaultEnvironment(dirname(location.path)),
  });
  // Which workspace keys loosen the user's settings is judged against them at merge (mergedKernel).
  loaded.problems = diagnostics
    .filter((d) => d.code !== WORKSPACE_LOOSENS)
    .map((d) => toProblem(location.path, d));
  loaded.readable = parsed.ok && pointers !== undefined;
  if (!parsed.ok || !pointers) return loaded;
  loaded.rejected = [];
  if (location.format === 'mgp') {
    if (!diagnostics.some((d) => d.severity === 'error' && d.path?.startsWith('/kernel'))) {
      loaded.kernel = kernelTable(parsed.value.kernel);
      loaded.kernelLines = kernelLines(pointers);
    } else loaded.kernelRejected = true;
  }
  const listKey = location.format === 'openfang' ? 'mcp_servers' : 'servers';
  const tables = parsed.value[listKey];
  addExternalAgents(loaded, parsed.value, diagnostics, pointers);
  loaded.a2aServe = a2aServeTable(parsed.value, location.path, pointers, (pointer) =>
    diagnostics.some(
      (d) =>
        d.severity === 'error' &&
        d.path !== undefined &&
        (d.path === pointer || d.path.startsWith(`${pointer}/`)),
    ),
  );
  if (!Array.isArray(tables)) return loaded;
  tables.forEach((table, index) => {
    if (!isTable(table)) return void loaded.rejected?.push({ index });
    const prefix = pointerOf([listKey, index]);
    const broken = diagnostics.some(
      (d) =>
        d.severity === 'error' &&
        d.path !== undefined &&
        (d.path === prefix || d.path.startsWith(`${prefix}/`)),
    );
    const server = serverFrom(table, location);
    if (!server || broken) {
      loaded.rejected?.push({ index, id: server?.id ?? optionalString(table.id ?? table.name) });
      return;
    }
    loaded.servers.push({
      ...server,
      source: {
        file: location.path,
        line: headerLine(pointers, prefix),
        format: location.format,
        origin: location.origin,
      },
    });
  });
  return loaded;
}

/** `[[a2a.external_agents]]`: each agent without an error is a server `a2a.<name>` (a2aAgents.ts). */
function addExternalAgents(
  loaded: LoadedConfigFile,
  value: Table,
  diagnostics: CheckDiagnostic[],
  pointers: PointerMap,
): void {
  const agents = isTable(value.a2a) ? value.a2a.external_agents : undefined;
  if (!Array.isArray(agents)) return;
  agents.forEach((table, index) => {
    const prefix = pointerOf(['a2a', 'external_agents', index]);
    const broken = diagnostics.some(
      (d) =>
        d.severity === 'error' &&
        d.path !== undefined &&
        (d.path === prefix || d.path.startsWith(`${prefix}/`)),
    );
    const server = isTable(table)
      ? agentServer(table, loaded.location, headerLine(pointers, prefix))
      : undefined;
    if (server && !broken) loaded.servers.push(server);
  });
}

const GUARDING_KERNEL_KEYS = [
  'approval_policy',
  'default_access_policy',
  'moderate_tools_require_approval',
  'access_grants',
  'tool_creation',
  'keep_registered_servers',
  'private_hosts',
  'audit.retention',
  'audit.postgres',
  'sandbox.mode',
  'sandbox.write',
  'sandbox.allow_read',
  'sandbox.network',
];

function kernelLines(pointers: PointerMap): Record<string, number> {
  const lines: Record<string, number> = {};
  for (const key of GUARDING_KERNEL_KEYS) {
    const at = locate(pointers, pointerOf(['kernel', ...key.split('.')]), ['key', 'header']);
    if (at) lines[key] = at.start.line + 1;
  }
  return lines;
}

/**
 * The user's own files set the kernel's settings (nearest first); a workspace file's `[kernel]` then
 * only tightens them, and each key it would have loosened is named in a warning.
 */
function mergedKernel(files: LoadedConfigFile[], problems: ConfigProblem[]) {
  let settings = mergeKernelSettings(
    files.filter((f) => f.location.origin !== 'workspace').map((f) => f.kernel),
  );
  const workspace = files.filter((f) => f.location.origin === 'workspace' && f.kernel);
  for (const file of workspace.reverse()) {
    const tightened = tightenKernel(settings, file.kernel ?? {});
    settings = tightened.settings;
    for (const key of tightened.ignored)
      problems.push({
        file: file.location.path,
        line: file.kernelLines?.[key] ?? 1,
        column: 1,
        key: `kernel.${key}`,
        severity: 'warning',
        message: `kernel.${key} is ignored: a workspace file may only tighten the user's security settings, not loosen them.`,
      });
  }
  return settings;
}

function headerLine(pointers: PointerMap, pointer: string): number {
  return (locate(pointers, pointer, ['header', 'key'])?.start.line ?? 0) + 1;
}

/**
 * Merges files given nearest first: the same id in two files resolves to the nearer one. The
 * machine's managed policy, when given, applies over the result (applyManagedPolicy.ts).
 */
export function mergeConfigFiles(files: LoadedConfigFile[], managed?: ManagedPolicy): KernelConfig {
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
      // Duplicates within one file are the checker's error; across files the nearer one wins.
      if (winner.source.file === server.source.file) continue;
      shadowed.push({ server, winner });
      problems.push({
        file: server.source.file,
        line: server.source.line,
        column: 1,
        key: 'id',
        severity: 'information',
        message: `server "${server.id}" is overridden by ${winner.source.file}:${winner.source.line}`,
      });
    }
  }
  const kernel = mergedKernel(files, problems);
  const a2aServe = mergedA2aServe(files, problems);
  const originOf = new Map(files.map((file) => [file.location.path, file.location.origin]));
  const servers = [...winners.values()].map((server) => {
    const origin = originOf.get(server.source.file) ?? 'workspace';
    const namedHosts = namedHostsOf(server, origin, kernel.privateHosts);
    const sandboxed = withSandbox(server, kernel, problems);
    return namedHosts.length ? { ...sandboxed, namedHosts } : sandboxed;
  });
  return applyManagedPolicy({ files, servers, shadowed, problems, kernel, a2aServe }, managed);
}

/** The server's effective sandbox; what a workspace file would have loosened is named in a warning. */
function withSandbox(
  server: ConfiguredServer,
  kernel: KernelSettings,
  problems: ConfigProblem[],
): ConfiguredServer {
  const decided = serverSandbox({
    kernel: kernel.sandbox,
    server: server.policy.sandbox,
    trustLevel: server.policy.trustLevel,
    yours: server.source.origin !== 'workspace',
  });
  for (const key of decided.ignored)
    problems.push({
      file: server.source.file,
      line: server.source.line,
      column: 1,
      key: `servers.${key}`,
      severity: 'warning',
      message: `servers.${key} of "${server.id}" is ignored: a workspace file may only tighten the sandbox, not loosen it.`,
    });
  return { ...server, settings: { ...server.settings, sandbox: decided.policy } };
}

/** Every config file that exists, merged, under the machine's managed policy. */
export async function loadKernelConfig(
  inputs: DiscoveryInputs & { platform?: string },
): Promise<KernelConfig> {
  const locations = discoverConfigFiles(inputs);
  const managed = readManagedPolicy(inputs);
  const files = await Promise.all(
    locations.map(async (location) => {
      try {
        return parseConfigText(
          await readFile(location.path, 'utf8'),
          location,
          defaultEnvironment(dirname(location.path), inputs.env),
        );
      } catch (error) {
        const message = `cannot read config file: ${error instanceof Error ? error.message : String(error)}`;
        return {
          location,
          servers: [],
          ignored: false,
          readable: false,
          problems: [
            { file: location.path, line: 1, column: 1, severity: 'error' as const, message },
          ],
        };
      }
    }),
  );
  return mergeConfigFiles(files, await managed);
}
