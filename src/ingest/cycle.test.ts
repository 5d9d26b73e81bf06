import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Book } from '../book/book.ts';
import { createCatalog } from '../catalog/create-catalog.ts';
import { manualClock, MINUTE } from '../domain/clock.ts';
import type { Observation } from '../domain/observation.ts';
import { MARKET_IDS } from '../domain/markets.ts';
import { createSimAdapters } from '../markets/sim/adapters.ts';
import { CS2_TEST_ITEMS, syntheticCatalog } from '../markets/sim/test-catalog.ts';
import { journalDirOf } from '../store/sqlite/journal-segments.ts';
import { replaySegment } from '../store/sqlite/rollup-journal.ts';
import {
  createSqlitePriceStore,
  type SqlitePriceStore,
} from '../store/sqlite/sqlite-price-store.ts';
import { runCycle, sliceByItem, type CycleDeps } from './cycle.ts';
import { DEFAULT_FX } from './fx.ts';
import {
  askObservation,
  marketInfo,
  recordingStore,
  scriptedAdapter,
  testCatalogs,
  TEST_FX,
} from './test-fixtures.ts';

const T0 = Date.parse('2026-11-01T12:00:00Z');
const ITEMS = [...CS2_TEST_ITEMS, ...syntheticCatalog(240)];
const CATALOGS = { cs2: createCatalog('cs2', ITEMS, []) };
/** Both polls in one 10-minute period: nothing is folded, the journal holds every entry. */
const POLLS = [T0 + MINUTE, T0 + 4 * MINUTE];
const SLICE = 20;

interface Ingested {
  store: SqlitePriceStore;
  book: Book;
  dir: string;
  path: string;
  slices: number[];
}

/** Every simulated CS2 market polled at each of POLLS into a fresh store and book. */
async function ingest(sliceItems: number): Promise<Ingested> {
  const dir = mkdtempSync(join(tmpdir(), 'cycle-slices-'));
  const path = join(dir, 'prices.db');
  const clock = manualClock(T0);
  const store = createSqlitePriceStore({ path, clock });
  await store.init();
  const book = new Book();
  const deps: CycleDeps = {
    catalogs: CATALOGS,
    fx: () => DEFAULT_FX,
    book,
    store,
    clock,
    onBookError: (error) => assert.fail(String(error)),
    sliceItems,
  };
  const adapters = createSimAdapters({ seed: 11, catalogs: CATALOGS, faults: false });
  const slices: number[] = [];
  for (const at of POLLS) {
    clock.set(at);
    for (const adapter of adapters.filter((entry) => entry.info.games.includes('cs2'))) {
      const outcome = await runCycle(adapter, 'cs2', deps);
      assert.equal(outcome.error, null, `${adapter.info.id}: ${outcome.error?.message}`);
      slices.push(outcome.committed.slices);
    }
  }
  return { store, book, dir, path, slices };
}

const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

function bookState(book: Book) {
  return ITEMS.map((item) => ({
    sides: book.sides('cs2', item.id),
    sales: book.sales('cs2', item.id),
    listings: book.listings('cs2', item.id).sort(byJson),
    stats: book.salesStats('cs2', item.id).sort(byJson),
  }));
}

async function storeState(store: SqlitePriceStore) {
  return {
    sides: (await store.loadSides('cs2')).sort(byJson),
    sales: (await store.loadSales('cs2', 0)).sort(byJson),
    listings: (await store.loadListings('cs2')).sort(byJson),
    stats: (await store.loadSalesStats('cs2')).sort(byJson),
  };
}

/** The journal's entries without their series ids (a slice creates ids in another order). */
function journalEntries(path: string): string[] {
  const dir = journalDirOf(path);
  const entries: string[] = [];
  const sink = {
    side: (_own: number, _all: number, obs: object) => entries.push(JSON.stringify(obs)),
    sale: (_own: number, _all: number, price: number, units: number, at: number) =>
      entries.push(JSON.stringify({ price, units, at })),
  };
  for (const name of readdirSync(dir)) {
    replaySegment(
      readFileSync(join(dir, name)),
      () => sink,
      () => 0,
    );
  }
  return entries.sort();
}

async function historyState(store: SqlitePriceStore) {
  await store.flushRollups();
  const rows = [];
  for (const item of ITEMS) {
    for (const market of [...MARKET_IDS, null]) {
      const series = { game: 'cs2' as const, itemId: item.id, market };
      rows.push(await store.readRollups(series, '10m', 0, T0 + 60 * MINUTE));
    }
  }
  return rows;
}

describe('runCycle in slices of whole items', () => {
  test('a poll of many slices leaves the book, store and history as the poll at once', async () => {
    const whole = await ingest(1_000_000);
    const sliced = await ingest(SLICE);
    try {
      assert.ok(Math.max(...sliced.slices) >= 6, `slices per poll: ${sliced.slices.join(' ')}`);
      assert.ok(whole.slices.every((count) => count <= 1));
      assert.deepEqual(bookState(sliced.book), bookState(whole.book));
      assert.deepEqual(await storeState(sliced.store), await storeState(whole.store));
      const journal = journalEntries(whole.path);
      assert.ok(journal.length > 1_000, `${journal.length} journal entries`);
      assert.deepEqual(journalEntries(sliced.path), journal);
      assert.deepEqual(await historyState(sliced.store), await historyState(whole.store));
    } finally {
      for (const run of [whole, sliced]) {
        await run.store.close();
        rmSync(run.dir, { recursive: true, force: true });
      }
    }
  });

  test('a Doppler phase and its base item share a slice; slices keep the poll order', () => {
    const catalog = testCatalogs().cs2;
    const ak = askObservation();
    const base = askObservation({ item: '★ Karambit | Doppler (Factory New)' });
    const awp = askObservation({ item: 'AWP | Asiimov (Field-Tested)' });
    const phase = askObservation({ item: '★ Karambit | Doppler Phase 2 (Factory New)' });
    const akBid = askObservation({ side: 'bid' });
    const unknown = askObservation({ item: 'Not An Item' });
    const poll: Observation[] = [ak, base, awp, phase, akBid, unknown];
    assert.deepEqual(sliceByItem(poll, catalog, 2), [
      [ak, base, phase, akBid],
      [awp, unknown],
    ]);
    assert.deepEqual(sliceByItem(poll, catalog, 10), [poll]);
  });

  test('a store failure in a later slice keeps the slices before it and fails the record', async () => {
    const clock = manualClock(T0);
    const names = [
      'AK-47 | Redline (Field-Tested)',
      'AWP | Asiimov (Field-Tested)',
      '★ Karambit | Doppler (Factory New)',
      '★ Bayonet | Doppler (Factory New)',
    ];
    const observations = names.map((item) => askObservation({ item, fetchedAt: T0 }));
    const adapter = scriptedAdapter(marketInfo(), [{ observations }]);
    const store = recordingStore();
    const writeBatch = store.writeBatch.bind(store);
    store.writeBatch = async (batch, fence) => {
      if (store.batches.length === 2) store.failWrites = 1;
      return writeBatch(batch, fence);
    };
    const book = new Book();
    const outcome = await runCycle(adapter, 'cs2', {
      catalogs: testCatalogs(),
      fx: () => TEST_FX,
      book,
      store,
      clock,
      onBookError: (error) => assert.fail(String(error)),
      sliceItems: 1,
    });
    assert.deepEqual(
      store.batches.map((batch) => batch.sides.map((side) => side.itemId)),
      [['ak47-redline-ft'], ['awp-asiimov-ft']],
    );
    assert.equal(book.sides('cs2', 'awp-asiimov-ft').length, 1, 'slice 2 applied');
    assert.equal(book.sides('cs2', 'karambit-doppler-fn').length, 0, 'slice 3 not applied');
    assert.equal(book.sides('cs2', 'bayonet-doppler-fn').length, 0, 'slice 4 dropped');
    assert.deepEqual(outcome.committed, {
      slices: 2,
      sides: 2,
      sales: 0,
      listings: 0,
      salesStats: 0,
    });
    assert.equal(outcome.record.ok, false);
    assert.equal(outcome.record.failure, 'store');
    assert.equal(outcome.record.errorKind, 'retryable');
    assert.equal(outcome.record.ingestedAt, null);
    assert.equal(outcome.record.observationCount, 4);
    assert.equal(outcome.record.detail, 'disk full (2 of 4 slices committed before it)');
    assert.equal(outcome.error?.kind, 'retryable');
  });

  test('no_data only when every slice was rejected, not when one slice was', async () => {
    const clock = manualClock(T0);
    const run = (observations: Observation[]) =>
      runCycle(scriptedAdapter(marketInfo(), [{ observations }]), 'cs2', {
        catalogs: testCatalogs(),
        fx: () => TEST_FX,
        book: new Book(),
        store: recordingStore(),
        clock,
        onBookError: () => undefined,
        sliceItems: 1,
      });
    const unknown = askObservation({ item: 'Not An Item', fetchedAt: T0 });
    const other = askObservation({ item: 'Nor This', fetchedAt: T0 });
    const good = askObservation({ fetchedAt: T0 });
    const partly = await run([unknown, good]);
    assert.equal(partly.record.ok, true);
    assert.equal(partly.record.rejectedCount, 1);
    assert.equal(partly.record.unmappedCount, 1);
    assert.equal(partly.committed.slices, 1);
    const none = await run([unknown, other]);
    assert.equal(none.record.failure, 'no_data');
    assert.equal(none.record.rejectedCount, 2);
    assert.equal(none.record.unmappedCount, 2);
  });
});
