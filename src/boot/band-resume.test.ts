import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cutTestCatalogs } from '../catalog/test-catalogs.ts';
import { HOUR, manualClock } from '../domain/clock.ts';
import type { IngestBatch } from '../domain/quote.ts';
import {
  createSqlitePriceStore,
  type SqlitePriceStore,
} from '../store/sqlite/sqlite-price-store.ts';
import { configuredBackfill, EXAMPLE_ITEMS, type BackfillOptions } from './backfill.ts';
import { bandContents, storedSeries } from './band-contents.ts';
import {
  BACKFILL_JOB,
  bandProgress,
  freshBand,
  runPhase,
  unfinishedBand,
  type BandPlace,
} from './band-resume.ts';

const clock = manualClock('2026-11-20T10:00:00Z');
const config = {
  seed: 7,
  backfillDays: 1,
  backfillItems: 25,
  fxFile: null,
  source: 'sim' as const,
};
/**
 * A cut catalog (the whole one makes each simulated world 38,800 items): the band's chunks are
 * the same on any, and it only compares runs of its own.
 */
const catalogs = cutTestCatalogs({ items: 300, keepNames: EXAMPLE_ITEMS });
/**
 * Two-hour steps: the chunks are the same (a day's window × ten items, then the last step), at
 * half the observations of the hourly steps a server uses (test/backfill-resume.test.ts).
 */
const STEP_MS = 2 * HOUR;

async function bandStore(): Promise<{ store: SqlitePriceStore; options: BackfillOptions }> {
  const store = createSqlitePriceStore({ path: ':memory:', clock });
  await store.init();
  const options = await configuredBackfill(config, {
    catalogs,
    book: { apply: () => {} },
    store,
    clock,
    toMs: freshBand(clock).toMs,
  });
  return { store, options: { ...options, stepMs: STEP_MS, quiet: true } };
}

/** Both phases from `place` to the end. */
async function runBand(options: BackfillOptions, place: BandPlace | null) {
  const chunks: number[] = [];
  while (place) {
    const result = await runPhase(options, place);
    chunks.push(result?.totals.chunks ?? -1);
    place = result?.next ?? null;
  }
  return chunks;
}

/** What the band left in `store`, over the series `reference` holds. */
async function contents(store: SqlitePriceStore, reference: SqlitePriceStore) {
  const series = await storedSeries({ prices: reference, history: reference });
  const band = { toMs: freshBand(clock).toMs, days: config.backfillDays };
  const sides = await store.loadSides('cs2');
  return {
    sides: sides.map(({ ingestedAt: _, ...side }) => side),
    ...(await bandContents({ prices: store, history: store }, band, series)),
  };
}

describe('the backfill place', () => {
  test('names the phase and chunks written until the band ends; a broken one names none', async () => {
    const store = createSqlitePriceStore({ path: ':memory:', clock });
    await store.init();
    assert.equal(await unfinishedBand(store), null);
    const place: BandPlace = { toMs: 1_795_000_000_000, phase: 'popular', done: 3 };
    await store.writeBatch({ sides: [], sales: [], listings: [] }, undefined, bandProgress(place));
    assert.deepEqual(await unfinishedBand(store), place);
    for (const broken of ['{"toMs":', '{"toMs":"soon","phase":"named","done":0}', '{}']) {
      const progress = { job: BACKFILL_JOB, state: broken };
      await store.writeBatch({ sides: [], sales: [], listings: [] }, undefined, progress);
      assert.equal(await unfinishedBand(store), null, broken);
    }
    await store.close();
  });
});

describe('resuming a stopped backfill', () => {
  test('goes on after the last chunk written and leaves what one whole run leaves', async () => {
    const once = await bandStore();
    const wholeChunks = await runBand(once.options, freshBand(clock));
    assert.equal(await unfinishedBand(once.store), null, 'a finished band leaves no place');
    await once.store.flushRollups();

    const resumed = await bandStore();
    const stop = new AbortController();
    let applied = 0;
    const stopAfterTwo = {
      apply: (_batch: IngestBatch) => {
        applied += 1;
        if (applied === 2) stop.abort();
      },
    };
    const named = await runPhase(resumed.options, freshBand(clock));
    const popular = { ...resumed.options, book: stopAfterTwo, signal: stop.signal };
    assert.equal(await runPhase(popular, named!.next!), null, 'stopped');
    const place = await unfinishedBand(resumed.store);
    assert.deepEqual(place, { ...named!.next!, done: 2 });
    const resumedChunks = await runBand(resumed.options, place);
    assert.deepEqual(resumedChunks, [wholeChunks[1]! - 2], 'only the chunks left are written');
    await resumed.store.flushRollups();

    const reference = await contents(once.store, once.store);
    assert.ok(reference.sales.length > 0 && reference.rollups.length > 0);
    assert.deepEqual(await contents(resumed.store, once.store), reference);
    await Promise.all([once.store.close(), resumed.store.close()]);
  });
});
