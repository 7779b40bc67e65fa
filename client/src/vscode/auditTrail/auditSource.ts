/**
 * What the Audit Trail panel shows: the kernel's own trail (live: new records arrive as they become
 * durable), or another log's folder opened read-only (an archived log, another window's), which is
 * looked at again every few seconds while the panel is open.
 */
import { basename, dirname } from 'node:path';
import type { AuditSourceInfo } from '@shared/auditMessages';
import {
  anchorKey,
  AnchorKeyStore,
  type AuditFilter,
  type AuditTrail,
  type ExportFormat,
  exportRecords,
  readRecords,
  verifyAuditLog,
  VerifyReport,
} from '../../kernel';

export interface AuditSource {
  readonly info: AuditSourceInfo;
  readonly directory: string;
  /** The last durable seq: records past it are not shown yet. */
  maxSeq(): number;
  /** Called when new records may be on disk; returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
  verify(): Promise<VerifyReport>;
  /** Where this host keeps its keys: the seal's, and those of encrypted exports (MCP draft §3). */
  readonly keys?: AnchorKeyStore;
  export(
    format: ExportFormat,
    write: (chunk: string) => void | Promise<void>,
    filter: AuditFilter,
  ): Promise<number>;
}

export function trailSource(trail: AuditTrail, keys?: AnchorKeyStore): AuditSource {
  const log = trail.log;
  return {
    keys,
    info: {
      name: 'workspace',
      label: 'Workspace audit trail',
      directory: log.directory,
      live: true,
    },
    directory: log.directory,
    maxSeq: () => log.lastDurable.seq,
    onChange: (listener) => trail.onRecord(() => listener()),
    verify: () => log.verify(),
    export: (format, write, filter) => log.export(format, write, filter),
  };
}

const POLL_MS = 2000;

/** `keys`: where this host keeps logs' keys, to check chain.json's seal (looked up, never made). */
export function directorySource(directory: string, keys?: AnchorKeyStore): AuditSource {
  const name = basename(directory) === 'audit' ? basename(dirname(directory)) : basename(directory);
  return {
    keys,
    info: { name, label: `Audit log ${name} (read-only)`, directory, live: false },
    directory,
    maxSeq: () => Infinity,
    onChange: (listener) => {
      const timer = setInterval(listener, POLL_MS);
      return () => clearInterval(timer);
    },
    verify: async () =>
      verifyAuditLog(directory, keys ? { key: await anchorKey(keys, directory, false) } : {}),
    export: (format, write, filter) => exportRecords(readRecords(directory, filter), format, write),
  };
}
