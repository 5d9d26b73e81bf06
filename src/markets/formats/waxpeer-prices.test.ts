import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FormatContext } from './common.ts';
import { parseWaxpeerPrices } from './waxpeer-prices.ts';

const ctx: FormatContext = {
  game: 'cs2',
  now: Date.parse('2026-11-01T12:00:00Z'),
  market: 'waxpeer',
};
const NAME = '★ Karambit | Doppler (Factory New)';

describe('parseWaxpeerPrices', () => {
  test('reads min in 1/1000 USD (scale 1000) from a bare prices body', () => {
    const body = {
      success: true,
      items: [
        { name: 'AK-47 | Redline (Field-Tested)', count: 57, min: 10890, steam_price: 12990 },
      ],
    };
    const { observations, rejected } = parseWaxpeerPrices(body, ctx);
    assert.deepEqual(rejected, []);
    const [ask] = observations;
    assert.equal(ask?.kind, 'book');
    if (ask?.kind !== 'book') return;
    assert.deepEqual(
      [ask.currency, ask.scale, ask.levels, ask.listingCount],
      ['USD', 1000, [{ price: 10890, quantity: 1, orders: null }], 57],
    );
    assert.equal(
      observations.some((o) => o.kind === 'book' && o.side === 'bid'),
      false,
    );
  });

  test('mass-info adds bids, sales and listings with phases', () => {
    const body = {
      prices: { success: true, items: [{ name: NAME, count: 9, min: 1_150_000 }] },
      massInfo: {
        success: true,
        data: {
          [NAME]: {
            listings: [
              {
                item_id: '29876',
                price: 1_150_000,
                float: 0.0123,
                paint_index: 419,
                paint_seed: 12,
                phase: 'Phase 2',
              },
            ],
            orders: [
              { price: 1_020_000, amount: 1 },
              { price: 1_080_000, amount: 2 },
            ],
            history: [{ price: 1_100_000, sold_at: 1_793_500_000 }],
          },
        },
      },
    };
    const { observations, rejected } = parseWaxpeerPrices(body, ctx);
    assert.deepEqual(rejected, []);
    const bid = observations.find((o) => o.kind === 'book' && o.side === 'bid');
    assert.deepEqual(bid?.kind === 'book' && [bid.levels.map((l) => l.price), bid.listingCount], [
      [1_080_000, 1_020_000],
      2,
    ]);
    const listing = observations.find((o) => o.kind === 'listing');
    assert.deepEqual(
      listing?.kind === 'listing' && [listing.phase, listing.paintIndex, listing.floatValue],
      ['Phase 2', 419, 0.0123],
    );
    assert.equal(observations.filter((o) => o.kind === 'sale').length, 1);
  });

  test('rejects fractional milli prices as a unit error, negatives and missing names', () => {
    const body = {
      success: true,
      items: [
        { name: 'Cents?', count: 3, min: 12.5 },
        { name: 'Negative', count: 3, min: -10 },
        { count: 3, min: 100 },
        { name: 'Text', count: 3, min: 'cheap' },
        { name: 'Fine', count: 1, min: 250 },
      ],
    };
    const { observations, rejected } = parseWaxpeerPrices(body, ctx);
    assert.deepEqual(
      rejected.map((r) => r.reason),
      ['wrong_unit', 'negative_price', 'malformed', 'malformed'],
    );
    assert.deepEqual(
      observations.map((o) => o.item),
      ['Fine'],
    );
  });

  test('success false is rejected whole', () => {
    assert.deepEqual(
      parseWaxpeerPrices({ success: false, msg: 'wrong api key' }, ctx).observations,
      [],
    );
  });
});
