import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Book } from '../../book/book.ts';
import { MINUTE } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import { DEFAULT_FEE_MODEL } from '../../markets/fees.ts';
import { DEFAULT_ARBITRAGE_OPTIONS, findOpportunities } from '../../pricing/arbitrage.ts';
import { side } from '../../pricing/snapshot-fixtures.ts';
import { BookViews } from '../book-views.ts';
import {
  auth,
  buildHarness,
  CS2_ITEMS,
  KEYS,
  RUST_ITEMS,
  T0,
  testCatalog,
} from '../test-support.ts';

const IMAGE = 'https://images.example/redline.png';

async function quoted() {
  const cs2Items = CS2_ITEMS.map((item) =>
    item.id === 'cs2-redline-ft' ? { ...item, image: IMAGE } : item,
  );
  const harness = await buildHarness({
    catalogs: { cs2: testCatalog('cs2', cs2Items), rust: testCatalog('rust', RUST_ITEMS) },
  });
  const at = harness.clock.now();
  harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1000], at - MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'buff163', [1200], at - MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'steamcommunity', [5000], at - MINUTE);
  harness.quote('ask', 'cs2-vulcan-mw', 'skinport', [2000], at - MINUTE);
  harness.quote('bid', 'cs2-vulcan-mw', 'csfloat', [2300], at - MINUTE);
  harness.quote('ask', 'cs2-karambit-doppler-fn', 'dmarket', [10000], at - 40 * MINUTE);
  harness.quote('bid', 'cs2-karambit-doppler-fn', 'csfloat', [11000], at - MINUTE);
  return harness;
}

const URL = '/v1/arbitrage/opportunities';
const ids = (body: { opportunities: { canonicalItemId: string }[] }) =>
  body.opportunities.map((row) => row.canonicalItemId);

describe('200', () => {
  test('opportunities net of fees, best net first, wallet-credit bids never used', async () => {
    const { app } = await quoted();
    const response = await app.inject({ url: URL, headers: auth(KEYS.pro) });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(Object.keys(body), ['opportunities', 'totalCandidates', 'calculatedAt']);
    assert.equal(body.totalCandidates, 3);
    assert.deepEqual(ids(body), ['cs2-karambit-doppler-fn', 'cs2-vulcan-mw', 'cs2-redline-ft']);
    const redline = body.opportunities[2];
    assert.deepEqual(Object.keys(redline), [
      'canonicalItemId',
      'marketHashName',
      'slug',
      'imageUrl',
      'buy',
      'sell',
      'spreadBps',
      'spreadCents',
      'estimatedNetCents',
      'maxTradableQuantity',
      'estimatedNotionalCents',
      'feeNotes',
      'freshness',
      'calculatedAt',
    ]);
    assert.deepEqual(
      [redline.slug, redline.imageUrl, redline.buy.market, redline.sell.market],
      ['cs2-redline-ft', IMAGE, 'csfloat', 'buff163'],
    );
    assert.deepEqual(redline.buy, {
      market: 'csfloat',
      price: 1000,
      quoteSize: 1,
      updatedAt: '2026-11-01T11:59:00.000Z',
      isStale: false,
    });
    assert.deepEqual(
      [redline.spreadBps, redline.spreadCents, redline.estimatedNetCents],
      [2000, 200, 170],
    );
    assert.deepEqual(redline.freshness, { buyAgeMs: MINUTE, sellAgeMs: MINUTE });
    assert.equal(body.opportunities[1].imageUrl, null, 'no catalog image → null');
  });

  test('a stale leg is paired but flagged', async () => {
    const { app } = await quoted();
    const [karambit] = (await app.inject({ url: URL, headers: auth(KEYS.pro) })).json()
      .opportunities;
    assert.equal(karambit.buy.isStale, true);
    assert.equal(typeof karambit.feeNotes, 'string', 'the public client types feeNotes a string');
    const notes = karambit.feeNotes.split('; ');
    assert.ok(notes.includes('stale_quote:buy:dmarket'), karambit.feeNotes);
    assert.ok(notes.includes('fee model 2026-11'), karambit.feeNotes);
  });

  test('sort, limit, minSpreadBps, minNotionalCents and markets', async () => {
    const { app } = await quoted();
    const cases: [string, string[]][] = [
      ['sort=spreadBps', ['cs2-redline-ft', 'cs2-vulcan-mw', 'cs2-karambit-doppler-fn']],
      ['limit=1', ['cs2-karambit-doppler-fn']],
      ['minSpreadBps=1600', ['cs2-redline-ft']],
      ['minNotionalCents=1500', ['cs2-karambit-doppler-fn', 'cs2-vulcan-mw']],
      ['markets=csfloat,buff163', ['cs2-redline-ft']],
      ['markets=csfloat,steamcommunity', []],
      [
        'candidateLimit=50&limit=100&minSpreadBps=0&minNotionalCents=0',
        ['cs2-karambit-doppler-fn', 'cs2-vulcan-mw', 'cs2-redline-ft'],
      ],
    ];
    for (const [query, expected] of cases) {
      const response = await app.inject({ url: `${URL}?${query}`, headers: auth(KEYS.pro) });
      assert.equal(response.statusCode, 200, query);
      assert.deepEqual(ids(response.json()), expected, query);
    }
  });
});

describe('400', () => {
  test('out-of-range numbers, a bad sort and unknown markets', async () => {
    const { app } = await quoted();
    const cases: [string, string][] = [
      ['limit=0', 'limit must not be less than 1'],
      ['limit=101', 'limit must not exceed 100'],
      ['candidateLimit=49', 'candidateLimit must not be less than 50'],
      ['candidateLimit=2001', 'candidateLimit must not exceed 2000'],
      ['minSpreadBps=-1', 'minSpreadBps must not be less than 0'],
      ['minNotionalCents=ten', 'minNotionalCents must be an integer number'],
      ['sort=profit', 'sort must be one of: estimatedNetCents, spreadBps'],
    ];
    for (const [query, message] of cases) {
      const response = await app.inject({ url: `${URL}?${query}`, headers: auth(KEYS.pro) });
      assert.equal(response.statusCode, 400, query);
      assert.deepEqual(response.json().message, [message], query);
    }
    const markets = await app.inject({ url: `${URL}?markets=rusttm`, headers: auth(KEYS.pro) });
    assert.equal(markets.statusCode, 400);
    assert.match(markets.json().message[0], /unknown market ids for cs2: rusttm/);
  });
});

describe('403', () => {
  test('a Developer key is refused with the plan message and quota headers', async () => {
    const { app } = await quoted();
    const response = await app.inject({ url: URL, headers: auth(KEYS.developer) });
    assert.equal(response.statusCode, 403);
    assert.deepEqual(response.json(), {
      statusCode: 403,
      message:
        'Your current plan (DEVELOPER) does not include access to this feature (feature:arbitrage).',
      error: 'Forbidden',
      code: 'FEATURE_NOT_AVAILABLE',
    });
    assert.ok(response.headers['x-ratelimit-remaining']);
    const enterprise = await app.inject({ url: URL, headers: auth(KEYS.enterprise) });
    assert.equal(enterprise.statusCode, 200);
  });
});

describe('arbitrage candidates', () => {
  function bookWith(quotes: [string, MarketId][]): Book {
    const book = new Book();
    for (const [itemId, market] of quotes) {
      book.apply({
        sides: [side('ask', { market, prices: [100], fetchedAt: T0, itemId })],
        sales: [],
        listings: [],
      });
    }
    return book;
  }

  test('most markets first, ties in catalog order, re-ranked when the book moves', () => {
    const book = bookWith([
      ['cs2-asiimov-ft', 'csfloat'],
      ['cs2-vulcan-mw', 'csfloat'],
      ['cs2-vulcan-mw', 'skinport'],
      ['cs2-redline-ft', 'skinport'],
    ]);
    const catalogs = { cs2: testCatalog('cs2', CS2_ITEMS), rust: testCatalog('rust', RUST_ITEMS) };
    const views = new BookViews(book, catalogs);
    const top = (limit: number) => views.arbitrageCandidates('cs2', limit).map((item) => item.id);
    assert.deepEqual(top(10), ['cs2-vulcan-mw', 'cs2-redline-ft', 'cs2-asiimov-ft']);
    assert.deepEqual(top(2), ['cs2-vulcan-mw', 'cs2-redline-ft']);
    for (const market of ['buff163', 'dmarket'] as const) {
      book.apply({
        sides: [side('bid', { market, prices: [90], fetchedAt: T0, itemId: 'cs2-asiimov-ft' })],
        sales: [],
        listings: [],
      });
    }
    assert.deepEqual(top(1), ['cs2-asiimov-ft']);
  });
});

describe('only candidates with a bid above an ask are priced', () => {
  test('the answer equals pricing every candidate', async () => {
    const quotes = fc.array(
      fc.record({
        kind: fc.constantFrom('ask' as const, 'bid' as const),
        itemId: fc.constantFrom(...CS2_ITEMS.map((item) => item.id)),
        market: fc.constantFrom<MarketId>('csfloat', 'skinport', 'buff163', 'steamcommunity'),
        price: fc.integer({ min: 900, max: 1200 }),
      }),
      { maxLength: 16 },
    );
    const markets = fc.constantFrom('', '&markets=csfloat,buff163', '&markets=skinport');
    await fc.assert(
      fc.asyncProperty(quotes, markets, async (entries, restriction) => {
        const harness = await buildHarness();
        for (const { kind, itemId, market, price } of entries) {
          harness.quote(kind, itemId, market, [price]);
        }
        const url = `${URL}?minSpreadBps=0&minNotionalCents=0&candidateLimit=50${restriction}`;
        const body = (await harness.app.inject({ url, headers: auth(KEYS.pro) })).json();
        const selected = restriction ? new Set(restriction.split('=')[1]!.split(',')) : null;
        const all = new BookViews(harness.book, harness.deps.catalogs)
          .arbitrageCandidates('cs2', 50)
          .map((item) => ({ item, sides: harness.book.sides('cs2', item.id) }));
        const options = {
          ...DEFAULT_ARBITRAGE_OPTIONS,
          minSpreadBps: 0,
          minNotionalCents: 0,
          markets: selected as ReadonlySet<MarketId> | null,
        };
        const expected = findOpportunities(all, options, DEFAULT_FEE_MODEL, harness.clock.now());
        assert.deepEqual(body, JSON.parse(JSON.stringify(expected)));
        await harness.app.close();
      }),
      { numRuns: 60 },
    );
  });
});
