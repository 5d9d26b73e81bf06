import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FormatContext } from './common.ts';
import { parseUsdDecimal } from './usd-decimal.ts';

const ctx: FormatContext = {
  game: 'rust',
  now: Date.parse('2026-11-01T12:00:00Z'),
  market: 'rusttm',
};

function body(items: unknown[]): unknown {
  return { success: true, time: 1_793_500_000, currency: 'USD', items };
}

describe('parseUsdDecimal', () => {
  test('reads decimal dollar strings as cents with the export time', () => {
    const { observations, rejected } = parseUsdDecimal(
      body([{ market_hash_name: 'Tempered AK47', price: '91.3', volume: '12' }]),
      ctx,
    );
    assert.deepEqual(rejected, []);
    assert.deepEqual(observations, [
      {
        game: 'rust',
        market: 'rusttm',
        item: 'Tempered AK47',
        currency: 'USD',
        scale: 100,
        kind: 'book',
        side: 'ask',
        levels: [{ price: 9130, quantity: 1, orders: null }],
        listingCount: 12,
        fetchedAt: ctx.now,
        sourceUpdatedAt: 1_793_500_000_000,
        sourceTimeKind: 'generated_at',
      },
    ]);
  });

  test('reads bid-ask ladders, buy_order, history and listings', () => {
    const row = {
      market_hash_name: 'AK-47 | Redline (Field-Tested)',
      price: '11.02',
      volume: 83,
      ask: [
        { price: '11.10', count: 2 },
        { price: '11.02', count: 1 },
      ],
      bid: [{ price: '10.21', count: 4 }],
      buy_volume: 14,
      history: [{ price: '10.90', time: 1_793_499_000 }],
      listings: [
        {
          id: '5531',
          price: '11.02',
          float: 0.2011,
          paint_seed: 442,
          paint_index: 282,
          phase: null,
          inspect_link: null,
          stickers: [],
        },
      ],
    };
    const { observations, rejected } = parseUsdDecimal(
      body([row, { market_hash_name: 'Case', price: '0.5', volume: 3, buy_order: null }]),
      ctx,
    );
    assert.deepEqual(rejected, []);
    const books = observations.flatMap((o) =>
      o.kind === 'book' ? [[o.item, o.side, o.levels.map((l) => l.price), o.listingCount]] : [],
    );
    assert.deepEqual(books, [
      [row.market_hash_name, 'ask', [1102, 1110], 83],
      [row.market_hash_name, 'bid', [1021], 14],
      ['Case', 'ask', [50], 3],
      ['Case', 'bid', [], null],
    ]);
    assert.equal(observations.filter((o) => o.kind === 'sale').length, 1);
    assert.equal(observations.filter((o) => o.kind === 'listing').length, 1);
  });

  test('rejects negative and non-numeric prices and bad volumes', () => {
    const rows = [
      { market_hash_name: 'Neg', price: '-1.00', volume: 1 },
      { market_hash_name: 'Text', price: 'N/A', volume: 1 },
      { market_hash_name: 'Vol', price: '1.00', volume: 'lots' },
      { market_hash_name: 'Zero', price: '0.00', volume: 4 },
      { price: '1.00', volume: 1 },
    ];
    const { observations, rejected } = parseUsdDecimal(body(rows), ctx);
    assert.deepEqual(
      rejected.map((r) => r.reason),
      ['negative_price', 'malformed', 'malformed', 'absurd_price', 'malformed'],
    );
    assert.deepEqual(observations, []);
  });

  test('an unsuccessful body is rejected whole', () => {
    assert.equal(
      parseUsdDecimal({ success: false, error: 'Bad KEY' }, ctx).rejected[0]?.reason,
      'malformed',
    );
  });
});
