/**
 * What PostgreSQL writes and keeps per day for the default start moved onto it
 * (`pricing serve --source sim --database-url …`: full catalogs, simulator, default backfill),
 * measured on a scratch cluster of its own (pg-scratch.ts) over a steady-state window after
 * the backfill, not projected from a model:
 * - written: WAL bytes (pg_stat_wal) plus data pages the checkpointer, background writer and
 *   backends wrote (pg_stat_bgwriter × block size), and as a cross-check `write_bytes` of the
 *   postmaster and its children (proc(5); a process that exits inside the window is missed);
 * - kept: growth of the database and of each table (partitions counted with their parent);
 * - profile: rows inserted, updated and HOT-updated per table, and WAL per statement
 *   (pg_stat_statements), so the tables and statements that produce the WAL are named.
 */
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPool, type Pool } from '../src/store/postgres/driver.ts';
import {
  embeddedEnv,
  PRICING_BIN,
  spawnServer,
  writtenBytes,
  type ChildServer,
} from './harness.ts';
import { extraSettings, startScratchCluster } from './pg-scratch.ts';
import { mb } from './harness.ts';

const DAY_S = 86_400;
const BACKFILL_CAP_S = 900;
/** Item × market quotes of the full simulated catalogs (README). */
const FULL_QUOTES = 290_000;
/**
 * Items each simulated market quotes (`--sim-items`; 0: all). Before the rollup journal the full
 * catalogs' first polling wave did not complete on a loaded 2-core machine (BENCHMARKS.md); the
 * figures stay at 2000 items so runs compare. PG_DISK_WINDOW_S=600 holds one 10-minute fold.
 */
const simItems = Number(process.env.PG_DISK_SIM_ITEMS ?? 2000);

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(2)} GB`;

interface Counters {
  walBytes: number;
  walFpi: number;
  walRecords: number;
  pagesWritten: number;
  procWritten: Map<number, number>;
  databaseBytes: number;
  tables: Map<string, TableFigures>;
}

interface TableFigures {
  bytes: number;
  inserted: number;
  updated: number;
  hotUpdated: number;
  deleted: number;
}

/** The postmaster and its children, by pid, with their `write_bytes`. */
function serverProcesses(postmaster: number): Map<number, number> {
  const written = new Map<number, number>([[postmaster, writtenBytes(postmaster)]]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === postmaster) written.set(Number(entry), writtenBytes(Number(entry)));
    } catch {
      // the process ended while being listed
    }
  }
  return written;
}

/** Each table with its partitions folded in (a partition is counted under its root). */
const TABLES = `
  WITH RECURSIVE tree(root, rel) AS (
    SELECT c.oid, c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    UNION ALL SELECT tree.root, i.inhrelid FROM tree JOIN pg_inherits i ON i.inhparent = tree.rel)
  SELECT root::regclass::text AS name,
    sum(pg_total_relation_size(rel))::bigint AS bytes,
    sum(coalesce(s.n_tup_ins, 0))::bigint AS inserted,
    sum(coalesce(s.n_tup_upd, 0))::bigint AS updated,
    sum(coalesce(s.n_tup_hot_upd, 0))::bigint AS hot,
    sum(coalesce(s.n_tup_del, 0))::bigint AS deleted
  FROM tree LEFT JOIN pg_stat_user_tables s ON s.relid = tree.rel GROUP BY root`;

async function readCounters(db: Pool, postmaster: number): Promise<Counters> {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const wal = await db.query<{ wal_bytes: string; wal_fpi: number; wal_records: number }>(
    'SELECT wal_bytes, wal_fpi, wal_records FROM pg_stat_wal',
  );
  const pages = await db.query<{ pages: number }>(
    `SELECT (buffers_checkpoint + buffers_clean + buffers_backend)
       * current_setting('block_size')::bigint AS pages FROM pg_stat_bgwriter`,
  );
  const size = await db.query<{ bytes: number }>(
    'SELECT pg_database_size(current_database()) AS bytes',
  );
  const rows = await db.query<Record<string, string | number>>(TABLES);
  const tables = new Map<string, TableFigures>();
  for (const row of rows.rows) {
    tables.set(String(row.name), {
      bytes: Number(row.bytes),
      inserted: Number(row.inserted),
      updated: Number(row.updated),
      hotUpdated: Number(row.hot),
      deleted: Number(row.deleted),
    });
  }
  return {
    walBytes: Number(wal.rows[0]!.wal_bytes),
    walFpi: Number(wal.rows[0]!.wal_fpi),
    walRecords: Number(wal.rows[0]!.wal_records),
    pagesWritten: Number(pages.rows[0]!.pages),
    procWritten: serverProcesses(postmaster),
    databaseBytes: Number(size.rows[0]!.bytes),
    tables,
  };
}

/** `write_bytes` gained by the processes alive at both reads. */
function procDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, bytes] of after) total += bytes - (before.get(pid) ?? bytes);
  return total;
}

function waitForBackfill(server: ChildServer): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), BACKFILL_CAP_S * 1000);
    server.child.stderr!.on('data', (chunk: Buffer) => {
      if (/backfill .*observations stored/.test(chunk.toString())) {
        clearTimeout(timer);
        resolve(true);
      }
    });
  });
}

const sleep = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000));

function printTables(before: Counters, after: Counters, perDay: (n: number) => number) {
  const lines = [...after.tables]
    .map(([name, end]) => {
      const start = before.tables.get(name) ?? {
        ...end,
        bytes: 0,
        inserted: 0,
        updated: 0,
        hotUpdated: 0,
        deleted: 0,
      };
      const updated = end.updated - start.updated;
      const hot = end.hotUpdated - start.hotUpdated;
      return {
        name,
        grown: end.bytes - start.bytes,
        kept: end.bytes,
        active:
          end.bytes !== start.bytes || end.inserted + end.updated > start.inserted + start.updated,
        text:
          `  ${name}: ${end.bytes > 0 ? mb(end.bytes) : '0'} now, ${mb(perDay(end.bytes - start.bytes))}/day grown; ` +
          `per day ${Math.round(perDay(end.inserted - start.inserted))} inserted, ` +
          `${Math.round(perDay(updated))} updated (${updated > 0 ? Math.round((hot / updated) * 100) : 0}% HOT), ` +
          `${Math.round(perDay(end.deleted - start.deleted))} deleted`,
      };
    })
    .filter((line) => line.active)
    .sort((a, b) => b.grown - a.grown || b.kept - a.kept);
  console.log('per table written to in the window (partitions under their table):');
  for (const line of lines) console.log(line.text);
}

async function printStatements(db: Pool, perDay: (n: number) => number) {
  const result = await db.query<{
    query: string;
    calls: number;
    wal_bytes: string;
    wal_fpi: number;
  }>(
    `SELECT regexp_replace(left(query, 200), '\\s+', ' ', 'g') AS query, calls, wal_bytes, wal_fpi
     FROM pg_stat_statements WHERE wal_bytes > 0 ORDER BY wal_bytes DESC LIMIT 8`,
  );
  console.log('WAL per statement (pg_stat_statements, largest first):');
  for (const row of result.rows) {
    const head = row.query.slice(0, 90);
    console.log(
      `  ${gb(perDay(Number(row.wal_bytes)))}/day, ${row.calls} calls, ${row.wal_fpi} full pages: ${head}`,
    );
  }
}

/** First start on an empty scratch cluster, wait out the backfill, then count a window. */
export async function benchPostgresDiskDay(
  settleSeconds = 60,
  windowSeconds = Number(process.env.PG_DISK_WINDOW_S ?? 300),
): Promise<void> {
  const cluster = await startScratchCluster();
  if (typeof cluster === 'string') {
    console.log(`skipped: ${cluster}`);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'pricing-disk-pg-'));
  const db = createPool({ connectionString: cluster.url, poolSize: 1 });
  let server: ChildServer | null = null;
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const started = performance.now();
    const args = [PRICING_BIN, 'serve', '--port', '0', '--data', dataDir, '--source', 'sim'];
    if (simItems > 0) args.push('--sim-items', String(simItems));
    const env = { ...embeddedEnv(), DATABASE_URL: cluster.url };
    server = await spawnServer([...args, '--log-level', 'warn'], 600_000, env);
    const log = join(tmpdir(), `disk-pg-server-${process.pid}.log`);
    const logStream = createWriteStream(log);
    server.child.stdout!.pipe(logStream);
    server.child.stderr!.pipe(logStream);
    console.log(`server output: ${log}`);
    const backfilled = await waitForBackfill(server);
    const backfillSeconds = (performance.now() - started) / 1000;
    console.log(
      backfilled
        ? `first start to backfill finished: ${backfillSeconds.toFixed(0)} s`
        : `backfill still running after ${BACKFILL_CAP_S} s (the window includes it)`,
    );
    await sleep(settleSeconds);
    await db.query('SELECT pg_stat_statements_reset()');
    const before = await readCounters(db, cluster.pid());
    const nodeBefore = writtenBytes(server.child.pid!);
    await sleep(windowSeconds);
    const after = await readCounters(db, cluster.pid());
    const nodeWritten = writtenBytes(server.child.pid!) - nodeBefore;
    const perDay = (n: number) => (n / windowSeconds) * DAY_S;
    const wal = after.walBytes - before.walBytes;
    const pages = after.pagesWritten - before.pagesWritten;
    const proc = procDelta(before.procWritten, after.procWritten);
    const settings = extraSettings();
    console.log(
      `steady window: ${windowSeconds} s, ${settleSeconds} s after the backfill; server settings: ` +
        (settings.length > 0 ? settings.join(', ') : 'defaults'),
    );
    console.log(
      `PostgreSQL written per day: ${gb(perDay(wal + pages))} (WAL ${gb(perDay(wal))}: ` +
        `${Math.round(perDay(after.walRecords - before.walRecords))} records, ` +
        `${Math.round(perDay(after.walFpi - before.walFpi))} full-page images; data pages ${gb(perDay(pages))}); ` +
        `server processes' write_bytes ${gb(perDay(proc))}; the node server itself ${gb(perDay(nodeWritten))}`,
    );
    console.log(
      `PostgreSQL kept: database ${gb(after.databaseBytes)} after the window, grown ${gb(perDay(after.databaseBytes - before.databaseBytes))} per day`,
    );
    const quotes = await db.query<{ quotes: number }>(
      'SELECT count(DISTINCT (game, market, item_id)) AS quotes FROM side_snapshots',
    );
    const stored = Number(quotes.rows[0]!.quotes);
    const scale = FULL_QUOTES / stored;
    console.log(
      `${stored} item × market quotes (${simItems > 0 ? `--sim-items ${simItems}, the most popular items` : 'full catalogs'}); ` +
        `scaled by quotes to the full ${FULL_QUOTES}: written ${gb(perDay(wal + pages) * scale)}, ` +
        `kept ${gb(perDay(after.databaseBytes - before.databaseBytes) * scale)} per day`,
    );
    printTables(before, after, perDay);
    await printStatements(db, perDay);
  } finally {
    await server?.stop();
    await db.end();
    cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
