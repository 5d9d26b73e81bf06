import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE } from '../../domain/clock.ts';
import type { ListingRecord } from '../../domain/quote.ts';
import {
  askSide,
  ATTRIBUTE_ITEMS,
  DOPPLER,
  DOPPLER_VARIANTS,
  listing,
  REDLINE,
  RUST_AK,
} from '../../attributes/test-fixtures.ts';
import { auth, buildHarness, KEYS, testCatalog } from '../test-support.ts';

async function harness() {
  const built = await buildHarness({
    catalogs: { cs2: testCatalog('cs2', ATTRIBUTE_ITEMS), rust: testCatalog('rust', [RUST_AK]) },
  });
  const now = built.clock.now();
  const put = (listings: ListingRecord[]) => built.book.apply({ sides: [], sales: [], listings });
  return { ...built, now, put };
}

const url = (name: string, query = '') =>
  `/v1/pricing/${encodeURIComponent(name)}/listings${query}`;
const v2Url = (name: string, game: string) =>
  `/v2/pricing/${encodeURIComponent(name)}/listings?game=${game}`;

describe('200', () => {
  test('v2 answers as v1 for an item with listings and no book quotes', async () => {
    const { app, now, put } = await harness();
    put([listing(REDLINE, 'csfloat', 1500, { floatValue: 0.2, fetchedAt: now })]);
    const v1 = await app.inject({
      url: url(REDLINE.marketHashName),
      headers: auth(KEYS.developer),
    });
    const v2 = await app.inject({
      url: v2Url(REDLINE.marketHashName, 'cs2'),
      headers: auth(KEYS.developer),
    });
    assert.equal(v1.statusCode, 200);
    assert.equal(v2.statusCode, 200);
    assert.equal(v2.json().totalListings, 1);
    assert.deepEqual(v2.json(), v1.json());
  });

  test('v2 answers an item of the game with neither listings nor quotes', async () => {
    const { app } = await harness();
    const v2 = await app.inject({
      url: v2Url(REDLINE.marketHashName, 'cs2'),
      headers: auth(KEYS.developer),
    });
    assert.equal(v2.statusCode, 200);
    assert.equal(v2.json().totalListings, 0);
  });

  test('cheapest first, with float coverage, the observed float range and every field', async () => {
    const { app, now, put, book } = await harness();
    put([
      listing(REDLINE, 'csfloat', 1500, {
        floatValue: 0.2,
        paintSeed: 7,
        paintIndex: 282,
        fetchedAt: now,
        stickers: ['Titan | Katowice 2014'],
      }),
      listing(REDLINE, 'buff163', 1400, { floatValue: 0.16, fetchedAt: now - MINUTE }),
      listing(REDLINE, 'whitemarket', 1450, { fetchedAt: now }),
    ]);
    book.apply({
      sides: [askSide(REDLINE, 'csfloat', [1500, 1600], now)],
      sales: [],
      listings: [],
    });
    const response = await app.inject({
      url: url(REDLINE.marketHashName),
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(Object.keys(body), [
      'marketHashName',
      'canonicalItemId',
      'totalListings',
      'sampledListings',
      'floatCoverage',
      'floatSummary',
      'listings',
      'calculatedAt',
    ]);
    assert.deepEqual(
      body.listings.map((l: { price: number }) => l.price),
      [1400, 1450, 1500],
    );
    assert.deepEqual(body.listings[2], {
      listingId: body.listings[2].listingId,
      market: 'csfloat',
      price: 1500,
      currency: 'USD',
      floatValue: 0.2,
      paintSeed: 7,
      paintIndex: 282,
      inspectLink: null,
      stickers: ['Titan | Katowice 2014'],
      isStatTrak: false,
      fetchedAt: new Date(now).toISOString(),
    });
    assert.deepEqual(body.floatCoverage, {
      coverage: 'partial',
      sampledListings: 3,
      listingsWithFloat: 2,
      marketsWithFloat: ['buff163', 'csfloat'],
      marketsWithoutFloat: ['whitemarket'],
    });
    assert.deepEqual(body.floatSummary, {
      observed: { min: 0.16, max: 0.2 },
      itemMin: 0.1,
      itemMax: 0.7,
      observedSource: {
        market: 'buff163',
        price: 1400,
        fetchedAt: new Date(now - MINUTE).toISOString(),
      },
    });
    assert.equal(body.sampledListings, 3);
    assert.equal(body.totalListings, 4, 'csfloat reports 2 listings, the others 1 each');
  });

  test('limit and markets; a new fetch replaces the market snapshot; unseen listings expire', async () => {
    const { app, now, put, clock } = await harness();
    put([1, 2, 3].map((i) => listing(REDLINE, 'csfloat', 1000 + i, { fetchedAt: now - MINUTE })));
    put([listing(REDLINE, 'dmarket', 990, { fetchedAt: now - 3 * HOUR })]);
    put([listing(REDLINE, 'csfloat', 1200, { fetchedAt: now })]);
    const read = async (query: string) =>
      (
        await app.inject({ url: url(REDLINE.marketHashName, query), headers: auth(KEYS.developer) })
      ).json();
    const all = await read('');
    assert.deepEqual(
      all.listings.map((l: { price: number }) => l.price),
      [1200],
      'older csfloat fetch replaced, dmarket expired',
    );
    put([1, 2, 3].map((i) => listing(REDLINE, 'buff163', 1000 + i, { fetchedAt: now })));
    assert.deepEqual(
      (await read('?limit=2')).listings.map((l: { price: number }) => l.price),
      [1001, 1002],
    );
    assert.equal((await read('?limit=2')).sampledListings, 4);
    assert.deepEqual(
      (await read('?markets=csfloat')).listings.map((l: { market: string }) => l.market),
      ['csfloat'],
    );
    clock.set(now + 3 * HOUR);
    assert.equal((await read('')).sampledListings, 0);
    assert.equal((await read('')).floatSummary, null);
  });

  test("a Doppler's listings include those filed under its phase names", async () => {
    const { app, now, put } = await harness();
    put([
      listing(DOPPLER_VARIANTS[1]!, 'buff163', 600_000, {
        floatValue: 0.01,
        phase: 'Ruby',
        fetchedAt: now,
      }),
    ]);
    put([
      listing(DOPPLER, 'csfloat', 100_000, { floatValue: 0.02, phase: 'Phase 2', fetchedAt: now }),
    ]);
    const body = (
      await app.inject({ url: url(DOPPLER.marketHashName), headers: auth(KEYS.developer) })
    ).json();
    assert.deepEqual(
      body.listings.map((l: { price: number }) => l.price),
      [100_000, 600_000],
    );
    assert.equal(body.floatCoverage.coverage, 'complete');
  });

  test('Rust listings carry no float, seed, paint index or stickers (v2)', async () => {
    const { app, now, put, quote } = await harness();
    put([
      listing(RUST_AK, 'dmarket', 300, {
        floatValue: 0.5,
        paintSeed: 3,
        stickers: ['x'],
        fetchedAt: now,
      }),
    ]);
    quote('ask', RUST_AK.id, 'dmarket', [300], now, 'rust');
    const response = await app.inject({
      url: `${url(RUST_AK.marketHashName)}`.replace('/v1/', '/v2/') + '?game=rust',
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 200);
    const [row] = response.json().listings;
    assert.deepEqual(
      [row.floatValue, row.paintSeed, row.paintIndex, row.stickers],
      [null, null, null, []],
    );
    assert.equal(response.json().floatSummary, null);
    assert.equal(response.json().floatCoverage.coverage, 'none');
  });
});

describe('400', () => {
  for (const [limit, message] of [
    ['2001', 'limit must not exceed 2000'],
    ['0', 'limit must not be less than 1'],
    ['ten', 'limit must be an integer number'],
  ]) {
    test(`limit=${limit}`, async () => {
      const { app } = await harness();
      const response = await app.inject({
        url: url(REDLINE.marketHashName, `?limit=${limit}`),
        headers: auth(KEYS.developer),
      });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json().message, [message]);
    });
  }

  test('unknown market id', async () => {
    const { app } = await harness();
    const response = await app.inject({
      url: url(REDLINE.marketHashName, '?markets=nowhere'),
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 400);
  });
});

describe('401 / 404', () => {
  test('no key', async () => {
    const { app } = await harness();
    assert.equal((await app.inject({ url: url(REDLINE.marketHashName) })).statusCode, 401);
  });

  test('an unknown item on v1 and v2, and an item of the other game on v2', async () => {
    const { app } = await harness();
    for (const path of [url('No Such Skin'), v2Url('No Such Skin', 'cs2')]) {
      const response = await app.inject({ url: path, headers: auth(KEYS.developer) });
      assert.equal(response.statusCode, 404, path);
    }
    const rustItemOnCs2 = await app.inject({
      url: v2Url(RUST_AK.marketHashName, 'cs2'),
      headers: auth(KEYS.developer),
    });
    assert.equal(rustItemOnCs2.statusCode, 404);
  });
});
