import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createMemoryRateLimiter } from '../../access/memory-rate-limiter.ts';
import { MINUTE, SECOND } from '../../domain/clock.ts';
import { STALE_AFTER_MS } from '../../domain/freshness.ts';
import type { MarketId } from '../../domain/markets.ts';
import { buildApp } from '../app.ts';
import { demandNotingCatalogs, DemandCounter, noteDemand } from '../../ingest/priorities.ts';
import {
  auth,
  buildHarness,
  CS2_ITEMS,
  KEYS,
  RUST_ITEMS,
  T0,
  testCatalog,
  type Harness,
} from '../test-support.ts';

const REDLINE = 'cs2-redline-ft';
const URLS = [
  `/v1/pricing/${REDLINE}`,
  `/v2/pricing/${REDLINE}?game=cs2&markets=csfloat,skinport`,
  `/v1/nbbo?id=${REDLINE}`,
  `/v2/nbbo?game=cs2&id=${REDLINE}&markets=csfloat,steamcommunity`,
  `/v1/nbbo/depth?id=${REDLINE}`,
  `/v1/nbbo/depth?id=${REDLINE}&depth=1`,
  `/v2/nbbo/depth?game=cs2&id=${REDLINE}&markets=skinport`,
];

async function get(harness: Harness, url: string, key: string = KEYS.enterprise) {
  const response = await harness.app.inject({ url, headers: auth(key) });
  assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
  assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
  return response.body;
}

/** The body an app with nothing cached builds for the same book, clock and URL. */
async function freshBody(harness: Harness, url: string, key: string = KEYS.enterprise) {
  const reference = await buildApp({
    ...harness.deps,
    docs: false,
    limiter: createMemoryRateLimiter(),
  });
  try {
    const response = await reference.inject({ url, headers: auth(key) });
    assert.equal(response.statusCode, 200);
    return response.body;
  } finally {
    await reference.close();
  }
}

/**
 * Requests `url` until it is answered from the cache, checking each answer is fresh (the book
 * and clock stand still, so one fresh build is the reference for every round).
 */
async function warm(harness: Harness, url: string, key: string = KEYS.enterprise) {
  const fresh = await freshBody(harness, url, key);
  for (let round = 0; round < 3; round += 1) assert.equal(await get(harness, url, key), fresh);
}

async function quoted() {
  const harness = await buildHarness();
  const at = harness.clock.now();
  harness.quote('ask', REDLINE, 'skinport', [1600], at - MINUTE);
  harness.quote('ask', REDLINE, 'csfloat', [1500, 1550], at - 2 * MINUTE);
  harness.quote('bid', REDLINE, 'csfloat', [1400], at - MINUTE);
  harness.quote('bid', REDLINE, 'steamcommunity', [1450], at - MINUTE);
  return harness;
}

describe('latest-state bodies are cached and never served stale', () => {
  test('repeated reads are cached; calculatedAt is each request’s own time', async () => {
    const harness = await quoted();
    for (const url of URLS) await warm(harness, url);
    harness.clock.advance(7);
    for (const url of URLS) {
      const body = JSON.parse(await get(harness, url));
      assert.equal(body.calculatedAt, new Date(harness.clock.now()).toISOString());
    }
  });

  test('a book change gives fresh bytes on the next read', async () => {
    const harness = await quoted();
    for (const url of URLS) await warm(harness, url);
    harness.quote('ask', REDLINE, 'skinport', [1200]);
    harness.quote('bid', REDLINE, 'csfloat', [1300]);
    for (const url of URLS) {
      const body = await get(harness, url);
      assert.equal(body, await freshBody(harness, url));
      assert.ok(body.includes('1200') || url.includes('markets=csfloat,steam'), url);
    }
  });

  test('a change to another item leaves the entry; a change to this item drops it', async () => {
    const harness = await quoted();
    const url = `/v1/pricing/${REDLINE}`;
    await warm(harness, url);
    harness.quote('ask', 'cs2-asiimov-ft', 'skinport', [9000]);
    assert.equal(await get(harness, url), await freshBody(harness, url));
    harness.quote('ask', REDLINE, 'csfloat', [1499]);
    assert.match(await get(harness, url), /"price":1499/);
  });

  test('a staleness flag flips at exactly fetchedAt + 30 min + 1 ms, and at the next second', async () => {
    const harness = await buildHarness();
    const fetchedAt = harness.clock.now();
    harness.quote('ask', REDLINE, 'skinport', [1600], fetchedAt);
    harness.quote('ask', REDLINE, 'csfloat', [1500], fetchedAt + 10 * MINUTE);
    harness.quote('bid', REDLINE, 'csfloat', [1400], fetchedAt + 10 * MINUTE);
    harness.clock.set(fetchedAt + STALE_AFTER_MS - SECOND);
    for (const url of URLS) await warm(harness, url);
    harness.clock.set(fetchedAt + STALE_AFTER_MS);
    for (const url of URLS) assert.equal(await get(harness, url), await freshBody(harness, url));
    assert.doesNotMatch(await get(harness, URLS[0]!), /"isStale":true/);
    for (const step of [1, SECOND - 1]) {
      harness.clock.advance(step);
      for (const url of URLS) {
        assert.equal(await get(harness, url), await freshBody(harness, url), url);
      }
    }
    assert.match(await get(harness, URLS[0]!), /"market":"skinport"[^}]*"isStale":true/);
  });

  test('NBBO confidence follows the clock between staleness flips', async () => {
    const harness = await quoted();
    const url = `/v1/nbbo?id=${REDLINE}`;
    await warm(harness, url);
    const confidences = new Set<number>();
    for (let step = 0; step < 12; step += 1) {
      harness.clock.advance(1_301);
      const body = await get(harness, url);
      assert.equal(body, await freshBody(harness, url));
      confidences.add(JSON.parse(body).confidence);
    }
    assert.ok(confidences.size > 3, 'confidence moved while cached');
  });

  test('another query shape and another plan each get their own correct bytes', async () => {
    const harness = await quoted();
    const plain = `/v1/nbbo/depth?id=${REDLINE}`;
    const one = `/v1/nbbo/depth?id=${REDLINE}&depth=1`;
    await warm(harness, plain);
    const levels = JSON.parse(await get(harness, one)).asks.length;
    assert.equal(levels, 1);
    assert.equal(JSON.parse(await get(harness, plain)).asks.length, 3);
    assert.equal(await get(harness, one), await freshBody(harness, one));
    for (const key of [KEYS.developer, KEYS.pro, KEYS.enterprise]) {
      await warm(harness, `/v1/pricing/${REDLINE}`, key);
    }
    const byName = `/v1/nbbo?market_hash_name=${encodeURIComponent('AK-47 | Redline (Field-Tested)')}`;
    assert.equal(await get(harness, byName), await freshBody(harness, byName));
  });

  test('errors are never cached: an unknown item stays 404, /v2 without quotes stays 404', async () => {
    const harness = await buildHarness();
    const url = `/v2/pricing/${REDLINE}?game=cs2`;
    for (let round = 0; round < 3; round += 1) {
      const response = await harness.app.inject({ url, headers: auth(KEYS.enterprise) });
      assert.equal(response.statusCode, 404);
    }
    harness.quote('ask', REDLINE, 'skinport', [1600]);
    assert.match(await get(harness, url), /"price":1600/);
  });
});

const MARKETS: MarketId[] = ['skinport', 'csfloat', 'steamcommunity', 'buff163'];

const operation = fc.oneof(
  fc.record({
    kind: fc.constant('advance' as const),
    ms: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 20 * MINUTE })),
  }),
  fc.record({
    kind: fc.constant('quote' as const),
    side: fc.constantFrom('ask' as const, 'bid' as const),
    market: fc.constantFrom(...MARKETS),
    price: fc.integer({ min: 100, max: 5_000 }),
    ageMs: fc.integer({ min: -MINUTE, max: STALE_AFTER_MS + MINUTE }),
  }),
  fc.record({ kind: fc.constant('read' as const), url: fc.constantFrom(...URLS) }),
);

describe('property: every answer equals the body built fresh for the same book and time', () => {
  test('random quotes, clock steps and reads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 4, maxLength: 12 }), async (operations) => {
        const harness = await quoted();
        for (const op of operations) {
          if (op.kind === 'advance') harness.clock.advance(op.ms);
          else if (op.kind === 'quote') {
            const at = harness.clock.now() - op.ageMs;
            harness.quote(op.side, REDLINE, op.market, [op.price], at);
          } else {
            await get(harness, op.url);
            await get(harness, op.url);
            assert.equal(await get(harness, op.url), await freshBody(harness, op.url));
          }
        }
        await harness.app.close();
      }),
      { numRuns: 12 },
    );
  });
});

describe('reads answered from the cache count as demand', () => {
  test('every read of an item is one lookup for demand ranking, cached or built', async () => {
    const demand = new DemandCounter();
    const catalogs = {
      cs2: testCatalog('cs2', CS2_ITEMS),
      rust: testCatalog('rust', RUST_ITEMS),
    };
    const now = () => T0;
    const harness = await buildHarness({
      catalogs: demandNotingCatalogs(catalogs, demand, now),
      noteItemRead: noteDemand(demand),
    });
    const ASIIMOV = 'cs2-asiimov-ft';
    harness.quote('ask', REDLINE, 'skinport', [1600]);
    harness.quote('ask', ASIIMOV, 'skinport', [9000]);
    for (let read = 0; read < 5; read += 1) await get(harness, `/v1/pricing/${REDLINE}`);
    const asiimovUrls = [
      `/v1/pricing/${ASIIMOV}`,
      `/v2/pricing/${ASIIMOV}?game=cs2`,
      `/v2/pricing/${ASIIMOV}?game=cs2&markets=skinport`,
      `/v2/pricing/${ASIIMOV}?game=cs2&markets=skinport,csfloat`,
    ];
    for (const url of asiimovUrls) await get(harness, url);
    // built twice, answered from the cache three times: 5 lookups against the Asiimov's 4
    assert.deepEqual(demand.top('cs2', T0), [REDLINE, ASIIMOV]);
    await get(harness, `/v1/pricing/${ASIIMOV}`);
    await get(harness, `/v1/pricing/${ASIIMOV}`);
    assert.deepEqual(demand.top('cs2', T0), [ASIIMOV, REDLINE]);
  });
});
