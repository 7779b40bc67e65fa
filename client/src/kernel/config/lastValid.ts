/**
 * A config file being edited is often invalid for a moment: a half-typed string, a key still being
 * spelled. Such a file must not stop servers that run from it. `LastValidConfig` remembers, per file,
 * its last version that said something valid, and stands in with it:
 * - a file that cannot be read or is not valid TOML keeps all its servers and `[kernel]` settings;
 * - a server table with errors keeps that server's last valid settings (matched by id, or by its
 *   position when the id itself is what is broken), and a broken `[kernel]` table keeps the last
 *   valid one; the rest of the file applies.
 * The file's problems are always the current ones, so the error shows where it is.
 */
import { mergeConfigFiles } from './load';
import type { ConfiguredServer, KernelConfig, LoadedConfigFile } from './types';

export class LastValidConfig {
  /** Per file path: the last version applied (itself patched from the one before, when it had errors). */
  private readonly files = new Map<string, LoadedConfigFile>();

  /** The config to apply: `config` with the last valid parts standing in for broken ones. */
  apply(config: KernelConfig): KernelConfig {
    const present = new Set(config.files.map((file) => file.location.path));
    for (const path of this.files.keys()) if (!present.has(path)) this.files.delete(path);
    const files = config.files.map((file) => {
      const applied = this.standIn(file, this.files.get(file.location.path));
      if (!applied.ignored) this.files.set(file.location.path, applied);
      return applied;
    });
    return files.some((file) => file.kept) ? mergeConfigFiles(files, config.managed) : config;
  }

  /** Forgets every file (e.g. when the workspace folders change). */
  clear(): void {
    this.files.clear();
  }

  private standIn(file: LoadedConfigFile, last: LoadedConfigFile | undefined): LoadedConfigFile {
    if (!last || file.ignored) return file;
    if (file.readable === false) {
      if (last.servers.length === 0 && !last.kernel) return file;
      return {
        ...file,
        servers: last.servers,
        kernel: last.kernel,
        kept: { servers: last.servers.map((s) => s.id), kernel: !!last.kernel, wholeFile: true },
      };
    }
    const servers = keptServers(file, last);
    const keepKernel = file.kernelRejected === true && last.kernel !== undefined;
    if (servers.kept.length === 0 && !keepKernel) return file;
    return {
      ...file,
      servers: servers.all,
      kernel: keepKernel ? last.kernel : file.kernel,
      kept: { servers: servers.kept, kernel: keepKernel, wholeFile: false },
    };
  }
}

/** The file's valid servers, with the last valid version of each rejected one put back in its place. */
function keptServers(
  file: LoadedConfigFile,
  last: LoadedConfigFile,
): { all: ConfiguredServer[]; kept: string[] } {
  const all = [...file.servers];
  const kept: string[] = [];
  const taken = new Set(file.servers.map((s) => s.id));
  let skipped = 0;
  for (const rejected of [...(file.rejected ?? [])].sort((a, b) => a.index - b.index)) {
    const previous = previousVersion(rejected, last);
    if (!previous || taken.has(previous.id)) {
      skipped++;
      continue;
    }
    taken.add(previous.id);
    kept.push(previous.id);
    all.splice(rejected.index - skipped, 0, previous);
  }
  return { all, kept };
}

function previousVersion(
  rejected: { index: number; id?: string },
  last: LoadedConfigFile,
): ConfiguredServer | undefined {
  if (rejected.id !== undefined) return last.servers.find((s) => s.id === rejected.id);
  return last.servers[rejected.index];
}
