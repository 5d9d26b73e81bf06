/**
 * Monthly range partitions for the time-series tables (`sales` by sold_at, `fetch_records`
 * by started_at, later the history rollups). Partition `<table>_yYYYYmMM` holds one UTC
 * month of ms epochs, [first ms of the month, first ms of the next).
 *
 * Writers call ensure() with the times a batch is about to write, before its transaction.
 * Months this process has already ensured are cached, so the steady state costs nothing.
 * Creating a month runs in its own short transaction under a per-(schema, table) advisory
 * lock, so processes racing for the same month create it once. A row whose month has no
 * partition (outside the years below, or a month another process just dropped) lands in
 * the DEFAULT partition; creating that month later moves such rows into it, so the safety
 * net never blocks a new partition.
 */
import { inTransaction } from './driver.ts';
import type { Pool, Queryable } from './driver.ts';

/** Months outside these years are never given a partition (their rows use DEFAULT). */
const FIRST_YEAR = 1970;
const LAST_YEAR = 9999;
const MONTHS_PER_YEAR = 12;
/** Dropping a month needs a brief exclusive lock on the table; never queue longer than this. */
const DROP_LOCK_TIMEOUT = '500ms';
const LOCK_NOT_AVAILABLE = '55P03';

export interface PartitionedTable {
  table: string;
  /** The BIGINT ms column the table is partitioned by. */
  column: string;
  /** Fill factor of each month (default: PostgreSQL's 100); see migrations.ts. */
  fillfactor?: number;
}

/** First ms of the UTC month holding `ms`, or null when that month gets no partition. */
export function monthStart(ms: number): number | null {
  if (!Number.isSafeInteger(ms)) return null;
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  if (!Number.isFinite(year) || year < FIRST_YEAR || year > LAST_YEAR) return null;
  return Date.UTC(year, date.getUTCMonth(), 1);
}

export function nextMonthStart(start: number): number {
  const date = new Date(start);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

export function partitionName(table: string, start: number): string {
  const date = new Date(start);
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  return `${table}_y${date.getUTCFullYear()}m${month}`;
}

/** The month start a partition name stands for, or null for DEFAULT and foreign tables. */
export function partitionMonth(table: string, name: string): number | null {
  const match = new RegExp(`^${table}_y(\\d{4})m(\\d{2})$`).exec(name);
  if (match === null) return null;
  const month = Number(match[2]) - 1;
  if (month < 0 || month >= MONTHS_PER_YEAR) return null;
  return Date.UTC(Number(match[1]), month, 1);
}

/** Distinct partitionable month starts of `times`, ascending. */
export function monthsOf(times: Iterable<number>): number[] {
  const months = new Set<number>();
  for (const ms of times) {
    const start = monthStart(ms);
    if (start !== null) months.add(start);
  }
  return [...months].sort((a, b) => a - b);
}

async function lockTable(client: Queryable, table: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.' || $1))`, [
    `${table}:partitions`,
  ]);
}

async function exists(client: Queryable, name: string): Promise<boolean> {
  const result = await client.query<{ found: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AS found',
    [name],
  );
  return result.rows[0]?.found === true;
}

/**
 * Creates one month as a plain table, moves that month's rows out of DEFAULT into it, then
 * attaches it: ATTACH would fail if DEFAULT still held rows of the new range.
 */
async function createMonth(client: Queryable, spec: PartitionedTable, start: number) {
  const name = partitionName(spec.table, start);
  if (await exists(client, name)) return;
  const end = nextMonthStart(start);
  const { table, column } = spec;
  const storage = spec.fillfactor === undefined ? '' : ` WITH (fillfactor = ${spec.fillfactor})`;
  await client.query(
    `CREATE TABLE ${name} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)${storage}`,
  );
  await client.query(`
    WITH moved AS (
      DELETE FROM ${table}_default WHERE ${column} >= ${start} AND ${column} < ${end} RETURNING *
    )
    INSERT INTO ${name} SELECT * FROM moved`);
  await client.query(
    `ALTER TABLE ${table} ATTACH PARTITION ${name} FOR VALUES FROM (${start}) TO (${end})`,
  );
}

export interface PartitionManager {
  /** Makes sure every month of `times` has its partition. */
  ensure(times: Iterable<number>): Promise<void>;
  /** Drops the months that end at or before `horizonMs`; returns their names. */
  dropMonthsBefore(horizonMs: number): Promise<string[]>;
}

export function partitionManager(pool: Pool, spec: PartitionedTable): PartitionManager {
  const known = new Set<number>();

  const listMonths = async (client: Queryable): Promise<Array<[string, number]>> => {
    const result = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = to_regclass($1)`,
      [spec.table],
    );
    return result.rows.flatMap(({ name }) => {
      const start = partitionMonth(spec.table, name);
      return start === null ? [] : [[name, start] as [string, number]];
    });
  };

  return {
    async ensure(times) {
      const missing = monthsOf(times).filter((start) => !known.has(start));
      if (missing.length === 0) return;
      await inTransaction(pool, async (client) => {
        await lockTable(client, spec.table);
        for (const start of missing) await createMonth(client, spec, start);
      });
      for (const start of missing) known.add(start);
    },
    async dropMonthsBefore(horizonMs) {
      try {
        return await inTransaction(pool, async (client) => {
          await client.query(`SET LOCAL lock_timeout = '${DROP_LOCK_TIMEOUT}'`);
          await lockTable(client, spec.table);
          const expired = (await listMonths(client)).filter(
            ([, start]) => nextMonthStart(start) <= horizonMs,
          );
          for (const [name, start] of expired) {
            await client.query(`DROP TABLE ${name}`);
            known.delete(start);
          }
          return expired.map(([name]) => name);
        });
      } catch (error) {
        if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return [];
        throw error;
      }
    },
  };
}
