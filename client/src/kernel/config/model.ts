import type { RestartSettings } from '../lifecycle/restartPolicy';
import type { ConfigLocation } from './discover';

export type TransportKind = 'stdio' | 'http' | 'sse';
export type ProblemSeverity = 'error' | 'warning' | 'information';

/** How the kernel runs and talks to one server, with the defaults filled in. */
export interface ServerSettings {
  /** Variables to set, as written (`${VAR}` and `${secret:NAME}` are resolved at start). */
  env: Record<string, string>;
  /** Host variables passed through by name (OpenFang's `env = ["NAME"]`). */
  passEnv: string[];
  headers: Record<string, string>;
  /** Working folder for stdio servers: the config file's folder unless `cwd` says otherwise. */
  cwd: string;
  requestTimeoutMs: number;
  connectTimeoutMs: number;
  toolResultMaxChars: number;
  /** stdio framing: newline-delimited JSON (the SDK's), Content-Length (OpenFang's), or detected. */
  framing: 'auto' | 'newline' | 'content-length';
  /** Largest message accepted from the server, in bytes (default 10 MB). */
  maxMessageBytes?: number;
  restart: RestartSettings;
}

/** A server as a config file declares it. Lines are 1-based, as people read them. */
export interface ConfiguredServer {
  id: string;
  transport: TransportKind;
  command?: string;
  args: string[];
  url?: string;
  settings: ServerSettings;
  source: { file: string; line: number; format: ConfigLocation['format'] };
}

export interface ConfigProblem {
  file: string;
  line: number;
  column: number;
  key?: string;
  severity: ProblemSeverity;
  message: string;
}

export interface LoadedConfigFile {
  location: ConfigLocation;
  servers: ConfiguredServer[];
  problems: ConfigProblem[];
  /** A `config.toml` that is not OpenFang's (Cargo's, Hugo's…) is read but contributes nothing. */
  ignored: boolean;
}

export interface ShadowedServer {
  server: ConfiguredServer;
  winner: ConfiguredServer;
}

export interface KernelConfig {
  files: LoadedConfigFile[];
  /** The effective servers: for an id defined twice, the one from the nearer file. */
  servers: ConfiguredServer[];
  shadowed: ShadowedServer[];
  problems: ConfigProblem[];
}
