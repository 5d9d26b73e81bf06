/** CS.TRADE simulated: the bots' price list, keyed by item name, with the store price and stock. */
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
      const store = quote.ask[0]!.price;
      body[item.name] = {
        price: decimalNumber(Math.max(1, Math.round(store * 0.93)), snapshot.scale),
        store_price: decimalNumber(store, snapshot.scale),
        have: quote.listingCount,
      };
    }
    return [{ request: plannedRequest(connector, snapshot.game, 'prices'), body }];
  },
};
