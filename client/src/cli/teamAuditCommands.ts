/**
 * `mgp audit verify --postgres URL` and `mgp audit query --postgres URL`: the team's audit table,
 * every machine's chain in one place (client/src/kernel/teamAudit).
 *
 *     mgp audit verify --postgres URL [--json]
 *     mgp audit query --postgres URL [--agent A] [--server S] [--tool T] [--decision D]
 *                     [--type T[,T…]] [--machine M] [--since ISO] [--until ISO] [-n N] [--json|--csv]
 *
 * URL may be written `${NAME}` or `${secret:NAME}`: both read the environment variable NAME, so
 * that the password need not be on the command line.
 *
 * Stable output for scripts:
 * - `verify --json`: `{"ok": boolean, "records": number, "chains": [{"machine", "host", "chain",
 *   "records", "firstSeq", "lastSeq", "problems": [{"kind": "edited"|"gap"|"fork", "seq", "reason"}]}]}`
 * - `query --json`: JSON Lines, one object per record: `{"machine", "host", "chain", "seq",
 *   "timestamp", "event_type", "actor_type", "actor_id", "server_id", "tool_name", "result",
 *   "trace_id", "details"}`; `--csv`: RFC 4180 CSV with CRLF line ends and those columns as header.
 *
 * Exit status: 0 on success; 1 when verify finds a problem or the database cannot be reached; 2 on
 * bad usage.
 */
import {
  canonicalJson,
  csvField,
  databaseProblem,
  ensureSchema,
  openTeamDatabase,
  queryTeamAudit,
  type TeamQuery,
  type TeamRecord,
  verifyTeamAudit,
} from '../kernel';
import { oneLine } from '@shared/untrustedText';
import type { Io } from './io';
import { parseCommandLine, UsageError, wholeNumber } from './flags';
import { JSON_FLAG } from './options';

export const TEAM_AUDIT_USAGE = `Usage:
  mgp audit verify --postgres URL [--json]       check every machine's chain in the team's table
  mgp audit query --postgres URL [filters] [-n N] [--json|--csv]
                                                 what agents did, across every machine
Filters: --agent A --server S --tool T (* matches any run of characters), --decision D (SUCCESS,
BLOCKED, DENIED…), --type T[,T…], --machine M (id or host), --since ISO, --until ISO.
URL may be \${NAME} or \${secret:NAME}: read from the environment variable NAME.`;

const DATABASE_FLAG = { postgres: { type: 'string', value: 'URL' } } as const;
const VERIFY_FLAGS = { ...DATABASE_FLAG, ...JSON_FLAG } as const;
const QUERY_FLAGS = {
  ...DATABASE_FLAG,
  ...JSON_FLAG,
  csv: { type: 'boolean' },
  agent: { type: 'string', value: 'A' },
  server: { type: 'string', value: 'S' },
  tool: { type: 'string', value: 'T' },
  decision: { type: 'string', value: 'D' },
  type: { type: 'string', value: 'T[,T…]' },
  machine: { type: 'string', value: 'M' },
  since: { type: 'string', value: 'ISO' },
  until: { type: 'string', value: 'ISO' },
  lines: { type: 'string', value: 'N', short: 'n' },
} as const;

/** Whether `mgp audit ACTION ARGS` is about the team's table. */
export function isTeamAuditLine(action: string | undefined, args: readonly string[]): boolean {
  return (
    action === 'query' || (action === 'verify' && args.some((a) => a.startsWith('--postgres')))
  );
}

function databaseUrl(raw: string | undefined, env: Readonly<Record<string, string | undefined>>) {
  if (!raw) throw new UsageError('--postgres URL is needed: the team audit database');
  const url = raw.replace(/\$\{(?:secret:)?([A-Za-z_][A-Za-z0-9_]*)\}/g, (reference, name) => {
    const value = env[name];
    if (value === undefined) throw new UsageError(`${reference} has no value in the environment`);
    return value;
  });
  if (!/^postgres(?:ql)?:\/\//.test(url))
    throw new UsageError('--postgres takes a postgres:// or postgresql:// URL');
  return url;
}

function isoTime(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && Number.isNaN(Date.parse(value)))
    throw new UsageError(`--${name} takes an ISO 8601 time, not "${value}"`);
  return value;
}

const COLUMNS = [
  'machine',
  'host',
  'chain',
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

function csvLine(record: TeamRecord): string {
  return COLUMNS.map((column) =>
    csvField(column === 'details' ? canonicalJson(record.details) : String(record[column] ?? '')),
  ).join(',');
}

function personLine(record: TeamRecord): string {
  const target = [record.server_id, record.tool_name].filter(Boolean).join('.');
  return oneLine(
    `${record.timestamp}  ${record.host}  ${record.actor_id}  ${record.event_type}  ${record.result}${target ? `  ${target}` : ''}`,
  );
}

async function withDatabase<T>(
  url: string,
  io: Io,
  work: (db: ReturnType<typeof openTeamDatabase>) => Promise<T>,
): Promise<T | undefined> {
  const db = openTeamDatabase(url, { max: 1 });
  try {
    await ensureSchema(db);
    return await work(db);
  } catch (error) {
    io.err(`mgp audit: ${db.shown}: ${databaseProblem(error)}`);
    return undefined;
  } finally {
    await db.pool.end().catch(() => undefined);
  }
}

async function verify(args: string[], io: Io, env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseCommandLine('mgp audit verify', args, VERIFY_FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const url = databaseUrl(values.postgres, env);
  const report = await withDatabase(url, io, (db) => verifyTeamAudit(db.pool));
  if (!report) return 1;
  if (values.json) io.out(JSON.stringify(report, null, 2));
  else {
    for (const chain of report.chains) {
      io.out(
        `${chain.host} ${chain.machine} ${chain.chain}: ${chain.records} records, seq ${chain.firstSeq}–${chain.lastSeq}${chain.problems.length ? '' : ', intact'}`,
      );
      for (const problem of chain.problems)
        io.out(`  seq ${problem.seq}: ${problem.kind}: ${oneLine(problem.reason)}`);
    }
    io.out(
      report.ok
        ? `ok: ${report.chains.length} chains, ${report.records} records`
        : `broken: ${report.chains.filter((c) => c.problems.length).length} of ${report.chains.length} chains`,
    );
  }
  return report.ok ? 0 : 1;
}

async function query(args: string[], io: Io, env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseCommandLine('mgp audit query', args, QUERY_FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (values.json && values.csv) throw new UsageError('--json and --csv: choose one');
  const url = databaseUrl(values.postgres, env);
  const wanted: TeamQuery = {
    agent: values.agent,
    server: values.server,
    tool: values.tool,
    decision: values.decision,
    types: values.type
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    machine: values.machine,
    since: isoTime('since', values.since),
    until: isoTime('until', values.until),
    limit: wholeNumber('lines', values.lines, 1000, 1),
  };
  const records = await withDatabase(url, io, (db) => queryTeamAudit(db.pool, wanted));
  if (!records) return 1;
  if (values.csv) {
    // Exported data is left exact (io.ts): CRLF line ends, as RFC 4180 has them.
    const data = io.data ?? ((chunk: string) => io.out(chunk.slice(0, -1)));
    for (const line of [COLUMNS.join(','), ...records.map(csvLine)]) await data(`${line}\r\n`);
  } else if (values.json) for (const record of records) io.out(JSON.stringify(record));
  else if (records.length === 0) io.out('no records match');
  else for (const record of records) io.out(personLine(record));
  return 0;
}

export async function runTeamAudit(
  action: 'verify' | 'query',
  args: string[],
  io: Io,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  try {
    return action === 'verify' ? await verify(args, io, env) : await query(args, io, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`mgp audit ${action}: ${error.message}\n\n${TEAM_AUDIT_USAGE}`);
    return 2;
  }
}
