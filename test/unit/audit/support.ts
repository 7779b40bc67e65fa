import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditEventInput, AuditRecord } from '../../../client/src/kernel/audit/auditEvent';
import { AuditLog, AuditLogOptions } from '../../../client/src/kernel/audit/auditLog';
import { readRecords } from '../../../client/src/kernel/audit/reader';

export function tempDir(prefix = 'mgp-audit-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A realistic TOOL_EXECUTED event; `i` varies server, tool, result and details. */
export function sampleEvent(i: number, overrides: Partial<AuditEventInput> = {}): AuditEventInput {
  return {
    event_type: i % 7 === 3 ? 'TOOL_BLOCKED' : 'TOOL_EXECUTED',
    actor: { type: 'agent', id: `agent.${i % 3}` },
    target: { server_id: `server.${i % 4}`, tool_name: i % 2 ? 'read_file' : 'execute_command' },
    result: i % 7 === 3 ? 'BLOCKED' : 'SUCCESS',
    trace_id: `trace-${i}`,
    details: {
      i,
      risk_level: 'moderate',
      duration_ms: i * 3,
      arguments: { path: `/srv/project/file-${i}.txt` },
    },
    ...overrides,
  };
}

/** Opens a log in `dir`, appends `count` sample events, closes it. */
export async function writeLog(
  dir: string,
  count: number,
  options: Partial<AuditLogOptions> = {},
): Promise<void> {
  const log = await AuditLog.open({ directory: dir, ...options });
  await Promise.all(Array.from({ length: count }, (_, i) => log.append(sampleEvent(i + 1))));
  await log.close();
}

export function fileLines(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
}

export function writeLines(path: string, lines: string[]): void {
  writeFileSync(path, lines.map((l) => `${l}\n`).join(''));
}

/** A controllable clock (ms since the epoch). */
export function fakeClock(start = Date.parse('2026-01-01T00:00:00.000Z')): {
  now: () => number;
  advance(ms: number): void;
} {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

export const DAY = 86_400_000;

/** Every record in the log's files, oldest first. */
export async function onDisk(dir: string): Promise<AuditRecord[]> {
  const records: AuditRecord[] = [];
  for await (const record of readRecords(dir)) records.push(record);
  return records;
}
