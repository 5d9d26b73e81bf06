/**
 * CS.TRADE simulated: the bots' price list keyed by item name, with the base prices, the
 * cheapest unit's cash price and the stock.
 */
import type { SimMarket } from '../sim/sim-market.ts';
import { BULK_LIST, decimalNumber, plannedRequest } from '../sim/wire.ts';
import { connector } from './connector.ts';

export const sim: SimMarket = {
  profile: {
    ...BULK_LIST,
    askLevel: 1.08,
    coverage: 0.55,
    salesShare: 0,
    outagesPerDay: 1,
    latencyMs: 1500,
  },
  pages: (snapshot) => {
    const body: Record<string, unknown> = {};
    for (const { item, quote } of snapshot.rows) {
      const cheapest = quote.ask[0]!.price;
      const base = (share: number) =>
        decimalNumber(Math.max(1, Math.round(cheapest * share)), snapshot.scale);
      body[item.name] = {
        price: base(0.86),
        store_price: base(0.92),
        have: quote.listingCount,
        available_lowest_price: base(0.93),
        available_lowest_store_price: decimalNumber(cheapest, snapshot.scale),
        available_stock: quote.listingCount,
      };
    }
    return [{ request: plannedRequest(connector, snapshot.game, 'prices'), body }];
  },
};
