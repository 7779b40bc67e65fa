import { relative, sep } from 'node:path';
import type { ConfigFileSummary, ServerSummary } from '@shared/aboutMessages';
import type { ConfiguredServer, KernelConfig } from './types';

export interface PathContext {
  workspaceFolders: readonly string[];
  home: string;
}

/** A path as a person wants to read it: relative to its workspace folder, or `~/…` under home. */
export function displayPath(path: string, context: PathContext): string {
  for (const folder of context.workspaceFolders) {
    const inside = relative(folder, path);
    if (inside && !inside.startsWith('..') && !inside.startsWith(sep)) return inside;
  }
  const inHome = relative(context.home, path);
  if (context.home && inHome && !inHome.startsWith('..')) return `~/${inHome}`;
  return path;
}

export function serverTarget(server: ConfiguredServer): string {
  if (server.transport === 'stdio') return [server.command ?? '', ...server.args].join(' ').trim();
  return server.url ?? '';
}

export function summarizeConfigFiles(
  config: KernelConfig,
  context: PathContext,
): ConfigFileSummary[] {
  return config.files
    .filter((file) => !file.ignored)
    .map((file) => {
      const firstError = file.problems.find((problem) => problem.severity === 'error');
      return {
        displayPath: displayPath(file.location.path, context),
        format: file.location.format,
        serverCount: file.servers.length,
        error: firstError ? `line ${firstError.line}: ${firstError.message}` : undefined,
      };
    });
}

export function summarizeServers(config: KernelConfig, context: PathContext): ServerSummary[] {
  const where = (server: ConfiguredServer) =>
    `${displayPath(server.source.file, context)}:${server.source.line}`;
  return [
    ...config.servers.map((server) => ({
      id: server.id,
      transport: server.transport,
      target: serverTarget(server),
      source: where(server),
    })),
    ...config.shadowed.map(({ server, winner }) => ({
      id: server.id,
      transport: server.transport,
      target: serverTarget(server),
      source: where(server),
      shadowedBy: where(winner),
    })),
  ];
}
