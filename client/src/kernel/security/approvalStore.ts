/**
 * The operator's standing decisions, kept on disk with atomic writes so a crash never loses or
 * half-writes them: "always allow this tool" answers, and answers to servers' permission requests
 * (MGP §3) with their expiry.
 */
import { join } from 'node:path';
import { JsonStore } from '../store/jsonStore';

export interface StandingToolApproval {
  server_id: string;
  tool_name: string;
  granted_by: string;
  granted_at: string;
}

export interface PermissionDecision {
  server_id: string;
  permission: string;
  decision: 'approved' | 'denied';
  decided_by: string;
  decided_at: string;
  expires_at?: string;
}

export interface ApprovalsDocument {
  version: 1;
  tools: StandingToolApproval[];
  permissions: PermissionDecision[];
}

function isDocument(value: unknown): value is ApprovalsDocument {
  const doc = value as ApprovalsDocument;
  return (
    typeof doc === 'object' &&
    doc !== null &&
    doc.version === 1 &&
    Array.isArray(doc.tools) &&
    Array.isArray(doc.permissions)
  );
}

export function approvalStore(
  stateDir: string,
  onCorrupt?: (message: string) => void,
): JsonStore<ApprovalsDocument> {
  return new JsonStore<ApprovalsDocument>({
    path: join(stateDir, 'approvals.json'),
    defaultValue: () => ({ version: 1, tools: [], permissions: [] }),
    validate: isDocument,
    onCorrupt: (report) =>
      onCorrupt?.(
        `approvals file was not readable (${report.reason}); kept aside as ${report.movedTo}`,
      ),
  });
}

/** A decision still in force at `now`. */
export function inForce(decision: { expires_at?: string }, now: number): boolean {
  return decision.expires_at === undefined || Date.parse(decision.expires_at) > now;
}
