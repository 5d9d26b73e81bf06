/**
 * `npm run bench -- attribute-log`: bytes written by the SQLite attribute-bucket history, the
 * open buckets as a change log with rows written once when they close (migration 13) against
 * the upsert of every observed bucket's row in all three tiers per call it replaced (migrations
 * 1-12 and the same upsert statement), on a model of the simulator's calls: BUCKETS bucket ids,
 * each call observing PER_CALL of them every CALL_EVERY. Bytes are the process's `wchar` and
 * `write_bytes` (/proc/self/io, proc(5)) over the measured hours after a warm-up, WAL
 * checkpoints included; both layouts in the same run, on the same calls, read back equal.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { DAY, HOUR } from '../src/domain/clock.ts';
import { TIERS } from '../src/pricing/rollup-buckets.ts';
import {
  rollupOf,
  type BucketObservation,
  type BucketRollup,
} from '../src/store/bucket-history.ts';
import { bucketRollupValues } from '../src/store/bucket-rollup-rows.ts';
import { ATTRIBUTE_UPSERT } from '../src/store/sqlite/bucket-history.ts';
import { openPrices } from '../src/store/sqlite/connection.ts';
import { migrate } from '../src/store/sqlite/migrate.ts';
import { SQLITE_MIGRATIONS } from '../src/store/sqlite/migrations.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { gbADay, mb, selfIo } from './harness.ts';

const T0 = 1_793_491_200_000;
const WARM_HOURS = Number(process.env.ATTRIBUTE_LOG_WARM_HOURS ?? 24);
const HOURS = Number(process.env.ATTRIBUTE_LOG_HOURS ?? 24);
/** The simulator's CS2 buckets on the bucket markets, and a call's changed ones (2026-11-29). */
const BUCKETS = 2_060;
const PER_CALL = 57;
const CALL_EVERY = 35_000;

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

const bucketId = (index: number) =>
  `${['buff163', 'csfloat', 'dmarket'][index % 3]}:cs2_${mix(index, 1).toString(36)}:float:0.${index % 97}`;

function* calls(fromMs: number, hours: number): Generator<BucketObservation[]> {
  for (let at = fromMs; at < fromMs + hours * HOUR; at += CALL_EVERY) {
    const picked = new Set<number>();
    for (let k = 0; picked.size < PER_CALL; k++) picked.add(mix(at, k) % BUCKETS);
    yield [...picked].map((index) => ({
      bucketId: bucketId(index),
      at,
      askCents: 1_000 + (index % 500) + (mix(index, at) % 30),
      bidCents: index % 4 === 0 ? null : 900 + (index % 500),
      askListingCount: 1 + (mix(index, at + 1) % 9),
      bidOrderCount: index % 4 === 0 ? null : 3,
    }));
  }
}

interface Layout {
  record(observations: readonly BucketObservation[]): Promise<void>;
  read(id: string): Promise<BucketRollup[]>;
  db: Database.Database;
  close(): Promise<void>;
}

/** Every observed bucket's row of each tier upserted per call (main before migration 13). */
function upsertLayout(file: string): Layout {
  const db = openPrices(file);
  migrate(db, SQLITE_MIGRATIONS.slice(0, 12), () => T0);
  const upsert = db.prepare(ATTRIBUTE_UPSERT);
  const select = db.prepare<[string, string]>(
    `SELECT * FROM attribute_rollups WHERE bucket_id = ? AND tier = ? ORDER BY start`,
  );
  const record = db.transaction((observations: readonly BucketObservation[]) => {
    for (const observation of observations) {
      for (const tier of TIERS)
        upsert.run(...bucketRollupValues(rollupOf(observation, tier), tier));
    }
  });
  return {
    record: async (observations) => void record(observations),
    read: async (id) =>
      TIERS.flatMap((tier) => (select.all(id, tier) as Record<string, number>[]).map(rowOf(id))),
    db,
    close: async () => void db.close(),
  };
}

const rowOf =
  (id: string) =>
  (row: Record<string, number>): BucketRollup => ({
    bucketId: id,
    start: row.start!,
    open: row.open_ask!,
    high: row.high_ask!,
    low: row.low_ask!,
    close: row.close_ask!,
    askSum: row.ask_sum!,
    askN: row.ask_n!,
    closeBid: row.close_bid ?? null,
    askCount: row.ask_count!,
    bidCount: row.bid_count ?? null,
    firstAt: row.first_at!,
    lastAt: row.last_at!,
  });

async function logLayout(file: string): Promise<Layout> {
  const store = createSqlitePriceStore({ path: file, rollups: false });
  await store.init();
  return {
    record: (observations) => store.recordBucketObservations(observations),
    read: async (id) => {
      const rows = [];
      for (const tier of TIERS)
        rows.push(...(await store.readBucketRollups(id, tier, 0, T0 + 30 * DAY)));
      return rows;
    },
    db: store.db,
    close: () => store.close(),
  };
}

interface Measured {
  wchar: number;
  written: number;
  cpuMs: number;
  calls: number;
  rows: BucketRollup[];
}

async function measure(layout: Layout): Promise<Measured> {
  for (const call of calls(T0, WARM_HOURS)) await layout.record(call);
  layout.db.pragma('wal_checkpoint(TRUNCATE)');
  const before = selfIo();
  const cpu = process.cpuUsage();
  let count = 0;
  for (const call of calls(T0 + WARM_HOURS * HOUR, HOURS)) {
    await layout.record(call);
    count++;
  }
  layout.db.pragma('wal_checkpoint(TRUNCATE)');
  const after = selfIo();
  const used = process.cpuUsage(cpu);
  const rows: BucketRollup[] = [];
  for (let index = 0; index < BUCKETS; index += 97)
    rows.push(...(await layout.read(bucketId(index))));
  await layout.close();
  return {
    wchar: after.wchar - before.wchar,
    written: after.written - before.written,
    cpuMs: (used.user + used.system) / 1000,
    calls: count,
    rows,
  };
}

/** CPU of a reopened store's first read: the log replayed. */
async function reopenMs(file: string): Promise<number> {
  const store = createSqlitePriceStore({ path: file, rollups: false });
  await store.init();
  const started = performance.now();
  await store.readBucketRollups(bucketId(0), '10m', 0, T0 + 30 * DAY);
  const ms = performance.now() - started;
  await store.close();
  return ms;
}

export async function benchAttributeLog(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-attribute-log-'));
  try {
    const table = await measure(upsertLayout(path.join(dir, 'table.db')));
    const logFile = path.join(dir, 'log', 'prices.db');
    const log = await measure(await logLayout(logFile));
    const replay = await reopenMs(logFile);
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.log(
      `${WARM_HOURS} h warm-up, then ${HOURS} h measured: ${BUCKETS} bucket ids, calls of ${PER_CALL} observed buckets every ${CALL_EVERY / 1000} s; load ${load}`,
    );
    const line = (name: string, r: Measured) =>
      `${name}: wchar ${mb(r.wchar)} (${gbADay(r.wchar, HOURS)}), write_bytes ${mb(r.written)} (${gbADay(r.written, HOURS)}), ` +
      `${r.calls} calls, CPU ${(r.cpuMs / 1000).toFixed(1)} s`;
    console.log(line('upsert of each observed bucket in three tiers (before)', table));
    console.log(line('change log, rows written when their bucket closes (after)', log));
    console.log(
      `after / before: wchar ${(log.wchar / table.wchar).toFixed(3)}×, write_bytes ${(log.written / Math.max(1, table.written)).toFixed(3)}×; ` +
        `a reopened store's first read (log replayed) ${replay.toFixed(0)} ms`,
    );
    assert.deepEqual(log.rows, table.rows, 'the two layouts read back the same rows');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
