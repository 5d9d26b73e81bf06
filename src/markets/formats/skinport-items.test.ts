import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FormatContext } from './common.ts';
import { parseSkinportItems } from './skinport-items.ts';

const ctx: FormatContext = {
  game: 'cs2',
  now: Date.parse('2026-11-01T12:00:00Z'),
  market: 'skinport',
};

const ITEM = {
  market_hash_name: 'AK-47 | Redline (Field-Tested)',
  currency: 'EUR',
  suggested_price: 11.2,
  item_page: 'https://skinport.com/item/ak-47-redline-field-tested',
  market_page: 'https://skinport.com/market?search=ak-47-redline',
  min_price: 10.05,
  max_price: 48,
  mean_price: 13.91,
  median_price: 11.5,
  quantity: 112,
  created_at: 1_535_988_253,
  updated_at: 1_793_500_000,
};

describe('parseSkinportItems', () => {
  test('reads EUR decimals as cents with the row updated_at as source time', () => {
    const { observations, rejected } = parseSkinportItems([ITEM], ctx);
    assert.deepEqual(rejected, []);
    assert.deepEqual(observations, [
      {
        game: 'cs2',
        market: 'skinport',
        item: ITEM.market_hash_name,
        currency: 'EUR',
        scale: 100,
        kind: 'book',
        side: 'ask',
        levels: [{ price: 1005, quantity: 1, orders: null }],
        listingCount: 112,
        fetchedAt: ctx.now,
        sourceUpdatedAt: 1_793_500_000_000,
        sourceTimeKind: 'updated_at',
      },
    ]);
  });

  test('a row with no listings is an empty ask side', () => {
    const { observations } = parseSkinportItems([{ ...ITEM, min_price: null, quantity: 0 }], ctx);
    assert.equal(observations[0]?.kind === 'book' && observations[0].levels.length, 0);
  });

  test('reads the bundle with sale events', () => {
    const sales = [
      {
        market_hash_name: ITEM.market_hash_name,
        currency: 'EUR',
        price: 10.4,
        sold_at: 1_793_499_000,
      },
      {
        market_hash_name: ITEM.market_hash_name,
        currency: 'EUR',
        price: -1,
        sold_at: 1_793_499_001,
      },
      { market_hash_name: ITEM.market_hash_name, currency: 'EUR', price: 10.4 },
    ];
    const { observations, rejected } = parseSkinportItems({ items: [ITEM], sales }, ctx);
    const sale = observations.find((o) => o.kind === 'sale');
    assert.deepEqual(sale?.kind === 'sale' && [sale.price, sale.soldAt, sale.currency], [
      1040,
      1_793_499_000_000,
      'EUR',
    ]);
    assert.deepEqual(
      rejected.map((r) => r.reason),
      ['negative_price', 'malformed'],
    );
  });

  test('rejects unknown currencies, missing names, bad quantities and non-numeric prices', () => {
    const rows = [
      { ...ITEM, currency: 'XYZ' },
      { ...ITEM, market_hash_name: '' },
      { ...ITEM, quantity: -2 },
      { ...ITEM, min_price: 'ten' },
      { ...ITEM, market_hash_name: 'Kept' },
    ];
    const { observations, rejected } = parseSkinportItems(rows, ctx);
    assert.deepEqual(
      rejected.map((r) => r.reason),
      ['wrong_unit', 'malformed', 'malformed', 'malformed'],
    );
    assert.deepEqual(
      observations.map((o) => o.item),
      ['Kept'],
    );
  });

  test('a body that is not an array or bundle is rejected whole', () => {
    assert.equal(
      parseSkinportItems({ error: 'rate limited' }, ctx).rejected[0]?.reason,
      'malformed',
    );
  });
});
