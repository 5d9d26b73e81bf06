import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCentsLadder } from './cents-ladder.ts';
import type { FormatContext } from './common.ts';

const ctx: FormatContext = {
  game: 'cs2',
  now: Date.parse('2026-11-01T12:00:00Z'),
  market: 'csfloat',
};

const ROW = {
  market_hash_name: 'StatTrak™ M4A1-S | Printstream (Minimal Wear)',
  listing_count: 41,
  order_count: 17,
  asks: [
    { price: 29_950, quantity: 1, orders: 1 },
    { price: 29_500, quantity: 2, orders: 2 },
  ],
  bids: [{ price: '27900', quantity: 3, orders: 2 }],
  sales: [{ price: 29_100, quantity: 1, sold_at: 1_793_499_700 }],
  listings: [
    {
      id: '81234',
      price: 29_500,
      float_value: 0.0931,
      paint_seed: 12,
      paint_index: 984,
      phase: null,
      inspect_link: 'steam://rungame/730/x',
      stickers: [],
      is_stattrak: true,
    },
  ],
};

describe('parseCentsLadder', () => {
  test('reads integer cents (numbers or strings) with orders and updated_at', () => {
    const { observations, rejected } = parseCentsLadder(
      { currency: 'USD', updated_at: 1_793_500_000, items: [ROW] },
      ctx,
    );
    assert.deepEqual(rejected, []);
    const [ask, bid] = observations;
    if (ask?.kind !== 'book' || bid?.kind !== 'book') return assert.fail('expected two book sides');
    assert.deepEqual(ask.levels, [
      { price: 29_500, quantity: 2, orders: 2 },
      { price: 29_950, quantity: 1, orders: 1 },
    ]);
    assert.deepEqual(
      [bid.levels, bid.listingCount],
      [[{ price: 27_900, quantity: 3, orders: 2 }], 17],
    );
    assert.deepEqual(
      [ask.sourceUpdatedAt, ask.sourceTimeKind, ask.scale],
      [1_793_500_000_000, 'updated_at', 100],
    );
    const listing = observations.find((o) => o.kind === 'listing');
    assert.deepEqual(
      listing?.kind === 'listing' && [listing.isStatTrak, listing.floatValue, listing.paintSeed],
      [true, 0.0931, 12],
    );
  });

  test('bids absent means unknown (no bid observation); [] means none', () => {
    const { bids: _bids, ...noBids } = ROW;
    const unknown = parseCentsLadder({ currency: 'USD', updated_at: 1, items: [noBids] }, ctx);
    assert.equal(
      unknown.observations.some((o) => o.kind === 'book' && o.side === 'bid'),
      false,
    );
    const none = parseCentsLadder(
      { currency: 'USD', updated_at: 1, items: [{ ...ROW, bids: [] }] },
      ctx,
    );
    const bid = none.observations.find((o) => o.kind === 'book' && o.side === 'bid');
    assert.deepEqual(bid?.kind === 'book' && bid.levels, []);
  });

  test('a fractional cent is a unit error; bad levels reject only their side', () => {
    const rows = [
      {
        ...ROW,
        market_hash_name: 'Dollars',
        asks: [{ price: 299.5, quantity: 1, orders: 1 }],
        sales: [],
        listings: [],
      },
      {
        ...ROW,
        market_hash_name: 'ZeroQty',
        bids: [{ price: 100, quantity: 0, orders: 0 }],
        sales: [],
        listings: [],
      },
      {
        ...ROW,
        market_hash_name: 'BadListing',
        listings: [{ id: 'x', price: 100, float_value: 3 }],
        sales: [],
      },
    ];
    const { observations, rejected } = parseCentsLadder(
      { currency: 'USD', updated_at: 1, items: rows },
      ctx,
    );
    assert.deepEqual(
      rejected.map((r) => r.reason),
      ['wrong_unit', 'malformed', 'malformed'],
    );
    const books = observations
      .filter((o) => o.kind === 'book')
      .map((o) => `${o.item}:${o.kind === 'book' ? o.side : ''}`);
    assert.deepEqual(books, ['Dollars:bid', 'ZeroQty:ask', 'BadListing:ask', 'BadListing:bid']);
  });

  test('a currency without 2-decimal minor units is rejected whole', () => {
    const result = parseCentsLadder({ currency: 'JPY', updated_at: 1, items: [ROW] }, ctx);
    assert.deepEqual([result.observations.length, result.rejected[0]?.reason], [0, 'wrong_unit']);
  });
});
