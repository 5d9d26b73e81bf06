import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogItem } from '../domain/item.ts';
import { DAY, MINUTE } from '../domain/clock.ts';
import { historyHarness, historyPath, isoAt, quote } from './routes/history-test-support.ts';
import { auth, buildHarness, KEYS, RUST_ITEMS, T0, testCatalog } from './test-support.ts';

const ITEM = encodeURIComponent('AK-47 | Redline (Field-Tested)');
const names = (count: number) => Array.from({ length: count }, () => 'cs2-redline-ft').join(',');

/** Requests at and just past every documented bound, and the usual ways around them. */
const CASES: [url: string, status: number, message?: string][] = [
  ['/v1/items?perPage=100', 200],
  ['/v1/items?perPage=101', 400, 'perPage must not exceed 100'],
  ['/v1/items?perPage=Infinity', 400, 'perPage must be an integer number'],
  ['/v1/items?perPage=1&perPage=1000', 400, 'perPage must be an integer number'],
  ['/v1/items?page=1000000', 200],
  ['/v1/items?page=1000001', 400, 'page must not exceed 1000000'],
  ['/v2/items?game=rust&page=1e400', 400, 'page must be an integer number'],
  [`/v1/items?search=${'a'.repeat(512)}`, 200],
  [`/v1/items?search=${'a'.repeat(513)}`, 400, 'search must not exceed 512 characters'],
  [`/v1/items?search=${'€'.repeat(513)}`, 400, 'search must not exceed 512 characters'],
  ['/v1/items?search=a&search=b', 400, 'search must be a string'],
  [`/v1/nbbo/depth?market_hash_name=${ITEM}&depth=50`, 200],
  [`/v1/nbbo/depth?market_hash_name=${ITEM}&depth=51`, 400, 'depth must not exceed 50'],
  [
    `/v1/nbbo/depth?market_hash_name=${ITEM}&depth=Infinity`,
    400,
    'depth must be an integer number',
  ],
  ['/v1/arbitrage/opportunities?limit=101', 400, 'limit must not exceed 100'],
  ['/v1/arbitrage/opportunities?candidateLimit=2001', 400, 'candidateLimit must not exceed 2000'],
  [
    '/v1/arbitrage/opportunities?candidateLimit=Infinity',
    400,
    'candidateLimit must be an integer number',
  ],
  ['/v1/arbitrage/opportunities?candidateLimit=49', 400, 'candidateLimit must not be less than 50'],
  [`/v1/market-analytics/${ITEM}?windowHours=169`, 400, 'windowHours must not exceed 168'],
  [
    `/v1/market-analytics/${ITEM}?windowHours=Infinity`,
    400,
    'windowHours must be an integer number',
  ],
  [`/v1/aggregations/min-prices?marketHashNames=${names(100)}`, 200],
  [
    `/v1/aggregations/min-prices?marketHashNames=${names(101)}`,
    400,
    'marketHashNames and ids must list no more than 100 items in total',
  ],
  [
    `/v1/aggregations/max-orders?marketHashNames=${names(60)}&ids=${names(41)}`,
    400,
    'marketHashNames and ids must list no more than 100 items in total',
  ],
  [`/v1/aggregations/min-prices?ids=a&ids=${names(101)}`, 400, 'ids must be a string'],
];

describe('every documented bound holds', () => {
  test('at the bound the request is served; past it, or around it, 400', async () => {
    const { app, quote: put } = await buildHarness();
    put('ask', 'cs2-redline-ft', 'skinport', [1500]);
    for (const [url, status, message] of CASES) {
      const response = await app.inject({ url, headers: auth(KEYS.enterprise) });
      const expected = status === 200 && url.includes('market-analytics') ? 503 : status;
      assert.equal(response.statusCode, expected, `${url.slice(0, 120)} → ${response.body}`);
      if (message) assert.deepEqual(response.json().message, [message], url.slice(0, 120));
    }
  });

  test('arbitrage evaluates at most candidateLimit items, however many are quoted', async () => {
    const items: CatalogItem[] = Array.from({ length: 2_100 }, (_, index) => ({
      id: `cs2-item-${index}`,
      game: 'cs2',
      marketHashName: `Item ${index}`,
      slug: `item-${index}`,
      category: 'skin',
    }));
    const { app, quote: put } = await buildHarness({
      catalogs: { cs2: testCatalog('cs2', items), rust: testCatalog('rust', RUST_ITEMS) },
    });
    for (const item of items) put('ask', item.id, 'skinport', [1000]);
    for (const [limit, evaluated] of [
      ['2000', 2000],
      ['50', 50],
      ['', 500],
    ] as const) {
      const url = `/v1/arbitrage/opportunities${limit ? `?candidateLimit=${limit}` : ''}`;
      const response = await app.inject({ url, headers: auth(KEYS.pro) });
      assert.equal(response.json().totalCandidates, evaluated, url);
    }
  });

  test('history: 10,000 points are served, 10,001 are refused, per-market series counted', async () => {
    const { app, write } = await historyHarness();
    await write([quote('ask', 'skinport', 1000, T0 - DAY), quote('ask', 'csfloat', 990, T0 - DAY)]);
    const to = T0 - 1;
    const span = (buckets: number) =>
      `from=${isoAt(to - (buckets - 1) * 10 * MINUTE)}&to=${isoAt(to)}`;
    const cases: [string, number, string?][] = [
      [historyPath(`${span(10_000)}&interval=MINUTE_5`), 200],
      [
        historyPath(`${span(10_001)}&interval=MINUTE_5`),
        400,
        'history request covers 10001 points (10001 10m buckets × 1 series), more than 10000; narrow the range or use a coarser interval',
      ],
      [historyPath(`${span(5_000)}&interval=MINUTE_5`, 'history/markets'), 200],
      [
        historyPath(`${span(5_001)}&interval=MINUTE_5`, 'history/markets'),
        400,
        'history request covers 10002 points (5001 10m buckets × 2 series), more than 10000; narrow the range or use a coarser interval',
      ],
      [historyPath('from=0001-01-01&interval=DAY_1'), 400, 'history request covers 739'],
    ];
    for (const [url, status, message] of cases) {
      const response = await app.inject({ url, headers: auth(KEYS.pro) });
      assert.equal(response.statusCode, status, `${url} → ${response.body.slice(0, 200)}`);
      if (message) assert.ok(response.json().message[0].startsWith(message), response.body);
    }
  });
});
