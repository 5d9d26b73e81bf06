/**
 * `npm run bench -- sales-time`: bytes written by the SQLite raw sales, the table keyed time
 * first (migration 14: (game, sold_at, item_id, market, price, quantity), no second index)
 * against the table keyed item first with its covering time index it replaced (migrations
 * 1-13), on a model of the simulator's sales: SALES_PER_BATCH new sales a batch every
 * BATCH_EVERY, items drawn from ITEMS with a popularity skew, sold up to SOLD_LAG before the
 * batch. Both layouts through the store's insert statement, one transaction a batch, after
 * WARM_DAYS of sales; bytes are the process's `wchar` and `write_bytes` (/proc/self/io,
 * proc(5)) between two WAL checkpoints, both layouts in the same run, read back equal.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { DAY, HOUR } from '../src/domain/clock.ts';
import { openPrices } from '../src/store/sqlite/connection.ts';
import { migrate } from '../src/store/sqlite/migrate.ts';
import { SQLITE_MIGRATIONS } from '../src/store/sqlite/migrations.ts';
import { prepareStatements } from '../src/store/sqlite/statements.ts';
import { gbADay, mb, selfIo } from './harness.ts';

const T0 = 1_793_491_200_000;
const WARM_DAYS = Number(process.env.SALES_TIME_WARM_DAYS ?? 3);
const HOURS = Number(process.env.SALES_TIME_HOURS ?? 6);
/** About a sale a second: the sampled day keeps 13.3 MB of sales (disk-day), 160 bytes each. */
const SALES_PER_BATCH = 20;
const BATCH_EVERY = 20_000;
const SOLD_LAG = 230_000;
const ITEMS = 20_000;
const MARKETS = ['buff163', 'csdeals', 'csfloat', 'dmarket', 'marketcsgo'];

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

/** A batch's sales: item rank skewed to the popular (square of a uniform draw). */
function batchAt(at: number): (number | string)[][] {
  return Array.from({ length: SALES_PER_BATCH }, (_, k) => {
    const draw = mix(at, k) / 4294967296;
    const item = Math.floor(draw * draw * ITEMS);
    const soldAt = at - (mix(at, k + 100) % SOLD_LAG);
    const market = MARKETS[mix(item, at) % MARKETS.length]!;
    return ['cs2', `cs2_${mix(item, 7).toString(36)}${item}`, soldAt, market];
  }).map(([game, item, soldAt, market]) => [
    game!,
    item!,
    soldAt!,
    market!,
    500 + (mix(soldAt as number, 3) % 5_000),
    1,
    at,
    'USD',
  ]);
}

function open(file: string, versions: number): Database.Database {
  const db = openPrices(file);
  migrate(db, SQLITE_MIGRATIONS.slice(0, versions), () => T0);
  return db;
}

interface Measured {
  wchar: number;
  written: number;
  batches: number;
  kept: number;
  sales: unknown[];
}

function measure(db: Database.Database): Measured {
  const insert = prepareStatements(db).insertSale;
  const write = db.transaction((rows: (number | string)[][]) => {
    for (const row of rows) insert.run(row);
  });
  const from = T0 + WARM_DAYS * DAY;
  for (let at = T0; at < from; at += BATCH_EVERY) write(batchAt(at));
  db.pragma('wal_checkpoint(TRUNCATE)');
  const before = selfIo();
  let batches = 0;
  for (let at = from; at < from + HOURS * HOUR; at += BATCH_EVERY, batches++) write(batchAt(at));
  db.pragma('wal_checkpoint(TRUNCATE)');
  const after = selfIo();
  const sales = prepareStatements(db).selectSales.all('cs2', from);
  const kept = db.prepare('SELECT sum(pgsize) FROM dbstat WHERE name LIKE ?').pluck();
  const measured = {
    wchar: after.wchar - before.wchar,
    written: after.written - before.written,
    batches,
    kept: kept.get('sales%') as number,
    sales,
  };
  db.close();
  return measured;
}

export async function benchSalesTime(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sales-time-'));
  try {
    const itemFirst = measure(open(path.join(dir, 'item.db'), 13));
    const timeFirst = measure(open(path.join(dir, 'time.db'), SQLITE_MIGRATIONS.length));
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.log(
      `${WARM_DAYS} days of sales before, then ${HOURS} h measured: ${SALES_PER_BATCH} sales a batch every ${BATCH_EVERY / 1000} s over ${ITEMS} items, sold up to ${SOLD_LAG / 1000} s before; load ${load}`,
    );
    const line = (name: string, r: Measured) =>
      `${name}: wchar ${mb(r.wchar)} (${gbADay(r.wchar, HOURS)}), write_bytes ${mb(r.written)} (${gbADay(r.written, HOURS)}), ` +
      `${r.batches} batches; table and indexes hold ${mb(r.kept)}`;
    console.log(line('keyed item first + time index (before)', itemFirst));
    console.log(line('keyed time first, no index (after)', timeFirst));
    console.log(
      `after / before: wchar ${(timeFirst.wchar / itemFirst.wchar).toFixed(3)}×, write_bytes ${(timeFirst.written / Math.max(1, itemFirst.written)).toFixed(3)}×, kept ${(timeFirst.kept / itemFirst.kept).toFixed(2)}×`,
    );
    const sorted = (sales: unknown[]) => sales.map((sale) => JSON.stringify(sale)).sort();
    assert.deepEqual(sorted(timeFirst.sales), sorted(itemFirst.sales), 'the same sales read back');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
