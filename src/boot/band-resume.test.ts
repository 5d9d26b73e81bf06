import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCatalogs } from '../catalog/index.ts';
import { HOUR, manualClock } from '../domain/clock.ts';
import type { IngestBatch } from '../domain/quote.ts';
import {
  createSqlitePriceStore,
  type SqlitePriceStore,
} from '../store/sqlite/sqlite-price-store.ts';
import { backfillHistory, type BackfillOptions } from './backfill.ts';
import { BAND_MARKER_FILE, clearBandPending, markBandPending, pendingBand } from './band-resume.ts';
import { chooseFxTable } from './fx-source.ts';

const clock = manualClock('2026-11-20T10:00:00Z');

describe('the popular-band marker', () => {
  test('names the band until cleared; a missing or broken marker names none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-marker-'));
    try {
      assert.equal(pendingBand(dir), null);
      markBandPending(dir, 1_795_000_000_000);
      assert.equal(pendingBand(dir), 1_795_000_000_000);
      clearBandPending(dir);
      assert.equal(pendingBand(dir), null);
      fs.writeFileSync(path.join(dir, BAND_MARKER_FILE), '{"toMs":');
      assert.equal(pendingBand(dir), null);
      fs.writeFileSync(path.join(dir, BAND_MARKER_FILE), '{"toMs":"soon"}');
      assert.equal(pendingBand(dir), null);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Everything the store holds that a band writes: latest state, sales and the rollup rows. */
function contents(store: SqlitePriceStore): string {
  const tables = ['side_snapshots', 'sales', 'rollups_10m', 'rollups_1h', 'rollups_1d'];
  const rows = tables.map((table) => store.db.prepare(`SELECT * FROM ${table}`).raw().all());
  return JSON.stringify(rows, (_key, value: unknown) =>
    value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value,
  );
}

async function bandStore(): Promise<{ store: SqlitePriceStore; options: BackfillOptions }> {
  const store = createSqlitePriceStore({ path: ':memory:', clock });
  await store.init();
  const options: BackfillOptions = {
    seed: 7,
    days: 1,
    itemLimit: 25,
    catalogs: loadCatalogs(),
    fx: await chooseFxTable({ fxFile: null, source: 'sim', seed: 7 }, clock.now()),
    book: { apply: () => {} },
    store,
    clock,
    toMs: clock.now() - HOUR,
    cover: 'popular',
    quiet: true,
  };
  return { store, options };
}

describe('resuming a stopped popular band', () => {
  test('writing the band again after a stop leaves what one whole run leaves', async () => {
    const once = await bandStore();
    await backfillHistory(once.options);
    await once.store.flushRollups();

    const resumed = await bandStore();
    const stop = new AbortController();
    let chunks = 0;
    const stopAfterTwo = {
      apply: (_batch: IngestBatch) => {
        chunks += 1;
        if (chunks === 2) stop.abort();
      },
    };
    await backfillHistory({ ...resumed.options, book: stopAfterTwo, signal: stop.signal });
    await resumed.store.flushRollups();
    assert.notEqual(contents(resumed.store), contents(once.store), 'the stop left it partial');
    await backfillHistory(resumed.options);
    await resumed.store.flushRollups();
    assert.equal(contents(resumed.store), contents(once.store));
    await Promise.all([once.store.close(), resumed.store.close()]);
  });
});
