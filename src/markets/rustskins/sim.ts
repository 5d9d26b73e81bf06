/** RustSkins simulated: the marketplace data export, one row per listed item. */
import type { SimMarket } from '../sim/sim-market.ts';
import { BULK_LIST, decimalString, plannedRequest } from '../sim/wire.ts';
import { connector } from './connector.ts';

export const sim: SimMarket = {
  profile: {
    ...BULK_LIST,
    askLevel: 0.97,
    coverage: 0.6,
    salesShare: 0,
    outagesPerDay: 0.5,
    latencyMs: 1200,
  },
  pages: (snapshot) => {
    const body = snapshot.rows.map(({ item, quote }) => ({
      item: item.name,
      count: quote.listingCount,
      price: decimalString(quote.ask[0]!.price, snapshot.scale),
    }));
    return [{ request: plannedRequest(connector, snapshot.game, 'marketplace_data'), body }];
  },
};
