import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { MarketSides } from '../book/book.ts';
import { MINUTE } from '../domain/clock.ts';
import { MARKET_IDS, type MarketId } from '../domain/markets.ts';
import { isCashMarket } from '../markets/fees.ts';
import type { Level, SideSnapshot } from '../domain/quote.ts';
import type { FeeModel, MarketFees } from '../markets/fees.ts';
import { DEFAULT_ARBITRAGE_OPTIONS, findOpportunities } from './arbitrage.ts';
import { computeDepth } from './depth.ts';
import { computeNbbo, type SpreadState } from './nbbo.ts';
import { computeRecommendation } from './recommendation.ts';
import { askSides, eligibleBidSides, type MarketSelection } from './top-of-book.ts';
import { ITEM, NOW, zeroFeeModel } from './test-fixtures.ts';

const POOL: MarketId[] = ['steamcommunity', 'skinport', 'buff163', 'csfloat', 'dmarket', 'waxpeer'];

const ageArb = fc.oneof(
  fc.integer({ min: 0, max: 2 * 60 * MINUTE }),
  fc.constantFrom(30 * MINUTE, 30 * MINUTE + 1),
);

/**
 * Ladders sit around a shared mid price: asks at mid + offset, bids at mid − offset, with
 * offsets from −3 (crossing) to 40, so books are often locked, crossed or one cent apart and
 * markets often share price levels.
 */
function ladderArb(kind: 'ask' | 'bid', mid: number) {
  const sign = kind === 'ask' ? 1 : -1;
  return fc
    .uniqueArray(
      fc.record({
        price: fc.integer({ min: -3, max: 40 }).map((offset) => Math.max(1, mid + sign * offset)),
        quantity: fc.integer({ min: 0, max: 50 }),
        orders: fc.option(fc.integer({ min: 1, max: 20 })),
      }),
      { minLength: 1, maxLength: 8, selector: (level) => level.price },
    )
    .map((levels: Level[]) => levels.sort((a, b) => sign * (a.price - b.price)));
}

function sideArb(market: MarketId, kind: 'ask' | 'bid', mid: number) {
  return fc
    .record({ levels: ladderArb(kind, mid), ageMs: ageArb })
    .map(({ levels, ageMs }): SideSnapshot => ({
      game: 'cs2',
      itemId: ITEM.id,
      market,
      side: kind,
      levels,
      listingCount: null,
      totalQuantity: levels.reduce((sum, level) => sum + level.quantity, 0),
      fetchedAt: NOW - ageMs,
      ingestedAt: NOW - ageMs + 100,
      sourceUpdatedAt: null,
      sourceTimeKind: null,
      originalCurrency: 'USD',
    }));
}

const midArb = fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 61, max: 500_000 }));

const bookArb: fc.Arbitrary<MarketSides[]> = fc
  .tuple(fc.subarray(POOL), midArb)
  .chain(([markets, mid]) =>
    fc.tuple(
      ...markets.map((market) =>
        fc.record({
          market: fc.constant(market),
          ask: fc.option(sideArb(market, 'ask', mid)),
          bid: fc.option(sideArb(market, 'bid', mid)),
        }),
      ),
    ),
  )
  .map((entries) => [...entries]);

const selectionArb: fc.Arbitrary<MarketSelection> = fc
  .option(fc.subarray(POOL, { minLength: 1 }))
  .map((list) => ({ markets: list ? new Set(list) : null }));

const feesArb: fc.Arbitrary<FeeModel> = fc
  .array(
    fc.record({
      sellerFeeBps: fc.integer({ min: 0, max: 10_000 }),
      buyerFeeBps: fc.integer({ min: 0, max: 2_000 }),
      withdrawalFlatCents: fc.integer({ min: 0, max: 500 }),
    }),
    { minLength: MARKET_IDS.length, maxLength: MARKET_IDS.length },
  )
  .map((rows) => {
    const base = zeroFeeModel('random');
    const markets = { ...base.markets } as Record<MarketId, MarketFees>;
    MARKET_IDS.forEach((id, i) => (markets[id] = { ...markets[id], ...rows[i]! }));
    return { version: 'random', markets };
  });

const top = (side: SideSnapshot) => side.levels[0]!.price;

interface View {
  ask: { price: number } | null;
  bid: { price: number } | null;
  state: SpreadState;
}

describe('pricing properties over random books', () => {
  test('NBBO: best ask ≤ every ask considered, best bid ≥ every eligible bid', () => {
    fc.assert(
      fc.property(bookArb, selectionArb, feesArb, (sides, selection, fees) => {
        const nbbo = computeNbbo(ITEM, sides, selection, fees, NOW);
        for (const side of askSides(sides, selection)) assert.ok(nbbo.bestAsk!.price <= top(side));
        for (const side of eligibleBidSides(sides, selection))
          assert.ok(nbbo.bestBid!.price >= top(side));
        if (selection.markets === null && nbbo.bestBid)
          assert.ok(isCashMarket(nbbo.bestBid.market));
        assert.ok(nbbo.confidence >= 0 && nbbo.confidence <= 1);
      }),
    );
  });

  test('NBBO: locked ⇔ equal, crossed ⇔ bid > ask, spreadBps null ⇔ a side is missing', () => {
    fc.assert(
      fc.property(bookArb, selectionArb, feesArb, (sides, selection, fees) => {
        const nbbo = computeNbbo(ITEM, sides, selection, fees, NOW);
        const views: View[] = [{ ask: nbbo.bestAsk, bid: nbbo.bestBid, state: nbbo }];
        const adjusted = nbbo.executionAdjusted;
        if (adjusted) views.push({ ask: adjusted.bestAsk, bid: adjusted.bestBid, state: adjusted });
        for (const { ask, bid, state } of views) {
          const both = ask !== null && bid !== null;
          assert.equal(state.locked, both && bid.price === ask.price);
          assert.equal(state.crossed, both && bid.price > ask.price);
          assert.equal(state.spreadBps === null, !both || bid.price <= 0);
          if (state.spreadBps !== null) assert.ok(Number.isInteger(state.spreadBps));
        }
      }),
    );
  });

  test('execution: integer prices, net bid ≤ gross bid, total ask ≥ listed ask', () => {
    fc.assert(
      fc.property(bookArb, selectionArb, feesArb, (sides, selection, fees) => {
        const adjusted = computeNbbo(ITEM, sides, selection, fees, NOW).executionAdjusted;
        if (!adjusted) return;
        const { bestAsk, bestBid } = adjusted;
        if (bestAsk) {
          assert.ok(Number.isSafeInteger(bestAsk.price) && bestAsk.price >= bestAsk.rawPrice);
        }
        if (bestBid) {
          assert.ok(Number.isSafeInteger(bestBid.price));
          assert.ok(bestBid.price >= 0 && bestBid.price <= bestBid.rawPrice);
        }
        assert.ok(adjusted.executableConfidence >= 0 && adjusted.executableConfidence <= 1);
      }),
    );
  });

  test('depth: cumulative quantities are monotone and ladders are ordered', () => {
    fc.assert(
      fc.property(
        bookArb,
        selectionArb,
        fc.integer({ min: 1, max: 50 }),
        (sides, selection, depth) => {
          const result = computeDepth(ITEM, sides, selection, depth, NOW);
          for (const [levels, dir] of [
            [result.asks, 1],
            [result.bids, -1],
          ] as const) {
            assert.ok(levels.length <= depth);
            levels.forEach((level, i) => {
              assert.equal(level.rank, i + 1);
              const previous = levels[i - 1];
              if (!previous) return;
              assert.ok(level.cumulativeQuantity >= previous.cumulativeQuantity);
              assert.ok((level.price - previous.price) * dir > 0);
            });
          }
        },
      ),
    );
  });

  test('merging depth and the NBBO do not depend on market order', () => {
    fc.assert(
      fc.property(
        bookArb.chain((sides) =>
          fc.tuple(fc.constant(sides), fc.shuffledSubarray(sides, { minLength: sides.length })),
        ),
        selectionArb,
        feesArb,
        ([sides, shuffled], selection, fees) => {
          assert.deepEqual(
            computeDepth(ITEM, shuffled, selection, 50, NOW),
            computeDepth(ITEM, sides, selection, 50, NOW),
          );
          assert.deepEqual(
            computeNbbo(ITEM, shuffled, selection, fees, NOW),
            computeNbbo(ITEM, sides, selection, fees, NOW),
          );
        },
      ),
    );
  });

  test('recommendation: integer suggestion between the best quotes, null only without support', () => {
    fc.assert(
      fc.property(bookArb, selectionArb, feesArb, (sides, selection, fees) => {
        const record = computeRecommendation(ITEM, sides, selection, fees, NOW);
        const nullable =
          record.strategy === 'no_data' || record.strategy === 'insufficient_support';
        assert.equal(record.suggested_price === null, nullable);
        assert.ok(record.confidence >= 0 && record.confidence <= 1);
        assert.ok(record.liquidity_score >= 0 && record.liquidity_score <= 1);
        if (record.suggested_price === null) return;
        assert.ok(Number.isSafeInteger(record.suggested_price));
        const prices = [record.best_ask?.price, record.best_bid?.price].filter(
          (p) => p !== undefined,
        );
        assert.ok(record.suggested_price >= Math.min(...prices));
        assert.ok(record.suggested_price <= Math.max(...prices));
        if (record.best_bid) assert.ok(isCashMarket(record.best_bid.market));
      }),
    );
  });

  test('arbitrage: integer nets, positive after fees, never into wallet credit', () => {
    fc.assert(
      fc.property(bookArb, feesArb, (sides, fees) => {
        const item = { ...ITEM, slug: 'x', image: undefined };
        const options = { ...DEFAULT_ARBITRAGE_OPTIONS, minSpreadBps: 0, minNotionalCents: 0 };
        for (const found of findOpportunities([{ item, sides }], options, fees, NOW)
          .opportunities) {
          assert.ok(Number.isSafeInteger(found.estimatedNetCents) && found.estimatedNetCents > 0);
          assert.ok(isCashMarket(found.sell.market));
          assert.notEqual(found.buy.market, found.sell.market);
          assert.equal(
            found.feeNotes.split('; ').some((note) => note.startsWith('stale_quote')),
            found.buy.isStale || found.sell.isStale,
          );
        }
      }),
    );
  });
});
