/** LOOT.FARM simulated: the bots' full price list, integer cents and stock per item. */
import type { SimMarket } from '../sim/sim-market.ts';
import { BULK_LIST, plannedRequest } from '../sim/wire.ts';
import { connector } from './connector.ts';

export const sim: SimMarket = {
  profile: {
    ...BULK_LIST,
    askLevel: 1.07,
    coverage: 0.55,
    salesShare: 0,
    quotesPhases: true,
    outagesPerDay: 1,
    latencyMs: 1500,
  },
  pages: (snapshot) => {
    const body = snapshot.rows.map(({ item, quote }) => ({
      name: item.name,
      price: quote.ask[0]!.price,
      have: quote.listingCount,
    }));
    return [{ request: plannedRequest(connector, snapshot.game, 'price_list'), body }];
  },
};
