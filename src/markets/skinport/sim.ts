/**
 * Skinport simulated: `/v1/items` (lowest price and quantity of every listed item, EUR
 * decimals, cached 5 minutes) and `/v1/sales/history`, whose `last_24_hours` statistics
 * summarise the simulated sales of the 24 hours before the data time (the longer windows are
 * left out).
 */
import { DAY, MINUTE } from '../../domain/clock.ts';
import type { NativeSale, SimMarket, SimPage, SimSnapshot } from '../sim/sim-market.ts';
import { BULK_LIST, decimalNumber, plannedRequest, unitPrices, unixSeconds } from '../sim/wire.ts';
import { connector } from './connector.ts';

function stats(sales: readonly NativeSale[], scale: number) {
  const prices = unitPrices(sales);
  let total = 0;
  for (const price of prices) total += price;
  const middle = prices[Math.floor((prices.length - 1) / 2)]!;
  const major = (units: number) => decimalNumber(units, scale);
  return {
    min: major(prices[0]!),
    max: major(prices.at(-1)!),
    avg: major(Math.round(total / prices.length)),
    median: major(middle),
    volume: prices.length,
  };
}

function salesHistory(snapshot: SimSnapshot): SimPage {
  const body = snapshot.rows
    .filter((row) => row.sales.length > 0)
    .map(({ item, sales }) => ({
      market_hash_name: item.name,
      version: null,
      currency: snapshot.currency,
      last_24_hours: stats(sales, snapshot.scale),
    }));
  return { request: plannedRequest(connector, snapshot.game, 'sales_history'), body };
}

export const sim: SimMarket = {
  profile: {
    ...BULK_LIST,
    askLevel: 0.98,
    coverage: 0.85,
    salesShare: 0.3,
    cacheMs: 5 * MINUTE,
    sourceTime: 'updated_at',
    statsWindowMs: DAY,
    outagesPerDay: 1,
    latencyMs: 1800,
  },
  pages: (snapshot) => {
    const { currency, scale } = snapshot;
    const body = snapshot.rows.map(({ item, quote }) => {
      const min = quote.ask[0]!.price;
      return {
        market_hash_name: item.name,
        currency,
        suggested_price: decimalNumber(Math.round(min * 1.12), scale),
        min_price: decimalNumber(min, scale),
        max_price: decimalNumber(Math.round(min * 2.4), scale),
        mean_price: decimalNumber(Math.round(min * 1.31), scale),
        median_price: decimalNumber(Math.round(min * 1.14), scale),
        quantity: quote.listingCount,
        updated_at: unixSeconds(snapshot.dataTime),
      };
    });
    const items = { request: plannedRequest(connector, snapshot.game, 'items'), body };
    return [items, salesHistory(snapshot)];
  },
};
