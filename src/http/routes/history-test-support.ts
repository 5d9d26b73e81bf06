/** Fixtures for the history and market-analytics route tests: a harness with a SQLite history. */
import { DAY } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { side } from '../../pricing/snapshot-fixtures.ts';
import { createSqlitePriceStore } from '../../store/sqlite/sqlite-price-store.ts';
import { buildHarness, T0 } from '../test-support.ts';

export const REDLINE = 'AK-47 | Redline (Field-Tested)';
export const ITEM_ID = 'cs2-redline-ft';

export async function historyHarness() {
  const store = createSqlitePriceStore({ path: ':memory:' });
  await store.init();
  const harness = await buildHarness({ history: store });
  const write = (sides: SideSnapshot[], sales: SaleRecord[] = []) =>
    store.writeBatch({ sides, sales, listings: [] });
  return { ...harness, store, write };
}

export function quote(
  kind: 'ask' | 'bid',
  market: MarketId,
  price: number,
  at: number,
  size = 3,
): SideSnapshot {
  return side(kind, {
    market,
    prices: [price],
    fetchedAt: at,
    listingCount: size,
    quantity: size + 1,
    itemId: ITEM_ID,
  });
}

export function sold(market: MarketId, price: number, at: number, quantity = 1): SaleRecord {
  return {
    game: 'cs2',
    itemId: ITEM_ID,
    market,
    price,
    quantity,
    soldAt: at,
    ingestedAt: at,
    originalCurrency: 'USD',
  };
}

export const historyPath = (query = '', form: 'history' | 'history/markets' = 'history') =>
  `/v1/pricing/${encodeURIComponent(REDLINE)}/${form}${query ? `?${query}` : ''}`;

export const isoAt = (ms: number) => new Date(ms).toISOString();

/** The harness clock's day start. */
export const DAY0 = Math.floor(T0 / DAY) * DAY;
