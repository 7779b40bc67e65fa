/**
 * One batch of audit records into the team table: `ON CONFLICT DO NOTHING` on (machine, chain, seq),
 * so a replay is a no-op; a record that differs from the row already at its seq is kept in
 * `mgp_audit_forks`, where verify finds it.
 */
import type { Pool } from 'pg';
import type { AuditRecord } from '../audit/auditEvent';
import { recordLine } from '../audit/chain';
import type { MachineIdentity } from './machineIdentity';

const COLUMNS = [
  'machine',
  'chain',
  'seq',
  'hash',
  'prev_hash',
  'host',
  'occurred_at',
  'event_type',
  'actor_type',
  'actor_id',
  'server_id',
  'tool_name',
  'result',
  'trace_id',
  'record',
  'line',
];

function rowOf(machine: MachineIdentity, chain: string, record: AuditRecord): unknown[] {
  const line = recordLine(record).slice(0, -1);
  return [
    machine.id,
    chain,
    record.seq,
    record.hash,
    record.prev_hash,
    machine.host,
    record.timestamp,
    record.event_type,
    record.actor.type,
    record.actor.id,
    record.target.server_id ?? null,
    record.target.tool_name ?? null,
    record.result,
    record.trace_id,
    line,
    line,
  ];
}

export async function insertRecords(
  pool: Pool,
  machine: MachineIdentity,
  chain: string,
  records: readonly AuditRecord[],
): Promise<void> {
  const values: unknown[] = [];
  const tuples = records.map((record) => {
    const row = rowOf(machine, chain, record);
    const at = values.length;
    values.push(...row);
    return `(${row.map((_, i) => `$${at + i + 1}`).join(', ')})`;
  });
  const inserted = await pool.query<{ seq: string }>(
    `INSERT INTO mgp_audit_records (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}
     ON CONFLICT (machine, chain, seq) DO NOTHING RETURNING seq`,
    values,
  );
  if (inserted.rowCount === records.length) return;
  const fresh = new Set(inserted.rows.map((row) => Number(row.seq)));
  const replayed = records.filter((record) => !fresh.has(record.seq));
  const held = await pool.query<{ seq: string; hash: string }>(
    'SELECT seq, hash FROM mgp_audit_records WHERE machine = $1 AND chain = $2 AND seq = ANY($3::bigint[])',
    [machine.id, chain, replayed.map((record) => record.seq)],
  );
  const hashAt = new Map(held.rows.map((row) => [Number(row.seq), row.hash]));
  for (const record of replayed) {
    if (hashAt.get(record.seq) === record.hash) continue;
    await pool.query(
      `INSERT INTO mgp_audit_forks (machine, chain, seq, hash, line) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING`,
      [machine.id, chain, record.seq, record.hash, recordLine(record).slice(0, -1)],
    );
  }
}
