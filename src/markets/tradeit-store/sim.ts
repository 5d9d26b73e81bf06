/**
 * Tradeit.gg simulated: the bots' inventory as one page (live pages through it), one item
 * group per listed item whose stock is the listing count; the store view prices in
 * `storePrice`, the trade view in `price` (integer cents).
 */
import type { SimMarket, SimProfile } from '../sim/sim-market.ts';
import { BULK_LIST, plannedRequest } from '../sim/wire.ts';
import type { Connector } from '../connector.ts';
import { connector } from './connector.ts';

export function inventorySim(
  of: Connector,
  field: 'storePrice' | 'price',
  askLevel: number,
): SimMarket {
  const profile: SimProfile = {
    ...BULK_LIST,
    askLevel,
    coverage: 0.6,
    salesShare: 0,
    outagesPerDay: 1,
    latencyMs: 1500,
  };
  return {
    profile,
    pages: (snapshot) => {
      const counts: Record<string, number> = {};
      const items = snapshot.rows.map(({ item, quote }, index) => {
        counts[String(index + 1)] = quote.listingCount;
        return { id: item.key, groupId: index + 1, name: item.name, [field]: quote.ask[0]!.price };
      });
      const request = plannedRequest(of, snapshot.game, 'inventory');
      return [{ request, body: { items, counts } }];
    },
  };
}

export const sim = inventorySim(connector, 'storePrice', 1.04);
