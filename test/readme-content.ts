/**
 * What each README example must show, per endpoint: rows present and the fields the README
 * describes filled in. `checkShowsData` throws an AssertionError naming what is missing; an
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

const RULES: [RegExp, Check][] = [
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

/** Throws unless `body`, the answer to `url`, shows what the README says it shows. */
export function checkShowsData(url: URL, body: Body, startedAt: number): void {
  const rule = RULES.find(([path]) => path.test(url.pathname));
  assert.ok(rule, `no content rule for ${url.pathname}: add one to test/readme-content.ts`);
  rule[1](body, url, startedAt);
}
