/**
 * Mannco.store simulated: every listed item on one page of `/items/get` (live pages through
 * it), priced in integer cents in `pp`, with the number on sale.
 */
import type { SimMarket } from '../sim/sim-market.ts';
import { BULK_LIST, plannedRequest } from '../sim/wire.ts';
import { connector } from './connector.ts';

export const sim: SimMarket = {
  profile: {
    ...BULK_LIST,
    askLevel: 1.02,
    coverage: 0.5,
    salesShare: 0,
    outagesPerDay: 1,
    latencyMs: 2000,
  },
  pages: (snapshot) => {
    const body = snapshot.rows.map(({ item, quote }) => ({
      name: item.name,
      pp: quote.ask[0]!.price,
      nbb: quote.listingCount,
    }));
    return [{ request: plannedRequest(connector, snapshot.game, 'items'), body }];
  },
};
