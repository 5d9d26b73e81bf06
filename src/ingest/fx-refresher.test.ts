import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock, DAY } from '../domain/clock.ts';
import { createMarketHttp } from '../markets/http/http-client.ts';
import type { MarketHttp } from '../markets/http/market-http.ts';
import { startLoopback, type Loopback } from '../markets/testing/loopback.ts';
import {
  createSqlitePriceStore,
  type SqlitePriceStore,
} from '../store/sqlite/sqlite-price-store.ts';
import { ECB_SAMPLE } from '../markets/ecb/test-ecb.ts';
import { DEFAULT_FX } from './fx.ts';
import { createFxRefresher, FX_MAX_AGE_MS, ratesTooOld } from './fx-refresher.ts';
import { normalise } from './normalise.ts';
import { testCatalogs } from './test-fixtures.ts';

const silent = { info: () => undefined, warn: () => undefined };
const noTimers = { setTimeout: () => null, clearTimeout: () => undefined };

describe('FX refresher against a loopback rate source', () => {
  let server: Loopback;
  let http: MarketHttp;
  let store: SqlitePriceStore;
  let serve: 'xml' | 'down' | 'garbage' = 'xml';
  const clock = manualClock('2026-11-24T12:00:00Z');

  before(async () => {
    server = await startLoopback();
    server.route('GET /eurofxref-daily.xml', () => {
      if (serve === 'down') return { kind: 'status', status: 503 };
      if (serve === 'garbage') return { kind: 'html' };
      return {
        kind: 'text',
        body: ECB_SAMPLE,
        headers: { 'last-modified': 'Mon, 23 Nov 2026 15:00:00 GMT' },
      };
    });
    http = createMarketHttp({ clock, sleep: async () => undefined });
    store = createSqlitePriceStore({ path: ':memory:', clock, rollups: false });
    await store.init();
  });
  after(async () => {
    await http.close();
    await server.close();
    await store.close();
  });

  const refresher = () =>
    createFxRefresher({
      http,
      store,
      clock,
      logger: silent,
      timers: noTimers,
      fallback: DEFAULT_FX,
      url: `${server.url}/eurofxref-daily.xml`,
    });

  test('fetches, stores with the publication date, and revalidates with If-Modified-Since', async () => {
    const fx = refresher();
    assert.equal(await (await fx.start()).first, 'updated');
    assert.equal(fx.current().asOf, Date.parse('2026-11-23T00:00:00Z'));
    assert.deepEqual(await store.loadFxRates(), fx.current());
    assert.equal(await fx.refresh(), 'unchanged');
    assert.equal(
      server.received.at(-1)!.headers['if-modified-since'],
      'Mon, 23 Nov 2026 15:00:00 GMT',
    );
  });

  test('with the source down or serving garbage, the stored rates stay in force after a restart', async () => {
    serve = 'down';
    const restarted = refresher();
    assert.equal(await (await restarted.start()).first, 'failed');
    assert.equal(restarted.current().source, 'ECB euro reference rates of 2026-11-23');
    serve = 'garbage';
    assert.equal(await restarted.refresh(), 'failed');
    assert.equal(restarted.current().usdMicroPerUnit.EUR, 1_157_100);
    serve = 'xml';
  });

  test('rates older than the limit refuse non-USD observations, to the millisecond; USD still passes', async () => {
    const rates = (await store.loadFxRates())!;
    const observe = (currency: string) => ({
      game: 'cs2' as const,
      market: 'skinport' as const,
      item: 'AK-47 | Redline (Field-Tested)',
      currency,
      scale: 100,
      kind: 'sale' as const,
      price: 1190,
      quantity: 1,
      soldAt: rates.asOf + FX_MAX_AGE_MS,
    });
    const at = (now: number) =>
      normalise([observe('EUR'), observe('USD')], {
        catalogs: testCatalogs(),
        fx: rates,
        now,
        fxMaxAgeMs: FX_MAX_AGE_MS,
      });
    const fresh = at(rates.asOf + FX_MAX_AGE_MS);
    assert.equal(fresh.batch.sales.length, 2);
    assert.equal(ratesTooOld(rates, rates.asOf + FX_MAX_AGE_MS), false);
    const stale = at(rates.asOf + FX_MAX_AGE_MS + 1);
    assert.equal(stale.batch.sales.length, 1, 'only the USD sale');
    assert.equal(stale.rejected[0]!.reason, 'stale_fx');
    assert.match(stale.rejected[0]!.detail, /EUR rates dated 2026-11-23 are 7 days old/);
    assert.equal(ratesTooOld(rates, rates.asOf + 8 * DAY), true);
  });
});
