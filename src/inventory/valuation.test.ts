import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Book } from '../book/book.ts';
import type { InventoryItem } from '../domain/inventory.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import { DEFAULT_FEE_MODEL, feesFor, isCashMarket } from '../markets/fees.ts';
import { liquidityFromBook } from '../liquidity/from-book.ts';
import { LIQUIDITY_MARKETS } from '../liquidity/markets.ts';
import { evenSales } from '../liquidity/test-fixtures.ts';
import { bestAdjustedBid, sellerNets } from '../pricing/execution.ts';
import { computeRecommendation } from '../pricing/recommendation.ts';
import { ALL_MARKETS, eligibleBidSides } from '../pricing/top-of-book.ts';
import { valueInventory } from './valuation.ts';

const NOW = Date.parse('2026-11-01T12:00:00Z');
const IDS = ['a', 'b', 'c'];
const MARKETS: MarketId[] = ['buff163', 'csfloat', 'skinport', 'steamcommunity'];

const catalogItem = (id: string): CatalogItem => ({
  id,
  game: 'cs2',
  marketHashName: `Item ${id}`,
  slug: id,
  category: 'skin',
});

const inventoryItem = (id: string, index: number, marketable = true): InventoryItem => ({
  assetId: String(index + 1),
  classId: '1',
  instanceId: '0',
  marketHashName: `Item ${id}`,
  marketName: `Item ${id}`,
  tradable: true,
  marketable,
  amount: 1,
  canonicalItemId: id,
});

const ladder = fc.array(
  fc.record({
    price: fc.integer({ min: 1, max: 100_000 }),
    quantity: fc.integer({ min: 1, max: 3 }),
  }),
  { minLength: 0, maxLength: 4 },
);

const bookSpec = fc.array(
  fc.record({
    item: fc.constantFrom(...IDS),
    market: fc.constantFrom(...MARKETS),
    side: fc.constantFrom('ask' as const, 'bid' as const),
    levels: ladder,
    ageMinutes: fc.constantFrom(1, 45),
  }),
  { maxLength: 12 },
);

const salesSpec = fc.array(
  fc.record({
    item: fc.constantFrom(...IDS),
    market: fc.constantFrom<MarketId>('skinport', 'csfloat', 'steamcommunity'),
    count: fc.integer({ min: 1, max: 40 }),
    gapHours: fc.integer({ min: 1, max: 48 }),
  }),
  { maxLength: 5 },
);

interface SideSpec {
  item: string;
  market: MarketId;
  side: 'ask' | 'bid';
  levels: { price: number; quantity: number }[];
  ageMinutes?: number;
}

interface SalesSpec {
  item: string;
  market: MarketId;
  count: number;
  gapHours: number;
}

function buildBook(spec: readonly SideSpec[], sales: readonly SalesSpec[] = []): Book {
  const book = new Book();
  for (const entry of sales) {
    const gap = entry.gapHours * 3_600_000;
    book.apply({
      sides: [],
      sales: evenSales(entry.market, entry.count, NOW - gap, gap, entry.item),
      listings: [],
    });
  }
  for (const entry of spec) {
    const levels = [...new Map(entry.levels.map((level) => [level.price, level])).values()]
      .sort((a, b) => (entry.side === 'ask' ? a.price - b.price : b.price - a.price))
      .map((level) => ({ ...level, orders: level.quantity }));
    book.apply({
      sides: [
        {
          game: 'cs2',
          itemId: entry.item,
          market: entry.market,
          side: entry.side,
          levels,
          listingCount: levels.length,
          totalQuantity: levels.reduce((sum, level) => sum + level.quantity, 0),
          fetchedAt: NOW - (entry.ageMinutes ?? 1) * 60_000,
          ingestedAt: NOW - 59_000,
          sourceUpdatedAt: null,
          sourceTimeKind: null,
          originalCurrency: 'USD',
        },
      ],
      sales: [],
      listings: [],
    });
  }
  return book;
}

/** The oracle: every cash bid unit on its own, best net first, one per inventory unit, capped at the ask. */
function unitWalk(book: Book, id: string, units: number): number | null {
  const sides = book.sides('cs2', id);
  const asks = sides.flatMap((entry) =>
    entry.ask?.levels.length ? [entry.ask.levels[0]!.price] : [],
  );
  const cap = asks.length > 0 ? Math.min(...asks) : Infinity;
  const nets: number[] = [];
  for (const entry of sides) {
    if (!entry.bid || !isCashMarket(entry.market)) continue;
    const fees = feesFor(DEFAULT_FEE_MODEL, entry.market);
    for (const level of entry.bid.levels) {
      const net = sellerNets(level.price, fees);
      for (let copy = 0; copy < level.quantity && net > 0; copy++) nets.push(net);
    }
  }
  if (nets.length === 0) return null;
  nets.sort((a, b) => b - a);
  return nets.slice(0, units).reduce((sum, net) => sum + Math.min(net, cap), 0);
}

describe('inventory valuation', () => {
  test('instant cash never exceeds list value and equals the sum of the per-item bid walks', () => {
    fc.assert(
      fc.property(bookSpec, fc.array(fc.constantFrom(...IDS), { maxLength: 8 }), (spec, held) => {
        const book = buildBook(spec);
        const items = held.map((id, index) => inventoryItem(id, index));
        const valuation = valueInventory(items, {
          book,
          game: 'cs2',
          byId: (id) => (IDS.includes(id) ? catalogItem(id) : undefined),
          feeModel: DEFAULT_FEE_MODEL,
          markets: [],
          now: NOW,
        });
        if (valuation.instantCashCents !== null && valuation.listValueCents !== null) {
          assert.ok(valuation.instantCashCents <= valuation.listValueCents);
        }
        let expected: number | null = null;
        for (const id of new Set(held)) {
          const walk = unitWalk(book, id, held.filter((entry) => entry === id).length);
          if (walk !== null) expected = (expected ?? 0) + walk;
        }
        assert.equal(valuation.instantCashCents, expected);
      }),
      { numRuns: 200 },
    );
  });

  test('per item: the best cash bid, suggested price and liquidity are those of the full NBBO quote, recommendation and liquidity record', () => {
    fc.assert(
      fc.property(bookSpec, salesSpec, (spec, sales) => {
        const book = buildBook(spec, sales);
        const markets = LIQUIDITY_MARKETS.cs2;
        const valuation = valueInventory(
          IDS.map((id, index) => inventoryItem(id, index)),
          { book, game: 'cs2', byId: catalogItem, feeModel: DEFAULT_FEE_MODEL, markets, now: NOW },
        );
        for (const valued of valuation.items) {
          const item = catalogItem(valued.canonicalItemId!);
          const sides = book.sides('cs2', item.id);
          const ask = valued.bestAsk?.price ?? null;
          const liquidity = liquidityFromBook(book, 'cs2', item, markets, ask, NOW);
          const recommendation = computeRecommendation(
            item,
            sides,
            ALL_MARKETS,
            DEFAULT_FEE_MODEL,
            NOW,
          );
          const bid = bestAdjustedBid(eligibleBidSides(sides, ALL_MARKETS), DEFAULT_FEE_MODEL, NOW);
          assert.deepEqual(
            valued.bestCashBid,
            bid && { market: bid.market, price: bid.price, rawPrice: bid.rawPrice },
          );
          assert.equal(valued.suggestedPrice, recommendation.suggested_price);
          assert.equal(valued.liquidityBadge, liquidity.liquidityBadge);
          assert.equal(valued.medianTimeToSellHours, liquidity.medianTimeToSellHours);
        }
      }),
      { numRuns: 150 },
    );
  });

  test('a non-marketable item is not valued and is counted apart', () => {
    const book = buildBook([
      { item: 'a', market: 'csfloat', side: 'ask', levels: [{ price: 1000, quantity: 1 }] },
    ]);
    const valuation = valueInventory([inventoryItem('a', 0, false), inventoryItem('a', 1)], {
      book,
      game: 'cs2',
      byId: catalogItem,
      feeModel: DEFAULT_FEE_MODEL,
      markets: [],
      now: NOW,
    });
    assert.equal(valuation.listValueCents, 1000);
    assert.equal(valuation.notMarketableCount, 1);
    assert.equal(valuation.items[0]!.bestAsk, null);
    assert.deepEqual(valuation.items[1]!.bestAsk, { market: 'csfloat', price: 1000 });
  });
});
