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
import { parseArgs, ParsedArgs, stringFlag } from './options';

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

class UsageError extends Error {}

const LOCATION = ['--dir', '--cwd'];
const FILTERS = ['--type', '--server', '--tool', '--result', '--trace', '--since', '--until'];
const ALLOWED: Record<string, string[]> = {
  tail: [...LOCATION, ...FILTERS, '--lines', '--follow', '--json'],
  export: [...LOCATION, ...FILTERS, '--format', '--out'],
  verify: [...LOCATION, '--json'],
};

function parse(command: string, args: string[]): ParsedArgs {
  const normalized = args.map((arg) => (arg === '-n' ? '--lines' : arg));
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(normalized, ['--json', '--help', '--follow']);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const unknown = [...parsed.flags.keys()].find((flag) => !ALLOWED[command].includes(flag));
  if (unknown)
    throw new UsageError(
      `unknown option ${unknown === '--lines' ? '-n' : unknown} for "mgp audit ${command}"`,
    );
  if (parsed.positional.length)
    throw new UsageError(`unexpected argument "${parsed.positional[0]}"`);
  return parsed;
}

function filterOf(parsed: ParsedArgs): AuditFilter {
  const types = stringFlag(parsed, '--type')
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const filter: AuditFilter = {
    types,
    serverId: stringFlag(parsed, '--server'),
    toolName: stringFlag(parsed, '--tool'),
    result: stringFlag(parsed, '--result'),
    traceId: stringFlag(parsed, '--trace'),
    since: stringFlag(parsed, '--since'),
    until: stringFlag(parsed, '--until'),
  };
  try {
    compileFilter(filter);
  } catch (error) {
    throw new UsageError(`--${error instanceof Error ? error.message : String(error)}`);
  }
  return filter;
}

function logDirectory(parsed: ParsedArgs, options: AuditCommandOptions): string {
  const dir = stringFlag(parsed, '--dir');
  if (dir) return resolve(dir);
  const workspaceFolder = resolve(stringFlag(parsed, '--cwd') ?? process.cwd());
  return auditDirectory({
    workspaceFolder,
    env: options.env ?? process.env,
    home: options.home ?? homedir(),
  });
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
  dir: string,
  parsed: ParsedArgs,
  io: Io,
  options: AuditCommandOptions,
): Promise<number> {
  const raw = stringFlag(parsed, '--lines') ?? '20';
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new UsageError(`-n needs a whole number, got "${raw}"`);
  const filter = filterOf(parsed);
  const print = parsed.flags.has('--json')
    ? (r: AuditRecord) => io.out(recordLine(r).slice(0, -1))
    : (r: AuditRecord) => io.out(formatRecord(r));
  const newest = (await tailRecords(dir, 1))[0]?.seq ?? 0;
  const records = await tailRecords(dir, n, filter);
  records.forEach(print);
  if (!parsed.flags.has('--follow')) return 0;
  const afterSeq = Math.max(newest, records[records.length - 1]?.seq ?? 0);
  for await (const record of followRecords(dir, filter, {
    afterSeq,
    signal: options.signal,
    pollMs: options.pollMs,
  }))
    print(record);
  return 0;
}

async function exportLog(dir: string, parsed: ParsedArgs, io: Io): Promise<number> {
  const format = (stringFlag(parsed, '--format') ?? 'jsonl') as ExportFormat;
  if (!EXPORT_FORMATS.includes(format))
    throw new UsageError(`--format must be jsonl or csv, got "${format}"`);
  const records = readRecords(dir, filterOf(parsed));
  const out = stringFlag(parsed, '--out');
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

async function verify(dir: string, parsed: ParsedArgs, io: Io): Promise<number> {
  const report = await verifyAuditLog(dir);
  if (parsed.flags.has('--json')) {
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
  if (
    command === undefined ||
    command === '--help' ||
    command === '-h' ||
    command === 'help' ||
    rest.includes('--help')
  ) {
    io.out(AUDIT_USAGE);
    return command === undefined ? 2 : 0;
  }
  if (!(command in ALLOWED)) {
    io.err(`mgp audit: unknown command "${command}"\n\n${AUDIT_USAGE}`);
    return 2;
  }
  try {
    const parsed = parse(command, rest);
    const dir = logDirectory(parsed, options);
    if (!existsSync(dir)) {
      io.err(`mgp audit: no audit log in ${dir}`);
      return 1;
    }
    if (command === 'tail') return await tail(dir, parsed, io, options);
    if (command === 'export') return await exportLog(dir, parsed, io);
    return await verify(dir, parsed, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`mgp audit ${command}: ${error.message}\n\n${AUDIT_USAGE}`);
    return 2;
  }
}
