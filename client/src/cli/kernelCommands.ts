import type { KernelConfig } from '../kernel/config/model';
import { environmentSecrets } from '../kernel/config/interpolate';
import { ServerManager } from '../kernel/serverManager';
import type { Io } from './io';
import { loadCliConfig, ParsedArgs, stringFlag } from './options';

/** Starts the servers a command needs (one with `--server`, else all), runs `work`, stops them. */
async function withServers<T>(parsed: ParsedArgs, io: Io, only: string | undefined, work: (manager: ServerManager, config: KernelConfig) => Promise<T>): Promise<{ result: T; failed: string[] }> {
  const config = await loadCliConfig(parsed);
  for (const problem of config.problems.filter((p) => p.severity === 'error')) io.err(`${problem.file}:${problem.line}:${problem.column}: error: ${problem.message}`);
  const chosen = only ? { ...config, servers: config.servers.filter((s) => s.id === only) } : config;
  if (only && chosen.servers.length === 0) throw new Error(`no server "${only}" is configured`);
  const manager = new ServerManager({ hostEnv: process.env, secrets: environmentSecrets(process.env) });
  manager.bus.on('log', (line) => {
    if (line.level === 'error' || line.level === 'warning') io.err(`[${line.server_id}] ${line.message}`);
  });
  try {
    await manager.reconcile(chosen);
    const failed = manager.list().filter((s) => s.state !== 'connected').map((s) => s.id);
    for (const id of failed) io.err(`${id}: ${manager.get(id).state}${manager.get(id).lastError ? `: ${manager.get(id).lastError}` : ''}`);
    return { result: await work(manager, chosen), failed };
  } finally {
    await manager.dispose();
  }
}

/** `mgp tools [--server ID] [--json]`: every tool under its kernel name. */
export async function runTools(parsed: ParsedArgs, io: Io): Promise<number> {
  const { result, failed } = await withServers(parsed, io, stringFlag(parsed, '--server'), async (manager) => manager.tools());
  if (parsed.flags.has('--json')) {
    io.out(JSON.stringify(result.map(({ qualifiedName, serverId, tool }) => ({ name: qualifiedName, server: serverId, tool: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations, security: tool.security, _mgp: tool._mgp })), null, 2));
  } else {
    for (const { qualifiedName, tool } of result) io.out(`${qualifiedName}${tool.description ? `\t${tool.description.split('\n')[0]}` : ''}`);
  }
  return failed.length ? 1 : 0;
}

/** `mgp call SERVER TOOL [--args JSON] [--json]`: exit 1 when the tool reports isError. */
export async function runCall(parsed: ParsedArgs, io: Io): Promise<number> {
  const [serverId, tool] = parsed.positional;
  if (!serverId || !tool) {
    io.err('mgp call: name a server and a tool, e.g. mgp call example echo --args \'{"text":"hi"}\'');
    return 2;
  }
  let args: Record<string, unknown> = {};
  const raw = stringFlag(parsed, '--args');
  if (raw) {
    try {
      args = JSON.parse(raw) as Record<string, unknown>;
    } catch (error) {
      io.err(`mgp call: --args is not JSON: ${error instanceof Error ? error.message : String(error)}`);
      return 2;
    }
  }
  const { result, failed } = await withServers(parsed, io, serverId, (manager) => (manager.get(serverId).state === 'connected' ? manager.callTool(serverId, tool, args) : Promise.resolve(undefined)));
  if (!result) return failed.length ? 1 : 0;
  if (parsed.flags.has('--json')) io.out(JSON.stringify(result, null, 2));
  else {
    for (const item of result.content ?? []) io.out(item.type === 'text' ? item.text : `[${item.type}${'mimeType' in item ? ` ${String(item.mimeType)}` : ''}]`);
    if (result.structuredContent) io.out(JSON.stringify(result.structuredContent, null, 2));
  }
  return result.isError ? 1 : 0;
}

/** `mgp resources [--server ID] [--json]` and `mgp prompts [--server ID] [--json]`. */
export async function runListing(kind: 'resources' | 'prompts', parsed: ParsedArgs, io: Io): Promise<number> {
  const { result, failed } = await withServers(parsed, io, stringFlag(parsed, '--server'), async (manager) =>
    manager.list().flatMap((server) => (kind === 'resources' ? server.resources : server.prompts).map((item) => ({ server: server.id, ...item }))));
  if (parsed.flags.has('--json')) io.out(JSON.stringify(result, null, 2));
  else for (const item of result) io.out(`${item.server}\t${'uri' in item ? String(item.uri) : item.name}${item.description ? `\t${item.description}` : ''}`);
  return failed.length ? 1 : 0;
}
