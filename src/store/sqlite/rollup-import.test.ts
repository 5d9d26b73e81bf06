/**
 * Rollups from `pricing import` of past observations equal rollups from live ingest of the
 * same observations: simulator history goes once through importObservations (large chunks)
 * and once as live fetches (one normalised batch per market per step, as the runner commits).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Book } from '../../book/book.ts';
import { HOUR, MINUTE } from '../../domain/clock.ts';
import { GAMES } from '../../domain/games.ts';
import type { Observation } from '../../domain/observation.ts';
import { DEFAULT_FX, type FxTable } from '../../ingest/fx.ts';
import { importObservations } from '../../ingest/import-file.ts';
import { normalise } from '../../ingest/normalise.ts';
import { tinyCatalog } from '../../ingest/test-fixtures.ts';
import { simBackfill } from '../../markets/sim/backfill.ts';
import { simFxRates } from '../../markets/sim/price-model.ts';
import { CS2_TEST_ITEMS, RUST_TEST_ITEMS, TEST_CATALOGS } from '../../markets/sim/test-catalog.ts';
import { TIERS } from '../../pricing/rollup-buckets.ts';
import type { HistoryStore } from '../history-store.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';

const FROM = Date.parse('2026-11-01T22:00:00Z');
const TO = FROM + 4 * HOUR;
const SEED = 11;
const catalogs = {
  cs2: tinyCatalog('cs2', CS2_TEST_ITEMS),
  rust: tinyCatalog('rust', RUST_TEST_ITEMS),
};
const fx: FxTable = {
  asOf: FROM,
  source: 'test',
  usdMicroPerUnit: { ...DEFAULT_FX.usdMicroPerUnit, ...simFxRates(SEED, FROM) },
};

async function openStore() {
  const store = createSqlitePriceStore({ path: ':memory:' });
  await store.init();
  return store;
}

async function everything(store: HistoryStore) {
  const out: Record<string, unknown> = {};
  for (const game of GAMES) {
    for (const item of catalogs[game].items) {
      const markets = await store.historyMarkets(game, item.id);
      out[`${game}/${item.id}/markets`] = markets;
      for (const market of [null, ...markets]) {
        for (const tier of TIERS) {
          const key = `${game}/${item.id}/${market ?? '*'}/${tier}`;
          out[key] = await store.readRollups({ game, itemId: item.id, market }, tier, 0, TO + HOUR);
        }
      }
    }
  }
  return out;
}

describe('import vs live', () => {
  test('rollups of imported past data equal rollups of the same observations ingested live', async () => {
    const chunks = [
      ...simBackfill({
        seed: SEED,
        catalogs: TEST_CATALOGS,
        fromMs: FROM,
        toMs: TO,
        stepMs: 5 * MINUTE,
        itemLimit: 8,
      }),
    ];
    const now = TO + MINUTE;
    const live = await openStore();
    for (const chunk of chunks) {
      const fetches = new Map<string, Observation[]>();
      for (const observation of chunk) {
        const key = `${observation.game}/${observation.market}`;
        fetches.set(key, [...(fetches.get(key) ?? []), observation]);
      }
      for (const observations of fetches.values()) {
        await live.writeBatch(normalise(observations, { catalogs, fx, now }).batch);
      }
    }
    const imported = await openStore();
    const lines = chunks.flat().map((observation, index) => ({ line: index + 1, observation }));
    const summary = await importObservations(lines, {
      catalogs,
      fx,
      book: new Book(),
      store: imported,
      clock: { now: () => now },
      chunkSize: 1_000,
    });
    assert.ok(summary.accepted > 1_000, `${summary.accepted} observations imported`);
    const fromLive = await everything(live);
    const rows = Object.values(fromLive).filter(Array.isArray).flat();
    assert.ok(rows.length > 200, 'the comparison covers real data');
    assert.deepEqual(await everything(imported), fromLive);
    await live.close();
    await imported.close();
  });
});
