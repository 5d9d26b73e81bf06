/**
 * Test-only builders for pricing tests: side snapshots, per-market books and fee models.
 * Not imported by production code.
 */
import type { MarketSides } from '../book/book.ts';
import { MARKET_IDS, WALLET_MARKET_ID, type MarketId } from '../domain/markets.ts';
import type { Side } from '../domain/observation.ts';
import type { Level, SideSnapshot } from '../domain/quote.ts';
import type { FeeModel, MarketFees } from '../markets/fees.ts';
import type { ItemRef } from './book-view.ts';

export const NOW = Date.parse('2026-11-01T12:00:00.000Z');
export const ITEM: ItemRef = {
  id: 'cs2-ak-47-redline-field-tested',
  marketHashName: 'AK-47 | Redline (Field-Tested)',
};

/** `[price, quantity, orders]`; orders defaults to 1 (a counted order book). */
export type LevelSpec = [price: number, quantity?: number, orders?: number | null];

export interface SideOptions {
  /** Age of the quote at NOW (default 60 s). */
  ageMs?: number;
  listingCount?: number | null;
  ingestLatencyMs?: number;
}

export function side(
  market: MarketId,
  kind: Side,
  levels: readonly LevelSpec[],
  options: SideOptions = {},
): SideSnapshot {
  const built: Level[] = levels.map(([price, quantity = 1, orders = 1]) => ({
    price,
    quantity,
    orders,
  }));
  const fetchedAt = NOW - (options.ageMs ?? 60_000);
  const totalQuantity = built.reduce((sum, level) => sum + level.quantity, 0);
  return {
    game: 'cs2',
    itemId: ITEM.id,
    market,
    side: kind,
    levels: built,
    listingCount: options.listingCount === undefined ? totalQuantity : options.listingCount,
    totalQuantity,
    fetchedAt,
    ingestedAt: fetchedAt + (options.ingestLatencyMs ?? 250),
    sourceUpdatedAt: null,
    sourceTimeKind: null,
    originalCurrency: 'USD',
  };
}

export const ask = (market: MarketId, levels: readonly LevelSpec[], options?: SideOptions) =>
  side(market, 'ask', levels, options);
export const bid = (market: MarketId, levels: readonly LevelSpec[], options?: SideOptions) =>
  side(market, 'bid', levels, options);

/** Groups side snapshots into the book's per-market shape. */
export function book(...sides: SideSnapshot[]): MarketSides[] {
  const byMarket = new Map<MarketId, MarketSides>();
  for (const entry of sides) {
    const current = byMarket.get(entry.market) ?? { market: entry.market, ask: null, bid: null };
    current[entry.side] = entry;
    byMarket.set(entry.market, current);
  }
  return [...byMarket.values()];
}

/** A fee model with every fee 0 and every number known; wallet credit stays non-cash. */
export function zeroFeeModel(version = 'test-zero'): FeeModel {
  const markets = {} as Record<MarketId, MarketFees>;
  const known = { source: 'test', assumed: false };
  for (const id of MARKET_IDS) {
    markets[id] = {
      sellerFeeBps: 0,
      buyerFeeBps: 0,
      withdrawalFlatCents: 0,
      cashWithdrawable: id !== WALLET_MARKET_ID,
      sources: {
        sellerFeeBps: known,
        buyerFeeBps: known,
        withdrawalFlatCents: known,
        cashWithdrawable: known,
      },
    };
  }
  return { version, markets };
}

/** `base` with some markets' fees replaced (sources stay known). */
export function withFees(
  base: FeeModel,
  changes: Partial<Record<MarketId, Partial<Omit<MarketFees, 'sources'>>>>,
): FeeModel {
  const markets = { ...base.markets };
  for (const [id, change] of Object.entries(changes) as [MarketId, Partial<MarketFees>][]) {
    markets[id] = { ...markets[id], ...change };
  }
  return { version: base.version, markets };
}
