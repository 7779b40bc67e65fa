/** The durable audit trail (MGP §6, §19.4): import from here. */
export {
  STANDARD_EVENT_TYPES,
  newTraceId,
  isStandardEventType,
  isValidEventType,
} from './auditEvent';
export type {
  ActorType,
  AuditEvent,
  AuditEventInput,
  AuditRecord,
  StandardEventType,
} from './auditEvent';
export { AuditLog, DEFAULT_CHECKPOINT_MS, DEFAULT_ROTATE_BYTES } from './auditLog';
export type { AuditLogOptions, Disposable } from './auditLog';
export { ANCHOR_FILE } from './anchor';
export type { ChainAnchor } from './anchor';
export { canonicalJson } from './canonical';
export { GENESIS_HASH, checkLine, recordLine, sealRecord } from './chain';
export type { ChainLink } from './chain';
export { AuditError } from './errors';
export type { AuditErrorCode } from './errors';
export {
  CSV_COLUMNS,
  EXPORT_FORMATS,
  csvField,
  csvHeader,
  csvRow,
  exportLine,
  exportRecords,
} from './export';
export type { ExportFormat } from './export';
export { compileFilter } from './filter';
export type { AuditFilter } from './filter';
export { auditDirectory, stateDirectory, workspaceKey } from './location';
export type { StateLocation } from './location';
export { LOCK_FILE, lockHolder } from './lock';
export { followRecords, readRecords, tailRecords } from './reader';
export type { FollowOptions, ReadOptions } from './reader';
export { CREDENTIAL_KEYS, MIN_SECRET_LENGTH, REDACTED, Redactor } from './redact';
export { KEEP_ALL, filesToPrune } from './retention';
export type { RetentionPolicy } from './retention';
export { segmentName } from './segments';
export { verifyAuditLog } from './verify';
export type { ChainProblem, ChainProblemKind, VerifyReport } from './verify';
