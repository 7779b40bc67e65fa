/**
 * `mgp audit`: read, export and verify a workspace's durable audit log (client/src/kernel/audit).
 *
 *     mgp audit tail [-n N] [--follow] [--json] [filters]
 *     mgp audit export --format jsonl|csv [--out FILE] [filters]
 *     mgp audit verify [--json]
 *
 * The log is found with `--dir DIR` (the log's directory itself) or `--cwd DIR` (a workspace folder,
 * default the current directory: its log is `$XDG_STATE_HOME/mgp/<name>-<hash>/audit`).
 * Filters: `--type T` (comma-separated for several), `--server S`, `--tool T`, `--result R` (any
 * case), `--trace ID`, `--since ISO` (inclusive), `--until ISO` (exclusive).
 *
 * Stable output for scripts:
 * - `tail --json` prints JSON Lines: one record per line, exactly as stored:
 *   `{"actor":{"id","type"},"details":{…},"event_type","prev_hash","result","seq","target":{"server_id"?,"tool_name"?},
 *   "timestamp","trace_id","hash"}`. With `--follow`, more lines follow as records are appended.
 * - `export --format jsonl` prints the same lines; `--format csv` prints RFC 4180 CSV with CRLF line
 *   ends and the header `seq,timestamp,event_type,actor_type,actor_id,server_id,tool_name,result,trace_id,details`
 *   (details as JSON with sorted keys).
 * - `verify --json` prints one object:
 *   `{"ok": boolean, "directory": string, "files": string[], "records": number, "first_seq": number|null,
 *   "last_seq": number|null, "head_hash": string|null, "problem": null | {"kind": string, "seq": number|null,
 *   "file": string|null, "line": number|null, "reason": string}, "notes": string[]}`
 *   where `file` is a name inside `directory`, `line` is 1-based, and `kind` is one of verify.ts's
 *   ChainProblemKind (`hash_mismatch`, `seq_gap`, `seq_out_of_order`, `chain_break`, `torn_line`,
 *   `missing_start`, `truncated`, `checkpoint_mismatch`, `unparseable`, `malformed`, `not_canonical`,
 *   `unreadable_anchor`, `missing_anchor`, `anchor_lost`).
 *
 * Exit status: 0 on success; 1 when `verify` finds the chain broken, or there is no log; 2 on bad usage.
 */
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AuditRecord } from '../kernel/audit/auditEvent';
import { canonicalJson } from '../kernel/audit/canonical';
import { recordLine } from '../kernel/audit/chain';
import { oneLine } from '@shared/untrustedText';
import { EXPORT_FORMATS, ExportFormat, exportRecords } from '../kernel/audit/export';
import { AuditFilter, compileFilter } from '../kernel/audit/filter';
import { auditDirectory } from '../kernel/audit/location';
import { followRecords, readRecords, tailRecords } from '../kernel/audit/reader';
import { verifyAuditLog, VerifyReport } from '../kernel/audit/verify';
import type { Io } from './io';
import { CommandLine, Flags, oneOf, parseCommandLine, UsageError, wholeNumber } from './flags';
import { JSON_FLAG } from './options';

export const AUDIT_USAGE = `Usage:
  mgp audit tail [-n N] [--follow] [--json] [filters]   the last N records (default 20); --follow waits for more
  mgp audit export --format jsonl|csv [--out FILE] [filters]
  mgp audit verify [--json]                            check the hash chain; exit 1 when it is broken
Location: --dir DIR (the log's directory) or --cwd DIR (the workspace folder; default: the current one).
Filters: --type T[,T…] --server S --tool T --result R --trace ID --since ISO --until ISO`;

export interface AuditCommandOptions {
  /** Ends `tail --follow` (which otherwise runs until the process is stopped). */
  signal?: AbortSignal;
  /** How often `--follow` looks for new records; 250 ms by default. */
  pollMs?: number;
  /** For `--cwd`: the environment and home directory that locate the log (process.env and homedir() by default). */
  env?: Record<string, string | undefined>;
  home?: string;
}

const LOCATION_FLAGS = {
  dir: { type: 'string', value: 'DIR' },
  cwd: { type: 'string', value: 'DIR' },
} as const;

const FILTER_FLAGS = {
  type: { type: 'string', value: 'T[,T…]' },
  server: { type: 'string', value: 'S' },
  tool: { type: 'string', value: 'T' },
  result: { type: 'string', value: 'R' },
  trace: { type: 'string', value: 'ID' },
  since: { type: 'string', value: 'ISO' },
  until: { type: 'string', value: 'ISO' },
} as const;

/** Each audit command's flags. */
const ACTIONS = {
  tail: {
    lines: { type: 'string', value: 'N', short: 'n' },
    follow: { type: 'boolean' },
    ...JSON_FLAG,
    ...FILTER_FLAGS,
    ...LOCATION_FLAGS,
  },
  export: {
    format: { type: 'string', value: 'jsonl|csv' },
    out: { type: 'string', value: 'FILE' },
    ...FILTER_FLAGS,
    ...LOCATION_FLAGS,
  },
  verify: { ...JSON_FLAG, ...LOCATION_FLAGS },
} as const satisfies Record<string, Flags>;

type Action = keyof typeof ACTIONS;

/** An audit command's flags, read once. */
interface AuditOptions {
  /** The log's directory: --dir, or the workspace's (--cwd, default the current folder). */
  dir: string;
  filter: AuditFilter;
  lines: number;
  follow: boolean;
  json: boolean;
  format: ExportFormat;
  out?: string;
}

type AnyAuditValues = CommandLine<typeof ACTIONS.tail & typeof ACTIONS.export>['values'];

function filterOf(values: AnyAuditValues): AuditFilter {
  const filter: AuditFilter = {
    types: values.type
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    serverId: values.server,
    toolName: values.tool,
    result: values.result,
    traceId: values.trace,
    since: values.since,
    until: values.until,
  };
  try {
    compileFilter(filter);
  } catch (error) {
    throw new UsageError(`--${error instanceof Error ? error.message : String(error)}`);
  }
  return filter;
}

function logDirectory(values: AnyAuditValues, options: AuditCommandOptions): string {
  if (values.dir) return resolve(values.dir);
  return auditDirectory({
    workspaceFolder: resolve(values.cwd ?? process.cwd()),
    env: options.env ?? process.env,
    home: options.home ?? homedir(),
  });
}

function auditOptions(
  { values, positionals }: CommandLine<Flags>,
  options: AuditCommandOptions,
): AuditOptions {
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const all = values as AnyAuditValues;
  return {
    dir: logDirectory(all, options),
    filter: filterOf(all),
    lines: wholeNumber('lines', all.lines, 20),
    follow: all.follow === true,
    json: all.json === true,
    format: oneOf('format', all.format, EXPORT_FORMATS) ?? 'jsonl',
    out: all.out,
  };
}

/** One record for people: seq, time, type, result, target, actor, trace id, details. */
export function formatRecord(record: AuditRecord): string {
  const target =
    [record.target?.server_id, record.target?.tool_name].filter(Boolean).join('/') || '-';
  return [
    String(record.seq),
    record.timestamp,
    record.event_type,
    record.result,
    target,
    `${record.actor?.type}:${record.actor?.id}`,
    record.trace_id,
  ]
    .map(oneLine)
    .concat(canonicalJson(record.details ?? {}))
    .join('\t');
}

async function tail(
  { dir, filter, lines, follow, json }: AuditOptions,
  io: Io,
  options: AuditCommandOptions,
): Promise<number> {
  const print = json
    ? (r: AuditRecord) => io.out(recordLine(r).slice(0, -1))
    : (r: AuditRecord) => io.out(formatRecord(r));
  const newest = (await tailRecords(dir, 1))[0]?.seq ?? 0;
  const records = await tailRecords(dir, lines, filter);
  records.forEach(print);
  if (!follow) return 0;
  const afterSeq = Math.max(newest, records[records.length - 1]?.seq ?? 0);
  for await (const record of followRecords(dir, filter, {
    afterSeq,
    signal: options.signal,
    pollMs: options.pollMs,
  }))
    print(record);
  return 0;
}

async function exportLog({ dir, filter, format, out }: AuditOptions, io: Io): Promise<number> {
  const records = readRecords(dir, filter);
  if (!out) {
    const data = io.data ?? ((chunk: string) => io.out(chunk.slice(0, -1)));
    await exportRecords(records, format, data);
    return 0;
  }
  const handle = await open(resolve(out), 'w');
  try {
    let buffered = '';
    const count = await exportRecords(records, format, async (chunk) => {
      buffered += chunk;
      if (buffered.length < 1 << 16) return;
      const text = buffered;
      buffered = '';
      await handle.write(text);
    });
    await handle.write(buffered);
    await handle.sync();
    io.err(`exported ${count} record(s) to ${resolve(out)}`);
  } finally {
    await handle.close();
  }
  return 0;
}

/** `verify --json`'s object (see the module comment). */
export function verifyJson(report: VerifyReport): Record<string, unknown> {
  const { ok, directory, files, records, firstSeq, lastSeq, headHash, problem, notes } = report;
  return {
    ok,
    directory,
    files,
    records,
    first_seq: firstSeq,
    last_seq: lastSeq,
    head_hash: headHash,
    problem,
    notes,
  };
}

async function verify({ dir, json }: AuditOptions, io: Io): Promise<number> {
  const report = await verifyAuditLog(dir);
  if (json) {
    io.out(JSON.stringify(verifyJson(report), null, 2));
    return report.ok ? 0 : 1;
  }
  for (const note of report.notes) io.err(`note: ${note}`);
  const p = report.problem;
  if (p) {
    const where = p.file ? `${join(dir, p.file)}${p.line ? `:${p.line}` : ''}` : dir;
    io.out(`audit log BROKEN at seq ${p.seq ?? '?'}: ${where}: ${p.reason} [${p.kind}]`);
    return 1;
  }
  const range = report.records
    ? ` (seq ${report.firstSeq}–${report.lastSeq}), head ${report.headHash}`
    : '';
  io.out(`audit log OK: ${report.records} record(s) in ${report.files.length} file(s)${range}`);
  return 0;
}

export async function runAudit(
  args: string[],
  io: Io,
  options: AuditCommandOptions = {},
): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out(AUDIT_USAGE);
    return command === undefined ? 2 : 0;
  }
  if (!(command in ACTIONS)) {
    io.err(`mgp audit: unknown command "${command}"\n\n${AUDIT_USAGE}`);
    return 2;
  }
  const action = command as Action;
  try {
    const line = parseCommandLine(`mgp audit ${action}`, rest, ACTIONS[action] as Flags);
    if (line.help) {
      io.out(AUDIT_USAGE);
      return 0;
    }
    const parsed = auditOptions(line, options);
    if (!existsSync(parsed.dir)) {
      io.err(`mgp audit: no audit log in ${parsed.dir}`);
      return 1;
    }
    if (action === 'tail') return await tail(parsed, io, options);
    if (action === 'export') return await exportLog(parsed, io);
    return await verify(parsed, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`mgp audit ${command}: ${error.message}\n\n${AUDIT_USAGE}`);
    return 2;
  }
}
