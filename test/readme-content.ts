/**
 * What each docs example must show, per endpoint: rows present and the fields the docs
 * describe filled in. `checkShowsData` throws an AssertionError naming what is missing; an
 * example whose path has no rule here fails, so a new example comes with its check.
 */
import assert from 'node:assert/strict';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
type Body = any;
type Check = (body: Body, url: URL, startedAt: number) => void;

function nonEmpty(value: unknown, what: string): asserts value is Body[] {
  assert.ok(Array.isArray(value) && value.length > 0, `${what} is empty`);
}

function marketsParam(url: URL): string[] | null {
  return url.searchParams.get('markets')?.split(',') ?? null;
}

function itemInPath(url: URL): string {
  return decodeURIComponent(url.pathname.split('/')[3]!);
}

const snapshot: Check = (body, url) => {
  assert.equal(body.name, itemInPath(url));
  assert.notEqual(body.aggregate, null, 'aggregate');
  nonEmpty(body.markets, 'markets');
  const allowed = marketsParam(url);
  for (const row of body.markets) {
    assert.equal(typeof row.price, 'number', `price of ${row.market}`);
    if (allowed) assert.ok(allowed.includes(row.market), `${row.market} not asked for`);
  }
};

const search: Check = (body, url) => {
  nonEmpty(body.data, 'data');
  const words = url.searchParams.get('search')!.toLowerCase().split(/\s+/);
  for (const row of body.data) {
    for (const word of words) assert.match(row.name.toLowerCase(), new RegExp(word), row.name);
  }
  assert.ok(
    body.data.some((row: Body) => row.markets.length > 0),
    'no found item has prices',
  );
};

const itemsAll: Check = (body) => {
  nonEmpty(body, 'items');
  assert.ok(
    body.some((row: Body) => row.latestPrices.length > 0),
    'no item has prices',
  );
};

const freshness: Check = (body) => {
  nonEmpty(body.markets, 'markets');
  assert.ok(
    body.markets.some((row: Body) => row.last_update !== null),
    'no market updated',
  );
};

const latency: Check = (body) => {
  nonEmpty(body.markets, 'markets');
  assert.ok(
    body.markets.some((row: Body) => row.fetch_count > 0),
    'no fetch measured',
  );
};

const health: Check = (body) => {
  nonEmpty(body, 'markets');
  assert.ok(
    body.some((row: Body) => row.status === 'live'),
    'no market live',
  );
};

const nbbo: Check = (body) => {
  assert.notEqual(body.bestAsk, null, 'bestAsk');
  assert.notEqual(body.bestBid, null, 'bestBid');
};

const depth: Check = (body, url) => {
  const levels = Number(url.searchParams.get('depth'));
  nonEmpty(body.asks, 'asks');
  nonEmpty(body.bids, 'bids');
  assert.ok(body.asks.length <= levels && body.bids.length <= levels);
};

const recommendation: Check = (body) => {
  assert.equal(typeof body.suggested_price, 'number', 'suggested_price');
  assert.notEqual(body.best_ask, null, 'best_ask');
};

const minPrices: Check = (body, url) => {
  const names = url.searchParams.get('marketHashNames')!.split(',');
  assert.equal(body.items.length, names.length);
  for (const item of body.items) nonEmpty(item.prices, `prices of ${item.market_hash_name}`);
};

const arbitrage: Check = (body) => {
  nonEmpty(body.opportunities, 'opportunities');
  for (const opportunity of body.opportunities) {
    assert.notEqual(opportunity.buy.market, opportunity.sell.market);
    assert.ok(opportunity.estimatedNetCents > 0);
  }
};

/** Points reach back before the server started: the backfill covered the item. */
function reachesIntoBackfill(points: Body[], what: string, startedAt: number): void {
  nonEmpty(points, what);
  const oldest = Date.parse(points[0].timestamp);
  assert.ok(oldest < startedAt - 30 * 60_000, `${what} starts at ${points[0].timestamp}`);
}

const history: Check = (body, _url, startedAt) => {
  reachesIntoBackfill(body.history, 'history', startedAt);
  if (body.listingType === 'SALE_HISTORY') {
    assert.ok(
      body.history.some((point: Body) => point.volume > 0),
      'no sales volume',
    );
  }
};

const historyByMarket: Check = (body, url, startedAt) => {
  nonEmpty(body.series, 'series');
  const wanted = marketsParam(url) ?? body.series.map((entry: Body) => entry.market);
  for (const market of wanted) {
    const series = body.series.find((entry: Body) => entry.market === market);
    reachesIntoBackfill(series?.history, `${market} history`, startedAt);
  }
};

const analytics: Check = (body, url) => {
  nonEmpty(body.markets, 'markets');
  const wanted = marketsParam(url);
  if (wanted) assert.deepEqual(body.markets.map((row: Body) => row.market).sort(), wanted.sort());
  for (const row of body.markets) {
    assert.notEqual(row.current_ask, null, `current_ask on ${row.market}`);
    assert.notEqual(row.sell_avg_price, null, `sell_avg_price on ${row.market}`);
  }
};

/** A liquidity record with an estimate: a best market and its time; rust only needs depth. */
const liquidity: Check = (body, url) => {
  nonEmpty(body.metrics, 'metrics');
  const market = url.searchParams.get('market');
  if (market)
    assert.deepEqual(
      body.metrics.map((row: Body) => row.market),
      [market],
    );
  if (url.searchParams.get('game') === 'rust') {
    assert.ok(body.marketsWithDepth > 0, 'no market with depth');
    return;
  }
  assert.notEqual(body.liquidityBadge, 'INSUFFICIENT_DATA', 'no estimate');
  assert.equal(typeof body.medianTimeToSellHours, 'number', 'medianTimeToSellHours');
  assert.notEqual(body.bestMarketToList, null, 'bestMarketToList');
};

const liquiditySummary: Check = (body) => {
  assert.notEqual(body.liquidityBadge, 'INSUFFICIENT_DATA', 'no estimate');
  assert.equal(typeof body.score, 'number', 'score');
  assert.match(body.estimatedSaleTime, /^\d+ - \d+ (hours|days)$/);
};

const liquidityBatch: Check = (body) => {
  nonEmpty(body.results, 'results');
  assert.ok(
    body.results.some((row: Body) => row.liquidityBadge !== 'INSUFFICIENT_DATA'),
    'no result has an estimate',
  );
  assert.ok(body.requested > body.results.length, 'the unknown name is not in notFound');
  nonEmpty(body.notFound, 'notFound');
};

const liquidityManifest: Check = (body) => {
  assert.match(body.version, /^\d+-\d+$/);
  assert.ok(body.itemCount > 0, 'itemCount');
};

const liquidityItems: Check = (body) => {
  liquidityManifest(body, new URL('http://x'), 0);
  const entries = Object.values(body.items) as Body[];
  assert.equal(entries.length, body.itemCount);
  assert.ok(
    entries.some((entry) => entry.liquidityBadge !== 'INSUFFICIENT_DATA'),
    'no item has an estimate',
  );
};

const listings: Check = (body, url) => {
  nonEmpty(body.listings, 'listings');
  assert.ok(body.listings.length <= Number(url.searchParams.get('limit') ?? 500));
  assert.ok(body.floatCoverage.listingsWithFloat > 0, 'no listing has a float');
  assert.notEqual(body.floatSummary, null, 'floatSummary');
  const allowed = marketsParam(url);
  for (const row of body.listings) {
    if (allowed) assert.ok(allowed.includes(row.market), `${row.market} not asked for`);
  }
};

const attributeLatest: Check = (body, url) => {
  nonEmpty(body.items, 'items');
  for (const item of body.items) nonEmpty(item.buckets, `buckets of ${item.market}`);
  const kinds = new Set(
    body.items.flatMap((item: Body) => item.buckets.flatMap((b: Body) => b.attributeTypes)),
  );
  for (const kind of (url.searchParams.get('attributes') ?? 'float').split(',')) {
    assert.ok(kinds.has(kind), `no ${kind} bucket`);
  }
  const allowed = marketsParam(url);
  if (allowed) for (const item of body.items) assert.ok(allowed.includes(item.market));
  if (url.pathname.startsWith('/v1/markets/')) assert.equal(body.market, 'buff163');
};

const attributeHistory: Check = (body) => {
  nonEmpty(body.items, 'items');
  nonEmpty(body.items[0].buckets[0].points, 'points');
};

const terminalSearch: Check = (body) => {
  nonEmpty(body.results, 'results');
  assert.ok(body.results.length <= 10, 'at most 10 results');
  assert.ok(
    body.results.some((row: Body) => row.bestAsk !== null),
    'no result has a best ask',
  );
};

const terminalItem: Check = (body) => {
  nonEmpty(body.pricing.markets, 'pricing.markets');
  nonEmpty(body.depth.asks, 'depth.asks');
  assert.notEqual(body.nbbo.bestAsk, null, 'nbbo.bestAsk');
  assert.equal(typeof body.recommendation.strategy, 'string', 'recommendation.strategy');
};

const terminalHistory: Check = (body) => nonEmpty(body.history, 'history');

const terminalBuckets: Check = (body) => {
  nonEmpty(body.items, 'items');
  for (const item of body.items) nonEmpty(item.buckets, `buckets of ${item.market}`);
  const kinds = new Set(
    body.items.flatMap((item: Body) => item.buckets.map((b: Body) => b.attributeTypes.join('+'))),
  );
  assert.ok(kinds.has('float'), 'no float band');
};

const terminalMarkets: Check = (body) => {
  nonEmpty(body.health, 'health');
  assert.ok(
    body.health.every((row: Body) => row.healthBars.length === 48),
    '48 bars',
  );
  nonEmpty(body.freshness.markets, 'freshness.markets');
};

const schemaSnapshot: Check = (body) => {
  assert.ok(body.itemCount > 0, 'itemCount');
  assert.equal(Object.keys(body.items).length, body.itemCount);
  assert.ok(Number.isSafeInteger(body.schemaVersion), 'schemaVersion');
};

const schemaItem: Check = (body, url) => {
  const selector = decodeURIComponent(url.pathname.split('/').at(-1)!);
  assert.ok([body.item.id, body.item.marketHashName, body.item.slug].includes(selector), selector);
  assert.equal(typeof body.item.version, 'number', 'version');
  assert.ok(Array.isArray(body.registries.rarities), 'registries');
};

const schemaChanges: Check = (body) => {
  nonEmpty(body.items, 'items');
  assert.equal(body.count, body.items.length);
  for (const item of body.items) assert.ok(item.version > body.since, `${item.id} not after since`);
};

const RULES: [RegExp, Check][] = [
  [/^\/v[12]\/schema$/, schemaSnapshot],
  [/^\/v[12]\/schema\/items\/[^/]+$/, schemaItem],
  [/^\/v[12]\/schema\/changes$/, schemaChanges],
  [/^\/terminal\/api\/search$/, terminalSearch],
  [/^\/terminal\/api\/item$/, terminalItem],
  [/^\/terminal\/api\/history$/, terminalHistory],
  [/^\/terminal\/api\/markets$/, terminalMarkets],
  [/^\/terminal\/api\/buckets$/, terminalBuckets],
  [/^\/v[12]\/pricing\/[^/]+\/listings$/, listings],
  [/^\/v1\/(?:attribute-prices|markets\/buff163)\/latest$/, attributeLatest],
  [/^\/v1\/(?:attribute-prices|markets\/buff163)\/history$/, attributeHistory],
  [/^\/v1\/liquidity\/items$/, liquidityItems],
  [/^\/v1\/liquidity\/items\/manifest$/, liquidityManifest],
  [/^\/v[12]\/liquidity\/batch$/, liquidityBatch],
  [/^\/v[12]\/liquidity\/summary\/[^/]+$/, liquiditySummary],
  [/^\/v[12]\/liquidity\/[^/]+$/, liquidity],
  [/^\/v[12]\/pricing\/[^/]+\/history$/, history],
  [/^\/v[12]\/pricing\/[^/]+\/history\/markets$/, historyByMarket],
  [/^\/v[12]\/pricing\/[^/]+$/, snapshot],
  [/^\/v[12]\/items$/, search],
  [/^\/v1\/items\/all$/, itemsAll],
  [/^\/v[12]\/status\/freshness$/, freshness],
  [/^\/v[12]\/status\/market-latency$/, latency],
  [/^\/v[12]\/markets\/health$/, health],
  [/^\/v[12]\/nbbo$/, nbbo],
  [/^\/v[12]\/nbbo\/depth$/, depth],
  [/^\/v1\/recommendations\/[^/]+$/, recommendation],
  [/^\/v1\/aggregations\/min-prices$/, minPrices],
  [/^\/v1\/arbitrage\/opportunities$/, arbitrage],
  [/^\/v1\/market-analytics\/[^/]+$/, analytics],
];

/** Throws unless `body`, the answer to `url`, shows what the docs say it shows. */
export function checkShowsData(url: URL, body: Body, startedAt: number): void {
  const rule = RULES.find(([path]) => path.test(url.pathname));
  assert.ok(rule, `no content rule for ${url.pathname}: add one to test/readme-content.ts`);
  rule[1](body, url, startedAt);
}
