/**
 * `[a2a]` as the kernel serves it (OpenFang, A2A Configuration): `enabled`, `listen_path`,
 * `listen_port` and `[[a2a.peers]]`, each peer a token and the identity `agent.a2a.<name>`. Only the
 * user's own files decide whether the kernel serves A2A and who may send it tasks: a workspace file's
 * keys are ignored, each named in a warning (a repository may not open a port or admit a caller).
 */
import { locate, type PointerMap, pointerOf } from '@shared/configCheck/pointers';
import { interpolate, type SecretSource } from './interpolate';
import type {
  A2aPeerSettings,
  A2aServeSettings,
  A2aServeTable,
  ConfigProblem,
  LoadedConfigFile,
} from './types';

type Table = Record<string, unknown>;

export const DEFAULT_A2A_SERVE: A2aServeSettings = {
  enabled: false,
  listenPath: '/a2a',
  listenPort: 0,
  peers: [],
};

const KEYS = ['enabled', 'listen_path', 'listen_port', 'peers'] as const;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lineOf(pointers: PointerMap, path: (string | number)[]): number {
  const at = locate(pointers, pointerOf(path), ['key', 'header']);
  return at ? at.start.line + 1 : 1;
}

/** The file's `[a2a]` serving keys; undefined when it sets none. Keys with errors are left out. */
export function a2aServeTable(
  value: Table,
  file: string,
  pointers: PointerMap,
  broken: (pointer: string) => boolean,
): A2aServeTable | undefined {
  const a2a = value.a2a;
  if (!isTable(a2a) || !KEYS.some((key) => key in a2a)) return undefined;
  const ok = (key: string) => key in a2a && !broken(pointerOf(['a2a', key]));
  const lines: Record<string, number> = {};
  for (const key of KEYS) if (key in a2a) lines[key] = lineOf(pointers, ['a2a', key]);
  const peers = Array.isArray(a2a.peers)
    ? a2a.peers.flatMap((peer, index): A2aPeerSettings[] => {
        if (!isTable(peer) || broken(pointerOf(['a2a', 'peers', index]))) return [];
        const { name, token } = peer;
        if (typeof name !== 'string' || typeof token !== 'string' || !name || !token) return [];
        const approves = peer.approves === true;
        return [{ name, token, approves, file, line: lineOf(pointers, ['a2a', 'peers', index]) }];
      })
    : [];
  return {
    ...(ok('enabled') && typeof a2a.enabled === 'boolean' && { enabled: a2a.enabled }),
    ...(ok('listen_path') &&
      typeof a2a.listen_path === 'string' && { listenPath: a2a.listen_path }),
    ...(ok('listen_port') &&
      typeof a2a.listen_port === 'number' && { listenPort: a2a.listen_port }),
    peers,
    lines,
  };
}

/**
 * The user's own files decide, the nearest first; every peer of theirs counts (a name twice: the
 * nearer). A workspace file's keys are named in a warning and ignored.
 */
export function mergedA2aServe(
  files: LoadedConfigFile[],
  problems: ConfigProblem[],
): A2aServeSettings {
  const settings: A2aServeSettings = { ...DEFAULT_A2A_SERVE, peers: [] };
  const decided = new Set<string>();
  for (const file of files) {
    const table = file.a2aServe;
    if (!table) continue;
    if (file.location.origin === 'workspace') {
      for (const [key, line] of Object.entries(table.lines))
        problems.push({
          file: file.location.path,
          line,
          column: 1,
          key: `a2a.${key}`,
          severity: 'warning',
          message: `a2a.${key} is ignored: only your own config may make the kernel serve A2A or name who may send it tasks, not a workspace file.`,
        });
      continue;
    }
    const take = <K extends keyof A2aServeSettings>(
      key: K,
      value: A2aServeSettings[K] | undefined,
    ) => {
      if (value === undefined || decided.has(key)) return;
      decided.add(key);
      settings[key] = value;
    };
    take('enabled', table.enabled);
    take('listenPath', table.listenPath);
    take('listenPort', table.listenPort);
    for (const peer of table.peers)
      if (!settings.peers.some((known) => known.name === peer.name)) settings.peers.push(peer);
  }
  return settings;
}

/** A peer as the server checks it: its resolved token. */
export interface A2aPeer {
  name: string;
  token: string;
  approves: boolean;
}

/**
 * The peers with their tokens resolved (`${secret:…}`, `${VAR}`); a peer whose token is missing or
 * empty is left out and named, so it can never be let in by an empty token.
 */
export async function resolvedPeers(
  peers: readonly A2aPeerSettings[],
  env: Readonly<Record<string, string | undefined>>,
  secrets: SecretSource,
): Promise<{ peers: A2aPeer[]; missing: string[] }> {
  const resolved: A2aPeer[] = [];
  const missing: string[] = [];
  for (const peer of peers) {
    const { value, missing: absent } = await interpolate(peer.token, env, secrets);
    if (absent.length || !value.trim())
      missing.push(
        `${peer.name} (${peer.file}:${peer.line}: ${absent.join(', ') || 'empty token'})`,
      );
    else resolved.push({ name: peer.name, token: value, approves: peer.approves });
  }
  return { peers: resolved, missing };
}
