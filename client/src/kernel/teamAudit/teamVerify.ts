/**
 * `mgp audit verify --postgres`: every machine's chain in the team table, checked as the local
 * verify checks a log (audit/README.md): each row's line against its hash and its exact form, the
 * row's columns and JSON against its line (an edited column is an edit), seqs without gaps from 1,
 * each record chained to the one before, and the forks seen while shipping (a second record at a
 * seq already held).
 */
import type { Pool } from 'pg';
import { canonicalJson } from '../audit/canonical';
import { checkLine, GENESIS_HASH } from '../audit/chain';
import type { AuditRecord } from '../audit/auditEvent';

export type TeamProblemKind = 'edited' | 'gap' | 'fork';

export interface TeamProblem {
  kind: TeamProblemKind;
  seq: number;
  reason: string;
}

export interface ChainReport {
  machine: string;
  host: string;
  chain: string;
  records: number;
  firstSeq: number;
  lastSeq: number;
  problems: TeamProblem[];
}

export interface TeamVerifyReport {
  ok: boolean;
  records: number;
  chains: ChainReport[];
}

interface Row {
  machine: string;
  chain: string;
  seq: string;
  hash: string;
  prev_hash: string;
  host: string;
  occurred_at: Date;
  event_type: string;
  actor_type: string;
  actor_id: string;
  server_id: string | null;
  tool_name: string | null;
  result: string;
  trace_id: string;
  record: unknown;
  line: string;
}

const PAGE = 5000;

/** The columns a row repeats from its line, each as the line says it. */
function columnDifference(row: Row, record: AuditRecord): string | undefined {
  const expected: [string, unknown, unknown][] = [
    ['seq', Number(row.seq), record.seq],
    ['hash', row.hash, record.hash],
    ['prev_hash', row.prev_hash, record.prev_hash],
    ['occurred_at', row.occurred_at.getTime(), Date.parse(record.timestamp)],
    ['event_type', row.event_type, record.event_type],
    ['actor_type', row.actor_type, record.actor.type],
    ['actor_id', row.actor_id, record.actor.id],
    ['server_id', row.server_id, record.target.server_id ?? null],
    ['tool_name', row.tool_name, record.target.tool_name ?? null],
    ['result', row.result, record.result],
    ['trace_id', row.trace_id, record.trace_id],
  ];
  const differs = expected.find(([, column, line]) => column !== line);
  if (differs) return `its ${differs[0]} column differs from its record: it was edited`;
  if (canonicalJson(row.record) !== canonicalJson(record))
    return 'its record column differs from its line: it was edited';
  return undefined;
}

class ChainCheck {
  readonly report: ChainReport;
  private previous: { seq: number; hash: string } | undefined;

  constructor(row: Row) {
    this.report = {
      machine: row.machine,
      host: row.host,
      chain: row.chain,
      records: 0,
      firstSeq: Number(row.seq),
      lastSeq: 0,
      problems: [],
    };
  }

  add(row: Row): void {
    const seq = Number(row.seq);
    const problem = (kind: TeamProblemKind, reason: string) =>
      this.report.problems.push({ kind, seq, reason });
    this.report.records++;
    this.report.lastSeq = seq;
    const checked = checkLine(row.line);
    if (!checked.ok) problem('edited', checked.reason);
    else {
      const differs = columnDifference(row, checked.record);
      if (differs) problem('edited', differs);
    }
    const expectedSeq = (this.previous?.seq ?? 0) + 1;
    if (seq > expectedSeq)
      problem(
        'gap',
        expectedSeq === seq - 1
          ? `record ${expectedSeq} is missing`
          : `records ${expectedSeq} to ${seq - 1} are missing`,
      );
    const expectedPrev = seq === expectedSeq ? (this.previous?.hash ?? GENESIS_HASH) : undefined;
    if (expectedPrev !== undefined && row.prev_hash !== expectedPrev)
      problem(
        'fork',
        `it chains to ${row.prev_hash.slice(0, 12)}…, not to record ${seq - 1} (${expectedPrev.slice(0, 12)}…)`,
      );
    this.previous = { seq, hash: row.hash };
  }
}

/** Checks every chain in the table; `ok` when none has a problem. */
export async function verifyTeamAudit(pool: Pool): Promise<TeamVerifyReport> {
  const chains: ChainCheck[] = [];
  let current: ChainCheck | undefined;
  let after: [string, string, string] = ['', '', '-1'];
  for (;;) {
    const page = await pool.query<Row>(
      `SELECT * FROM mgp_audit_records WHERE (machine, chain, seq) > ($1, $2, $3::bigint)
       ORDER BY machine, chain, seq LIMIT ${PAGE}`,
      after,
    );
    for (const row of page.rows) {
      if (!current || current.report.machine !== row.machine || current.report.chain !== row.chain)
        chains.push((current = new ChainCheck(row)));
      current.add(row);
    }
    if (page.rows.length < PAGE) break;
    const last = page.rows[page.rows.length - 1];
    after = [last.machine, last.chain, last.seq];
  }
  const forks = await pool.query<{ machine: string; chain: string; seq: string; hash: string }>(
    'SELECT machine, chain, seq, hash FROM mgp_audit_forks ORDER BY machine, chain, seq',
  );
  for (const fork of forks.rows) {
    const chain = chains.find(
      (c) => c.report.machine === fork.machine && c.report.chain === fork.chain,
    );
    chain?.report.problems.push({
      kind: 'fork',
      seq: Number(fork.seq),
      reason: `a second record (${fork.hash.slice(0, 12)}…) was shipped for this seq: the machine's log forked`,
    });
  }
  const reports = chains.map((c) => {
    c.report.problems.sort((a, b) => a.seq - b.seq);
    return c.report;
  });
  return {
    ok: reports.every((r) => r.problems.length === 0),
    records: reports.reduce((sum, r) => sum + r.records, 0),
    chains: reports,
  };
}
