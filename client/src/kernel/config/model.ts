import type { ConfigLocation } from './discover';

export type TransportKind = 'stdio' | 'http' | 'sse';
export type ProblemSeverity = 'error' | 'warning' | 'information';

/** A server as a config file declares it. Lines are 1-based, as people read them. */
export interface ConfiguredServer {
  id: string;
  transport: TransportKind;
  command?: string;
  args: string[];
  url?: string;
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
