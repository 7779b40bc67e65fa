import type { LoggingLevel, Root } from '@modelcontextprotocol/sdk/types.js';
import type { AuditSink } from './audit/auditSink';
import type { Authorizations } from './auth/authorizations';
import type { SecretSource } from './config/interpolate';
import type { ConfiguredServer } from './config/types';
import type { Caller } from './domain/caller';
import type { ClientHintsChoice } from './drafts/resourceHints';
import type { Interaction } from './host/interaction';
import type { ValidatorOptions } from './security/validators';

/** What a front end gives the kernel it builds: its way of asking, its audit trail, its state folder. */
export interface KernelOptions {
  hostEnv: Readonly<Record<string, string | undefined>>;
  secrets: SecretSource;
  interaction: Interaction;
  audit: AuditSink;
  /** Where grants and approvals are kept (per workspace). */
  stateDir: string;
  /** Who is at the keyboard: decisions are made in their name. */
  operator: Caller;
  roots?: () => Root[];
  mayStart?: (server: ConfiguredServer) => true | string;
  logLevel?: LoggingLevel;
  /** Whether a server's protocol trace is wanted now (e.g. its log channel is at the Trace level). */
  trace?: (serverId: string) => boolean;
  validatorOptions?: ValidatorOptions;
  /** Where servers registered at run time run (the workspace folder); the state folder when left out. */
  workingFolder?: string;
  /** Told the secrets among resolved env and header values (config/secretLike.ts), so the audit trail can redact them. */
  onSecrets?(values: string[]): void;
  /** OAuth sign-in for http and sse servers (MCP 2025-11-25, Authorization). */
  authorization?: Authorizations;
  /** MCP draft §5: whether the user turned client resource hints on (their own settings only). */
  clientHints?: () => ClientHintsChoice;
}
