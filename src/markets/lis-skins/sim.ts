/** LIS-SKINS simulated: the whole export, one row per listed item, priced tradable now. */
import { MINUTE } from '../../domain/clock.ts';
import type { SimMarket } from '../sim/sim-market.ts';
import { BULK_LIST, decimalNumber, plannedRequest } from '../sim/wire.ts';
import { connector } from './connector.ts';

export const sim: SimMarket = {
  profile: {
    ...BULK_LIST,
    askLevel: 0.95,
    coverage: 0.75,
    salesShare: 0,
    cacheMs: 10 * MINUTE,
    outagesPerDay: 0.5,
    latencyMs: 3000,
  },
  pages: (snapshot) => {
    const body = snapshot.rows.map(({ item, quote }) => {
      const price = decimalNumber(quote.ask[0]!.price, snapshot.scale);
      return { name: item.name, price, unlocked_price: price, count: quote.listingCount };
    });
    return [{ request: plannedRequest(connector, snapshot.game, 'export'), body }];
  },
};
