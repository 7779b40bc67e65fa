/**
 * The team audit table's schema, as numbered migrations shipped with the code. Each runs once, in
 * order, inside a transaction under an advisory lock, so kernels starting together on many machines
 * apply it once; `mgp_audit_schema` records which have run.
 */
import type { PoolClient } from 'pg';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'audit records and the forks seen while shipping',
    sql: `
      CREATE TABLE mgp_audit_records (
        machine     text        NOT NULL,
        chain       text        NOT NULL,
        seq         bigint      NOT NULL,
        hash        text        NOT NULL,
        prev_hash   text        NOT NULL,
        host        text        NOT NULL,
        occurred_at timestamptz NOT NULL,
        event_type  text        NOT NULL,
        actor_type  text        NOT NULL,
        actor_id    text        NOT NULL,
        server_id   text,
        tool_name   text,
        result      text        NOT NULL,
        trace_id    text        NOT NULL,
        record      jsonb       NOT NULL,
        line        text        NOT NULL,
        shipped_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (machine, chain, seq)
      );
      CREATE INDEX mgp_audit_records_time ON mgp_audit_records (occurred_at);
      CREATE INDEX mgp_audit_records_actor ON mgp_audit_records (actor_id, occurred_at);
      CREATE INDEX mgp_audit_records_target ON mgp_audit_records (server_id, tool_name, occurred_at);
      CREATE TABLE mgp_audit_forks (
        machine   text        NOT NULL,
        chain     text        NOT NULL,
        seq       bigint      NOT NULL,
        hash      text        NOT NULL,
        line      text        NOT NULL,
        seen_at   timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (machine, chain, seq, hash)
      );`,
  },
];

/** A number no other application is likely to lock with: "mgp-audit" in ASCII, folded. */
const MIGRATION_LOCK = 0x6d67_7061;

/** Applies the migrations the database has not seen; returns the versions applied now. */
export async function migrate(client: PoolClient): Promise<number[]> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query(
      `CREATE TABLE IF NOT EXISTS mgp_audit_schema (
         version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = await client.query<{ version: number }>('SELECT version FROM mgp_audit_schema');
    const seen = new Set(done.rows.map((row) => row.version));
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (seen.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO mgp_audit_schema (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      applied.push(migration.version);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}
