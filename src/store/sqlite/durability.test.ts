import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DAY } from '../../domain/clock.ts';
import { TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import { mergeRollup, rollupOf, type BucketRollup } from '../bucket-history.ts';
import type { ListingRecord, SalesStatsRecord, SideSnapshot } from '../../domain/quote.ts';
import { sortListings, sortSides } from '../contract-fixtures.ts';
import {
  ATTRIBUTE_IDS,
  attributeCall,
  DURABILITY_T0,
  LIVE_IDS,
  PRUNE_EVERY,
  SNAPSHOT_ITEMS,
  liveListing,
  livePruneBefore,
  liveStats,
  sidesPerBatch,
  snapshotSide,
} from './durability-child.ts';
import { eachRecord, journalDirOf } from './journal-segments.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';

const saleOf = (key: { game: 'cs2'; itemId: string; market: 'skinport' }) => ({
  ...key,
  price: 1000,
  quantity: 1,
  soldAt: DURABILITY_T0,
  ingestedAt: DURABILITY_T0,
  originalCurrency: 'USD',
});

const childScript = fileURLToPath(new URL('./durability-child.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-durability-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const BATCHES_BEFORE_KILL = 15;
/** Enough for the writer to have folded a few times (every 12 batches) before the kill. */
const FOLDING_BATCHES_BEFORE_KILL = 60;
/**
 * A hang guard only: the writer reaches its kill point in seconds, far later on a busy machine
 * (it missed 15 s while the suite ran beside other work).
 */
const GIVE_UP_MS = 180_000;

/**
 * Starts the writer, SIGKILLs it once it has reported enough commits and, if asked, then a
 * line `step <killAtStep>`; resolves to the batches reported.
 */
function runAndKillWriter(
  file: string,
  mode: 'plain' | 'folding' | 'snapshotting' | 'live' | 'attributes' | 'sales',
  batchesBeforeKill = BATCHES_BEFORE_KILL,
  killAtStep?: string,
): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', childScript, file, mode], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const reported: number[] = [];
    let pending = '';
    let stderr = '';
    const giveUp = setTimeout(() => child.kill('SIGKILL'), GIVE_UP_MS);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('step ')) reported.push(Number(line));
        const atStep = killAtStep === undefined || line === `step ${killAtStep}`;
        if (reported.length >= batchesBeforeKill && atStep) child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(giveUp);
      if (signal === 'SIGKILL' && reported.length >= batchesBeforeKill) resolve(reported);
      else reject(new Error(`writer ended early (${signal}): ${stderr}`));
    });
  });
}

test('every batch reported committed survives kill -9 of the writer', async () => {
  const file = path.join(dir, 'prices.db');
  const reported = await runAndKillWriter(file, 'plain');
  assert.ok(fs.statSync(`${file}-wal`).size > 0, 'the kill left a WAL to recover from');

  const store = createSqlitePriceStore({ path: file });
  await store.init();
  assert.equal(store.db.pragma('integrity_check', { simple: true }), 'ok');
  const perBatch = new Map<number, number>();
  for (const side of await store.loadSides('cs2')) {
    const batchNumber = side.fetchedAt - DURABILITY_T0;
    perBatch.set(batchNumber, (perBatch.get(batchNumber) ?? 0) + 1);
  }
  await store.close();

  for (const batchNumber of reported) {
    assert.equal(
      perBatch.get(batchNumber),
      sidesPerBatch('plain'),
      `batch ${batchNumber} is complete`,
    );
  }
  const stored = [...perBatch.keys()].sort((a, b) => a - b);
  assert.deepEqual(
    stored,
    stored.map((_, index) => index),
    'batches are stored in order without gaps',
  );
  for (const [batchNumber, count] of perBatch) {
    assert.equal(count, sidesPerBatch('plain'), `batch ${batchNumber} is all or nothing`);
  }
});

test('kill -9 of a writer that folds as it goes: every reported side is in its rollups once', async () => {
  const file = path.join(dir, 'folding.db');
  const reported = await runAndKillWriter(file, 'folding', FOLDING_BATCHES_BEFORE_KILL);
  const store = createSqlitePriceStore({ path: file });
  await store.init();
  assert.equal(store.db.pragma('history.integrity_check', { simple: true }), 'ok');
  const sides = await store.loadSides('cs2');
  const batches = new Set(sides.map((side) => side.fetchedAt - DURABILITY_T0));
  const last = reported.length - 1;
  const checked = sides.filter((side) =>
    [0, last, last + 1].includes(side.fetchedAt - DURABILITY_T0),
  );
  for (const side of checked) {
    const inFlight = side.fetchedAt - DURABILITY_T0 > last;
    for (const market of ['skinport' as const, null]) {
      const key = { game: 'cs2' as const, itemId: side.itemId, market };
      const rows = await store.readRollups(key, '1d', DURABILITY_T0 - DAY, DURABILITY_T0 + DAY);
      const counted = rows[0]?.ask?.prices.n ?? 0;
      if (inFlight) assert.ok(counted <= 1, 'the batch committed as the kill came, at most once');
      else assert.equal(counted, 1, `${side.itemId} ${market} counted once`);
    }
  }
  assert.ok(batches.size <= reported.length + 1);
  await store.close();
});

test('kill -9 during a journal append: the torn record is dropped, every reported sale counts once', async () => {
  const file = path.join(dir, 'journal.db');
  const reported = await runAndKillWriter(file, 'sales');
  const segments = fs.readdirSync(journalDirOf(file)).sort((a, b) => parseInt(a) - parseInt(b));
  const segment = path.join(journalDirOf(file), segments.at(-1)!);
  const data = fs.readFileSync(segment);
  const whole = eachRecord(data, () => undefined);
  assert.equal(whole, data.length, 'every append the kill allowed is whole');
  // The next batch's record as an append the kill cut short would leave it.
  let lastRecord = 0;
  eachRecord(data, (blob) => void (lastRecord = blob.byteOffset - data.byteOffset - 8));
  fs.appendFileSync(segment, data.subarray(lastRecord, (lastRecord + data.length) >> 1));

  const store = createSqlitePriceStore({ path: file });
  await store.init();
  const stored = store.db.prepare("SELECT count(*) FROM sales WHERE item_id = 'sold-0'");
  const batches = stored.pluck().get() as number;
  assert.ok(batches === reported.length || batches === reported.length + 1);
  const key = { game: 'cs2' as const, itemId: 'sold-0', market: 'skinport' as const };
  const [day] = await store.readRollups(key, '1d', DURABILITY_T0 - DAY, DURABILITY_T0 + DAY);
  const units = day?.sales?.n ?? 0;
  assert.ok(units === reported.length || units === batches, `${units} sales counted once each`);
  await store.writeBatch({
    sides: [],
    sales: [{ ...saleOf(key), soldAt: DURABILITY_T0 + 9e6 }],
    listings: [],
  });
  await store.flushRollups();
  const [after] = await store.readRollups(key, '1d', DURABILITY_T0 - DAY, DURABILITY_T0 + DAY);
  assert.equal(after?.sales?.n, units + 1, 'a new writer appends to a segment of its own');
  await store.close();
});

/** What the store must hold after the snapshotting writer's first `batches` batches. */
function snapshottingReference(batches: number): SideSnapshot[] {
  const latest = new Map<number, SideSnapshot>();
  const count = sidesPerBatch('snapshotting');
  for (let batchNumber = 0; batchNumber < batches; batchNumber++) {
    for (let offset = 0; offset < count; offset++) {
      const index = (batchNumber * count + offset) % SNAPSHOT_ITEMS;
      latest.set(index, snapshotSide(batchNumber, index));
    }
  }
  return sortSides([...latest.values()]);
}

for (const step of ['part', 'switch']) {
  test(`kill -9 during a snapshot of the latest sides (after a ${step} step): nothing reported is lost`, async () => {
    const file = path.join(dir, `snapshot-${step}.db`);
    const reported = await runAndKillWriter(file, 'snapshotting', BATCHES_BEFORE_KILL, step);
    const store = createSqlitePriceStore({ path: file });
    await store.init();
    assert.equal(store.db.pragma('integrity_check', { simple: true }), 'ok');
    const { generation } = store.db.prepare('SELECT generation FROM side_state').get() as {
      generation: number;
    };
    const stale = store.db
      .prepare('SELECT count(*) AS n FROM side_parts WHERE generation != ?')
      .get(generation) as { n: number };
    if (step === 'part') assert.ok(stale.n > 0, 'the kill left an unfinished generation');
    const stored = sortSides(await store.loadSides('cs2'));
    const newest = Math.max(...stored.map((side) => side.fetchedAt)) - DURABILITY_T0;
    assert.ok(
      newest === reported.length - 1 || newest === reported.length,
      'the batches reported (and perhaps the one committed as the kill came) are all there',
    );
    const reference = snapshottingReference(newest + 1);
    assert.deepEqual(stored, reference);
    store.snapshotSides();
    assert.deepEqual(sortSides(await store.loadSides('cs2')), reference);
    await store.close();
  });
}

/**
 * What the live writer's first `batches` batches leave stored: every listing written, minus
 * those pruned (the last batch's prune only if `lastPruned`); statistics rewritten when their
 * content changed (live-writes.ts), so their fetchedAt is that of the change.
 */
function liveReference(batches: number, lastPruned: boolean) {
  const listings = new Map<string, ListingRecord>();
  const stats = new Map<string, SalesStatsRecord>();
  const content = ({ fetchedAt: _f, ingestedAt: _i, ...rest }: SalesStatsRecord) =>
    JSON.stringify(rest);
  for (let batchNumber = 0; batchNumber < batches; batchNumber++) {
    for (let j = 0; j < 50; j++) {
      const listing = liveListing(batchNumber, j);
      listings.set(listing.listingId, listing);
    }
    for (let j = 0; j < 20; j++) {
      const record = liveStats(batchNumber, j);
      const held = stats.get(record.itemId);
      if (held === undefined || content(held) !== content(record)) stats.set(record.itemId, record);
    }
    const pruned = batchNumber % PRUNE_EVERY === PRUNE_EVERY - 1;
    if (!pruned || (batchNumber === batches - 1 && !lastPruned)) continue;
    for (const [id, listing] of listings) {
      if (listing.fetchedAt < livePruneBefore(batchNumber)) listings.delete(id);
    }
  }
  const byItem = (a: SalesStatsRecord, b: SalesStatsRecord) => a.itemId.localeCompare(b.itemId);
  return {
    listings: sortListings([...listings.values()]),
    stats: [...stats.values()].sort(byItem),
    sortStats: (records: SalesStatsRecord[]) => [...records].sort(byItem),
  };
}

test('kill -9 of a writer of listings and statistics (log, prunes, snapshots): nothing reported is lost', async () => {
  const file = path.join(dir, 'live.db');
  const reported = await runAndKillWriter(file, 'live', 40);
  const store = createSqlitePriceStore({ path: file });
  await store.init();
  assert.equal(store.db.pragma('integrity_check', { simple: true }), 'ok');
  const snapshots = store.db
    .prepare('SELECT count(*) AS n, max(log_through) AS through FROM live_snapshots')
    .get() as { n: number; through: number };
  assert.ok(snapshots.n === 2 && snapshots.through > 0, 'the writer had snapshotted its log');
  const listings = sortListings(await store.loadListings('cs2'));
  const newest = Math.max(...listings.map((listing) => listing.fetchedAt)) - DURABILITY_T0;
  assert.ok(newest === reported.length - 1 || newest === reported.length);
  assert.ok(listings.length <= LIVE_IDS);
  const pruned = liveReference(newest + 1, true);
  const kept = liveReference(newest + 1, false);
  const expected = listings.length === pruned.listings.length ? pruned : kept;
  assert.deepEqual(listings, expected.listings);
  assert.deepEqual(expected.sortStats(await store.loadSalesStats('cs2')), expected.stats);
  store.snapshotLive();
  const left = store.db.prepare('SELECT count(*) AS n FROM live_log').get() as { n: number };
  assert.equal(left.n, 0);
  assert.deepEqual(sortListings(await store.loadListings('cs2')), expected.listings);
  await store.close();
});

/** The rows of one bucket id and tier that the attributes writer's first `calls` calls make. */
function attributeReference(calls: number, bucketId: string, tier: Tier): BucketRollup[] {
  const rows = new Map<number, BucketRollup>();
  for (let callNumber = 0; callNumber < calls; callNumber++) {
    for (const observation of attributeCall(callNumber)) {
      if (observation.bucketId !== bucketId) continue;
      const row = rollupOf(observation, tier);
      const held = rows.get(row.start);
      rows.set(row.start, held === undefined ? row : mergeRollup(held, row));
    }
  }
  return [...rows.values()].sort((a, b) => a.start - b.start);
}

test('kill -9 of a writer of attribute buckets (log, rows written as buckets close): nothing reported is lost', async () => {
  const file = path.join(dir, 'attributes.db');
  const reported = await runAndKillWriter(file, 'attributes', 600);
  const store = createSqlitePriceStore({ path: file });
  await store.init();
  assert.equal(store.db.pragma('integrity_check', { simple: true }), 'ok');
  const closed = store.db.prepare("SELECT count(*) FROM attribute_rollups WHERE tier = '1d'");
  assert.ok((closed.pluck().get() as number) > 0, 'the writer had closed a day');
  const from = DURABILITY_T0 - DAY;
  const to = DURABILITY_T0 + 30 * DAY;
  const tens = await store.readBucketRollups('bucket-0', '10m', from, to);
  const newest = (tens.at(-1)!.lastAt - DURABILITY_T0) / (3 * 60_000);
  assert.ok(newest === reported.length - 1 || newest === reported.length);
  for (let j = 0; j < ATTRIBUTE_IDS; j++) {
    for (const tier of TIERS) {
      const rows = await store.readBucketRollups(`bucket-${j}`, tier, from, to);
      assert.deepEqual(rows, attributeReference(newest + 1, `bucket-${j}`, tier), `${j} ${tier}`);
    }
  }
  await store.close();
});
