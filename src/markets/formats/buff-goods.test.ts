import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBuffGoods } from './buff-goods.ts';
import type { FormatContext } from './common.ts';

const ctx: FormatContext = {
  game: 'cs2',
  now: Date.parse('2026-11-01T12:00:00Z'),
  market: 'buff163',
};

function body(items: unknown[]): unknown {
  return {
    code: 'OK',
    msg: null,
    data: { items, page_num: 1, page_size: 80, total_page: 1, total_count: items.length },
  };
}

const REDLINE = {
  id: 33906,
  market_hash_name: 'AK-47 | Redline (Field-Tested)',
  sell_min_price: '77.5',
  buy_max_price: '74',
  sell_num: 1204,
  buy_num: 310,
  sell_orders: [
    { price: '78', num: 5 },
    { price: '77.5', num: 3 },
  ],
  buy_orders: [
    { price: '73.05', num: 2 },
    { price: '74', num: 12 },
  ],
  bill_orders: [{ price: '76', transact_time: 1_793_500_000 }],
  sell_listings: [
    {
      id: '230901T1',
      price: '77.5',
      asset_info: {
        paintwear: '0.2154',
        paintseed: 661,
        paintindex: 282,
        phase: null,
        stickers: [{ name: 'Titan | Katowice 2014' }],
        inspect_url: 'steam://rungame/730/x',
      },
    },
  ],
};

describe('parseBuffGoods', () => {
  test('reads CNY strings as fen, ladders best first, counts per side', () => {
    const { observations, rejected } = parseBuffGoods(body([REDLINE]), ctx);
    assert.deepEqual(rejected, []);
    const [ask, bid] = observations;
    assert.equal(ask?.kind, 'book');
    if (ask?.kind !== 'book' || bid?.kind !== 'book') return;
    assert.deepEqual(ask.levels, [
      { price: 7750, quantity: 3, orders: null },
      { price: 7800, quantity: 5, orders: null },
    ]);
    assert.deepEqual(
      bid.levels.map((level) => level.price),
      [7400, 7305],
    );
    assert.equal(ask.currency, 'CNY');
    assert.equal(ask.scale, 100);
    assert.equal(ask.listingCount, 1204);
    assert.equal(bid.listingCount, 310);
    assert.equal(ask.sourceUpdatedAt, null);
    assert.equal(ask.fetchedAt, ctx.now);
  });

  test('reads sales and listings with floats, seeds and stickers', () => {
    const { observations } = parseBuffGoods(body([REDLINE]), ctx);
    const sale = observations.find((o) => o.kind === 'sale');
    assert.deepEqual(sale && { price: sale.price, soldAt: sale.soldAt, quantity: sale.quantity }, {
      price: 7600,
      soldAt: 1_793_500_000_000,
      quantity: 1,
    });
    const listing = observations.find((o) => o.kind === 'listing');
    assert.equal(listing?.kind, 'listing');
    if (listing?.kind !== 'listing') return;
    assert.equal(listing.floatValue, 0.2154);
    assert.equal(listing.paintSeed, 661);
    assert.equal(listing.paintIndex, 282);
    assert.deepEqual(listing.stickers, ['Titan | Katowice 2014']);
    assert.equal(listing.price, 7750);
  });

  test('without ladders the best prices make one level; "0" with no orders is an empty side', () => {
    const row = {
      market_hash_name: 'Recoil Case',
      sell_min_price: '2.45',
      buy_max_price: '0',
      sell_num: 826,
      buy_num: 0,
    };
    const { observations, rejected } = parseBuffGoods(body([row]), ctx);
    assert.deepEqual(rejected, []);
    const sides = observations.flatMap((o) => (o.kind === 'book' ? [[o.side, o.levels]] : []));
    assert.deepEqual(sides, [
      ['ask', [{ price: 245, quantity: 1, orders: null }]],
      ['bid', []],
    ]);
  });

  test('rejects bad rows with reasons and keeps the good ones', () => {
    const rows = [
      { ...REDLINE, market_hash_name: 'Good', bill_orders: [], sell_listings: [] },
      { sell_min_price: '1' },
      {
        ...REDLINE,
        market_hash_name: 'Negative',
        sell_orders: [{ price: '-3', num: 1 }],
        bill_orders: [],
        sell_listings: [],
      },
      {
        ...REDLINE,
        market_hash_name: 'Text',
        buy_orders: [{ price: 'abc', num: 1 }],
        bill_orders: [],
        sell_listings: [],
      },
      { ...REDLINE, market_hash_name: 'NoCount', sell_num: 'many' },
      'not a row',
    ];
    const { observations, rejected } = parseBuffGoods(body(rows), ctx);
    assert.deepEqual(
      rejected.map((r) => r.reason),
      ['malformed', 'negative_price', 'malformed', 'malformed', 'malformed'],
    );
    assert.match(rejected[1]!.detail, /Negative ask/);
    const items = observations.map((o) => `${o.item}:${o.kind === 'book' ? o.side : o.kind}`);
    assert.deepEqual(items, ['Good:ask', 'Good:bid', 'Negative:bid', 'Text:ask']);
  });

  test('a body that is not a goods page is one malformed rejection', () => {
    for (const bad of [null, [], { code: 'Login Required' }, { code: 'OK', data: {} }]) {
      const result = parseBuffGoods(bad, ctx);
      assert.deepEqual(result.observations, []);
      assert.equal(result.rejected[0]?.reason, 'malformed');
    }
  });
});
