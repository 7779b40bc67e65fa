/**
 * `mgp audit`: read, export and verify a workspace's durable audit log (client/src/kernel/audit).
 *
 *     mgp audit tail [-n N] [--follow] [--json] [filters]
 *     mgp audit export --format jsonl|csv [--out FILE] [--encrypt] [filters]
 *     mgp audit decrypt FILE [--out FILE]
 *     mgp audit verify [--expect-head HASH] [--json]
 *     mgp audit head [--json]
 *
 * The log is found with `--dir DIR` (the log's directory itself) or `--cwd DIR` (a workspace folder,
 * default the current directory: its log is `$XDG_STATE_HOME/mgp/<name>-<hash>/audit`).
 * `verify` checks chain.json's seal with this log's key where the mgp command keeps keys (the OS
 * keyring, else a user-only file: cliSecrets.ts), and with `--expect-head` that the log still holds
 * the record whose hash was pinned; `head` prints the hash to pin, of a log that verifies.
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
 *   "file": string|null, "line": number|null, "reason": string}, "notes": string[],
 *   "seal": null | {"store": "cli", "description": string, "status": "checked"|"mismatch"|"unsealed"|
 *   "no_key"|"key_unreadable", "seq"?: number}}`
 *   where `file` is a name inside `directory`, `line` is 1-based, and `kind` is one of verify.ts's
 *   ChainProblemKind (`hash_mismatch`, `seq_gap`, `seq_out_of_order`, `chain_break`, `torn_line`,
 *   `missing_start`, `truncated`, `checkpoint_mismatch`, `unparseable`, `malformed`, `not_canonical`,
 *   `unreadable_anchor`, `missing_anchor`, `anchor_lost`, `seal_mismatch`, `seal_missing`,
 *   `seal_unverifiable`, `pinned_head_missing`).
 * - `head --json` prints `{"directory": string, "seq": number, "hash": string}`.
 *
 * `--encrypt` and `decrypt`: the MCP draft's encrypted traces (auditEncryption.ts).
 * Exit status: 0 on success; 1 when `verify` finds the chain broken, or there is no log; 2 on bad usage.
 */
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  anchorKey,
  AnchorKeyStore,
  auditDirectory,
  AuditFilter,
  type AuditRecord,
  canonicalJson,
  compileFilter,
  EXPORT_FORMATS,
  ExportFormat,
  exportRecords,
  followRecords,
  readRecords,
  recordLine,
  stateRoot,
  tailRecords,
  verifyAuditLog,
  VerifyReport,
} from '../kernel';
import { oneLine } from '@shared/untrustedText';
import { cliAnchorKeys } from './cliSecrets';
import type { Io } from './io';
import { CommandLine, Flags, oneOf, parseCommandLine, UsageError, wholeNumber } from './flags';
import { JSON_FLAG } from './options';
import { encryptOption, exportEncrypted, runDecrypt } from './auditEncryption';
import { isTeamAuditLine, runTeamAudit, TEAM_AUDIT_USAGE } from './teamAuditCommands';

export const AUDIT_USAGE = `Usage:
  mgp audit tail [-n N] [--follow] [--json] [filters]   the last N records (default 20); --follow waits for more
  mgp audit export --format jsonl|csv [--out FILE] [--encrypt] [filters]   --encrypt: MCP draft §3
  mgp audit decrypt FILE [--out FILE]                  an export made with --encrypt, back as it was
  mgp audit verify [--expect-head HASH] [--json]       check the hash chain, chain.json's seal and a
                                                       pinned head; exit 1 when it is broken
  mgp audit head [--json]                              the head hash to pin, somewhere else
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
  /** Where the logs' keys are (cliAnchorKeys under the state folder by default). */
  anchorKeys?: AnchorKeyStore;
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
    encrypt: { type: 'boolean' },
    algo: { type: 'string', value: 'aes-256-gcm' },
    ...FILTER_FLAGS,
    ...LOCATION_FLAGS,
  },
  verify: { 'expect-head': { type: 'string', value: 'HASH' }, ...JSON_FLAG, ...LOCATION_FLAGS },
  head: { ...JSON_FLAG, ...LOCATION_FLAGS },
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
  encrypt: boolean; // MCP draft §3
  /** A pinned head hash (lower-case hex). */
  expectHead?: string;
}

type AnyAuditValues = CommandLine<
  typeof ACTIONS.tail & typeof ACTIONS.export & typeof ACTIONS.verify
>['values'];

function pinnedHead(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9a-f]{64}$/i.test(value))
    throw new UsageError('--expect-head takes a record hash: 64 hex digits (mgp audit head)');
  return value.toLowerCase();
}

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
    encrypt: encryptOption(all),
    expectHead: pinnedHead(all['expect-head']),
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

async function exportLog(parsed: AuditOptions, io: Io, options: AuditCommandOptions) {
  const { dir, filter, format, out } = parsed;
  const records = readRecords(dir, filter);
  if (parsed.encrypt) return exportEncrypted(records, format, out, io, options);
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
  const { ok, directory, files, records, firstSeq, lastSeq, headHash, problem, notes, seal } =
    report;
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
    seal,
  };
}

/** The log verified with this host's key (looked up, never made) and the pinned head, if any. */
async function verifyWithKey(
  { dir, expectHead }: AuditOptions,
  options: AuditCommandOptions,
): Promise<VerifyReport> {
  const env = options.env ?? process.env;
  const store =
    options.anchorKeys ?? cliAnchorKeys(stateRoot({ env, home: options.home ?? homedir() }), env);
  return verifyAuditLog(dir, { key: await anchorKey(store, dir, false), expectHead });
}

function brokenLine(dir: string, report: VerifyReport): string | undefined {
  const p = report.problem;
  if (!p) return undefined;
  const where = p.file ? `${join(dir, p.file)}${p.line ? `:${p.line}` : ''}` : dir;
  return `audit log BROKEN at seq ${p.seq ?? '?'}: ${where}: ${p.reason} [${p.kind}]`;
}

function sealWords(report: VerifyReport): string {
  const seal = report.seal;
  if (seal?.status !== 'checked') return '';
  return `; chain.json sealed up to seq ${seal.seq} with the key in ${seal.description}`;
}

async function verify(parsed: AuditOptions, io: Io, options: AuditCommandOptions): Promise<number> {
  const report = await verifyWithKey(parsed, options);
  if (parsed.json) {
    io.out(JSON.stringify(verifyJson(report), null, 2));
    return report.ok ? 0 : 1;
  }
  for (const note of report.notes) io.err(`note: ${note}`);
  const broken = brokenLine(parsed.dir, report);
  if (broken) {
    io.out(broken);
    return 1;
  }
  const range = report.records
    ? ` (seq ${report.firstSeq}–${report.lastSeq}), head ${report.headHash}`
    : '';
  const pinned = parsed.expectHead ? '; it holds the head you pinned' : '';
  io.out(
    `audit log OK: ${report.records} record(s) in ${report.files.length} file(s)${range}${sealWords(report)}${pinned}`,
  );
  return 0;
}

/** The head of a log that verifies: the hash to keep elsewhere and check with --expect-head. */
async function head(parsed: AuditOptions, io: Io, options: AuditCommandOptions): Promise<number> {
  const report = await verifyWithKey(parsed, options);
  const broken = brokenLine(parsed.dir, report);
  if (broken || report.headHash === null || report.lastSeq === null) {
    io.err(`mgp audit head: ${broken ?? 'the log has no records yet: nothing to pin'}`);
    return 1;
  }
  if (parsed.json)
    io.out(
      JSON.stringify(
        { directory: parsed.dir, seq: report.lastSeq, hash: report.headHash },
        null,
        2,
      ),
    );
  else {
    io.out(report.headHash);
    io.err(
      `seq ${report.lastSeq}: keep this hash where processes on this machine cannot write it, then check the log with: mgp audit verify --expect-head ${report.headHash}`,
    );
  }
  return 0;
}

export async function runAudit(
  args: string[],
  io: Io,
  options: AuditCommandOptions = {},
): Promise<number> {
  const [command, ...rest] = args;
  if (isTeamAuditLine(command, rest))
    return runTeamAudit(command as 'verify' | 'query', rest, io, options.env ?? process.env);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out(`${AUDIT_USAGE}\n\n${TEAM_AUDIT_USAGE}`);
    return command === undefined ? 2 : 0;
  }
  if (command === 'decrypt') return runDecrypt(rest, io, options);
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
    if (action === 'export') return await exportLog(parsed, io, options);
    if (action === 'head') return await head(parsed, io, options);
    return await verify(parsed, io, options);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`mgp audit ${command}: ${error.message}\n\n${AUDIT_USAGE}`);
    return 2;
  }
}
