/**
 * The team's audit database: a `pg` pool over the URL from config (`${secret:…}` already resolved),
 * TLS when the URL asks for it (`sslmode=require`, `verify-full`: pg reads it from the URL), the
 * schema migrated on first use. The URL holds a password: it never appears in an error we raise.
 */
import { Pool } from 'pg';
import { migrate } from './migrations';

export interface TeamDatabase {
  pool: Pool;
  /** The URL without its password, for messages. */
  shown: string;
}

/** `postgres://user:secret@host/db` → `postgres://user@host/db`. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'the configured database';
  }
}

/** A pool on `url`; nothing is connected until the first query. */
export function openTeamDatabase(url: string, options: { max?: number } = {}): TeamDatabase {
  if (!/^postgres(?:ql)?:\/\//.test(url))
    throw new Error('the audit database URL must start with postgres:// or postgresql://');
  const pool = new Pool({
    connectionString: url,
    max: options.max ?? 4,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection the server drops (a restart) must not take the kernel down: the next query
  // gets a new one.
  pool.on('error', () => undefined);
  return { pool, shown: withoutPassword(url) };
}

/** Runs the migrations the database lacks; returns the versions applied now. */
export async function ensureSchema(db: TeamDatabase): Promise<number[]> {
  const client = await db.pool.connect();
  try {
    return await migrate(client);
  } finally {
    client.release();
  }
}

/** An error from pg in words, without the URL (pg's own messages do not carry it). */
export function databaseProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  return code && !message.includes(code) ? `${message} (${code})` : message;
}
