/**
 * White.market simulated: the price export, one row per listed Steam name with its listing
 * count and, where the simulator lists single items (the depth slice), the cheapest one's
 * asset id, float, seed and paint index.
 */
import { MINUTE } from '../../domain/clock.ts';
import type { SimListing } from '../sim/listings.ts';
import type { SimMarket } from '../sim/sim-market.ts';
import { BULK_LIST, decimalString, plannedRequest } from '../sim/wire.ts';
import { connector } from './connector.ts';

function cheapest(listing: SimListing | undefined): Record<string, unknown> {
  if (!listing) return { cheapest_asset_id: null };
  return {
    cheapest_asset_id: listing.id,
    cheapest_float: listing.floatValue === null ? null : String(listing.floatValue),
    paint_index: listing.paintIndex,
    paint_seed: listing.paintSeed,
    inspect_link: listing.inspectLink,
  };
}

export const sim: SimMarket = {
  profile: {
    ...BULK_LIST,
    askLevel: 0.96,
    coverage: 0.6,
    salesShare: 0,
    cacheMs: 10 * MINUTE,
    outagesPerDay: 0.5,
    latencyMs: 1000,
  },
  pages: (snapshot) => {
    const body = snapshot.rows.map(({ item, quote, listings }) => ({
      market_hash_name: item.name,
      price: decimalString(quote.ask[0]!.price, snapshot.scale),
      market_product_count: quote.listingCount,
      ...cheapest(listings?.[0]),
    }));
    return [{ request: plannedRequest(connector, snapshot.game, 'prices'), body }];
  },
};
