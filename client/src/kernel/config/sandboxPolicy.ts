/**
 * The OS sandbox a stdio server runs in, as config decides it: `[kernel.sandbox]` (your files, then
 * workspace files that may only tighten it) under each server's `[servers.sandbox]`, and the MGP
 * `trust_level` (§2.3) giving the defaults their meaning: `sandboxed` is confined with no network and
 * never runs unconfined; `trusted`, in your own config, runs unconfined.
 */
import type { NetworkAccess, SandboxMode, SandboxPolicy, SandboxTable, TrustLevel } from './types';

type Table = Record<string, unknown>;

/**
 * What no config file needs to say. Secrets a rogue server would read first (keys, cloud and
 * registry credentials, keyrings, browser profiles) and the kernel's own state stay unreadable.
 * Paths that do not exist on a machine are skipped when the sandbox is built.
 */
export const DEFAULT_DENY_READ = [
  '~/.ssh',
  '~/.gnupg',
  '~/.aws',
  '~/.azure',
  '~/.config/gcloud',
  '~/.docker',
  '~/.kube',
  '~/.netrc',
  '~/.npmrc',
  '~/.pypirc',
  '~/.git-credentials',
  '~/.config/gh',
  '~/.password-store',
  '~/.local/share/keyrings',
  '~/.mozilla',
  '~/.config/google-chrome',
  '~/.config/chromium',
  '~/.config/BraveSoftware',
  '~/.config/microsoft-edge',
  '~/.local/state/mgp',
  // The file, not its folder: the folder is where its servers start by default.
  '~/.config/mgp/servers.toml',
  '~/Library/Keychains',
  '~/Library/Application Support/Google/Chrome',
  '~/Library/Application Support/Firefox',
  '~/Library/Cookies',
];

export const DEFAULT_SANDBOX: SandboxPolicy = {
  mode: 'auto',
  write: [],
  denyRead: DEFAULT_DENY_READ,
  allowRead: [],
  network: 'all',
  ports: [],
  domains: [],
};

const MODES: SandboxMode[] = ['off', 'auto', 'required'];
const NETWORKS: NetworkAccess[] = ['none', 'loopback', 'domains', 'all'];

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : undefined;
}

/** One `sandbox` table as written (already checked against the schema). */
export function sandboxTable(value: unknown): SandboxTable | undefined {
  if (!isTable(value)) return undefined;
  const table: SandboxTable = {};
  if (MODES.includes(value.mode as SandboxMode)) table.mode = value.mode as SandboxMode;
  if (NETWORKS.includes(value.network as NetworkAccess))
    table.network = value.network as NetworkAccess;
  table.write = strings(value.write);
  table.denyRead = strings(value.deny_read);
  table.allowRead = strings(value.allow_read);
  table.domains = strings(value.domains);
  if (Array.isArray(value.ports))
    table.ports = value.ports.filter((port): port is number => Number.isInteger(port));
  return Object.fromEntries(
    Object.entries(table).filter(([, v]) => v !== undefined),
  ) as SandboxTable;
}

/** Nearer first: each key from the first table that sets it. */
export function mergeSandboxTables(tables: (SandboxTable | undefined)[]): SandboxTable {
  const merged: SandboxTable = {};
  for (const table of [...tables].reverse()) Object.assign(merged, table ?? {});
  return merged;
}

export interface Tightening {
  table: SandboxTable;
  /** `sandbox.*` keys that would have loosened the base, and were left out. */
  ignored: string[];
}

const stricterMode = (a: SandboxMode, b: SandboxMode) =>
  MODES.indexOf(b) > MODES.indexOf(a) ? b : a;

/** Whether network `next` reaches nothing that `base` does not. */
function narrowerNetwork(base: SandboxPolicy, next: SandboxTable): boolean {
  const kind = next.network ?? base.network;
  const rank = NETWORKS.indexOf(kind) - NETWORKS.indexOf(base.network);
  if (rank !== 0) return rank < 0;
  if (kind === 'loopback') return (next.ports ?? []).every((p) => base.ports.includes(p));
  if (kind === 'domains') return (next.domains ?? []).every((d) => base.domains.includes(d));
  return true;
}

/**
 * A table from a file that is not yours, over what your config decided: only what confines more is
 * taken (a stricter mode, more denied paths, less network); more writable or readable paths never.
 */
export function tightenSandbox(base: SandboxPolicy, table: SandboxTable): Tightening {
  const out: SandboxTable = {};
  const ignored: string[] = [];
  if (table.mode) {
    out.mode = stricterMode(base.mode, table.mode);
    if (out.mode !== table.mode) ignored.push('sandbox.mode');
  }
  if (table.write?.length) ignored.push('sandbox.write');
  if (table.allowRead?.length) ignored.push('sandbox.allow_read');
  if (table.denyRead) out.denyRead = [...base.denyRead, ...table.denyRead];
  const networkKeys = table.network ?? table.ports ?? table.domains;
  if (networkKeys !== undefined) {
    if (narrowerNetwork(base, table)) {
      out.network = table.network ?? base.network;
      out.ports = table.ports ?? base.ports;
      out.domains = table.domains ?? base.domains;
    } else ignored.push('sandbox.network');
  }
  return { table: out, ignored };
}

/** A table's keys over a decided policy. */
export function applySandbox(base: SandboxPolicy, table: SandboxTable | undefined): SandboxPolicy {
  if (!table) return base;
  return {
    mode: table.mode ?? base.mode,
    write: table.write ?? base.write,
    denyRead: table.denyRead ? [...new Set([...base.denyRead, ...table.denyRead])] : base.denyRead,
    allowRead: table.allowRead ?? base.allowRead,
    network: table.network ?? base.network,
    ports: table.ports ?? base.ports,
    domains: table.domains ?? base.domains,
  };
}

/** MGP §2.3 trust levels as sandbox defaults, beneath anything a table says. */
function trustDefaults(base: SandboxPolicy, trust: TrustLevel | undefined, yours: boolean) {
  if (trust === 'sandboxed')
    return { ...base, mode: 'required' as const, network: 'none' as const };
  if (trust === 'trusted' && yours) return { ...base, mode: 'off' as const };
  return base;
}

export interface ServerSandboxInput {
  /** `[kernel.sandbox]`, merged (workspace files already only tightening it). */
  kernel: SandboxTable;
  server?: SandboxTable;
  trustLevel?: TrustLevel;
  /** Declared in your own config (not a workspace file, not registered at run time). */
  yours: boolean;
}

/** One server's sandbox: defaults, its trust level, the kernel's table, then its own. */
export function serverSandbox(input: ServerSandboxInput): Tightening & { policy: SandboxPolicy } {
  const base = trustDefaults(
    applySandbox(DEFAULT_SANDBOX, input.kernel),
    input.trustLevel,
    input.yours,
  );
  if (!input.server) return { policy: base, table: {}, ignored: [] };
  if (input.yours)
    return { policy: applySandbox(base, input.server), table: input.server, ignored: [] };
  const tightened = tightenSandbox(base, input.server);
  return { ...tightened, policy: applySandbox(base, tightened.table) };
}
