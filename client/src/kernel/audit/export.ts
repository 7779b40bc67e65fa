/**
 * Exporting records as JSON Lines (each line exactly as the log stores it, so an export can be
 * verified record by record) or as CSV (RFC 4180: comma-separated, CRLF line ends, a field quoted
 * when it holds a comma, a double quote, CR or LF, and a double quote inside written twice).
 *
 * CSV is opened in spreadsheets, which evaluate a cell that starts with `=`, `+`, `-`, `@`, a tab
 * or a carriage return as a formula; tool names, results and ids come from servers. Such a field
 * gets a leading `'`, the usual defence (OWASP, "CSV Injection"): the cell shows as text.
 */
import type { AuditRecord } from './auditEvent';
import { canonicalJson } from './canonical';
import { recordLine } from './chain';

export type ExportFormat = 'jsonl' | 'csv';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'csv'];

export const CSV_COLUMNS = [
  'seq',
  'timestamp',
  'event_type',
  'actor_type',
  'actor_id',
  'server_id',
  'tool_name',
  'result',
  'trace_id',
  'details',
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: text to a spreadsheet, never a formula; quoted when it must be. */
export function csvField(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV row (without its line end) for `record`; details as canonical JSON. */
export function csvRow(record: AuditRecord): string {
  const fields = [
    String(record.seq),
    record.timestamp,
    record.event_type,
    record.actor?.type ?? '',
    record.actor?.id ?? '',
    record.target?.server_id ?? '',
    record.target?.tool_name ?? '',
    record.result,
    record.trace_id,
    canonicalJson(record.details ?? {}),
  ];
  return fields.map(csvField).join(',');
}

export function csvHeader(): string {
  return CSV_COLUMNS.join(',');
}

/** One exported line, without its line end. */
export function exportLine(record: AuditRecord, format: ExportFormat): string {
  return format === 'csv' ? csvRow(record) : recordLine(record).slice(0, -1);
}

/**
 * Writes `records` to `write`, one call per line, each with its line end ("\n" for JSONL, "\r\n" for
 * CSV, after a header row). Returns how many records were written.
 */
export async function exportRecords(
  records: AsyncIterable<AuditRecord>,
  format: ExportFormat,
  write: (chunk: string) => void | Promise<void>,
): Promise<number> {
  const end = format === 'csv' ? '\r\n' : '\n';
  if (format === 'csv') await write(`${csvHeader()}${end}`);
  let count = 0;
  for await (const record of records) {
    await write(`${exportLine(record, format)}${end}`);
    count++;
  }
  return count;
}
