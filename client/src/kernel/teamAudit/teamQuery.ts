/**
 * `mgp audit query --postgres`: the team's questions over every machine's records (what did agents
 * do, with which servers and tools, what was refused), filtered in the database.
 */
import type { Pool } from 'pg';

export interface TeamQuery {
  /** The actor's id; `*` matches any run of characters (`agent.gateway.*@alice`). */
  agent?: string;
  server?: string;
  tool?: string;
  /** The record's result: SUCCESS, BLOCKED, DENIED, APPROVED… (any case). */
  decision?: string;
  /** Event types, any of them. */
  types?: string[];
  machine?: string;
  /** ISO times: since inclusive, until exclusive. */
  since?: string;
  until?: string;
  /** At most this many, newest last; 1000 unless given. */
  limit?: number;
}

export interface TeamRecord {
  machine: string;
  host: string;
  chain: string;
  seq: number;
  timestamp: string;
  event_type: string;
  actor_type: string;
  actor_id: string;
  server_id: string | null;
  tool_name: string | null;
  result: string;
  trace_id: string;
  details: Record<string, unknown>;
}

const like = (glob: string) => glob.replace(/[\\%_]/g, '\\$&').replace(/\*/g, '%');

export async function queryTeamAudit(pool: Pool, query: TeamQuery): Promise<TeamRecord[]> {
  const where: string[] = [];
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  if (query.agent) where.push(`actor_id LIKE ${param(like(query.agent))}`);
  if (query.server) where.push(`server_id LIKE ${param(like(query.server))}`);
  if (query.tool) where.push(`tool_name LIKE ${param(like(query.tool))}`);
  if (query.decision) where.push(`upper(result) = upper(${param(query.decision)})`);
  if (query.types?.length) where.push(`event_type = ANY(${param(query.types)}::text[])`);
  if (query.machine) where.push(`(machine = ${param(query.machine)} OR host = $${values.length})`);
  if (query.since) where.push(`occurred_at >= ${param(query.since)}::timestamptz`);
  if (query.until) where.push(`occurred_at < ${param(query.until)}::timestamptz`);
  const limit = param(query.limit ?? 1000);
  const result = await pool.query<{
    machine: string;
    host: string;
    chain: string;
    seq: string;
    occurred_at: Date;
    event_type: string;
    actor_type: string;
    actor_id: string;
    server_id: string | null;
    tool_name: string | null;
    result: string;
    trace_id: string;
    details: Record<string, unknown>;
  }>(
    `SELECT * FROM (
       SELECT machine, host, chain, seq, occurred_at, event_type, actor_type, actor_id, server_id,
              tool_name, result, trace_id, record->'details' AS details
       FROM mgp_audit_records ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY occurred_at DESC, machine, chain, seq DESC LIMIT ${limit}
     ) newest ORDER BY occurred_at, machine, chain, seq`,
    values,
  );
  return result.rows.map((row) => ({
    machine: row.machine,
    host: row.host,
    chain: row.chain,
    seq: Number(row.seq),
    timestamp: row.occurred_at.toISOString(),
    event_type: row.event_type,
    actor_type: row.actor_type,
    actor_id: row.actor_id,
    server_id: row.server_id,
    tool_name: row.tool_name,
    result: row.result,
    trace_id: row.trace_id,
    details: row.details ?? {},
  }));
}
