/**
 * Waxpeer simulated: `/v1/prices` (lowest price and count, highest buy offer, thousandths of
 * a dollar; a Doppler phase spliced into the name) for every listed item, and the keyed
 * `mass-info` (single listings with float and paint index, the buy orders) of the depth slice.
 */
import type { SimListing } from '../sim/listings.ts';
import type { SimMarket, SimPage, SimSnapshot } from '../sim/sim-market.ts';
import { batches, listingsBySteamName, plannedRequest } from '../sim/wire.ts';
import { connector } from './connector.ts';

const NAMES_PER_REQUEST = 50;

function listing(entry: SimListing, name: string) {
  return {
    item_id: entry.id,
    name,
    price: entry.price,
    float: entry.floatValue,
    paint_index: entry.paintIndex,
  };
}

/** The keyed mass-info of some Steam names: their listings (phases included) and buy orders. */
function massInfo(
  names: string[],
  snapshot: SimSnapshot,
  listings: Map<string, SimListing[]>,
): SimPage {
  const rows = new Map(snapshot.rows.map((row) => [row.item.name, row]));
  const data: Record<string, unknown> = {};
  for (const name of names) {
    data[name] = {
      listings: (listings.get(name) ?? []).map((entry) => listing(entry, name)),
      orders: (rows.get(name)?.quote.bid ?? []).map((level) => ({
        price: level.price,
        amount: level.quantity,
      })),
    };
  }
  const request = plannedRequest(connector, snapshot.game, 'mass_info', names);
  return { request, body: { success: true, data } };
}

export const sim: SimMarket = {
  profile: {
    askLevel: 0.98,
    bidLevel: 0.89,
    coverage: 0.8,
    salesShare: 0,
    ladder: false,
    listingCounts: true,
    countsOrders: false,
    cacheMs: 0,
    quotesPhases: true,
    sourceTime: null,
    singleSales: false,
    statsWindowMs: 0,
    outagesPerDay: 1,
    latencyMs: 800,
  },
  pages: (snapshot) => {
    const items = snapshot.rows.map(({ item, quote }) => {
      const min = quote.ask[0]!.price;
      const offer = quote.bid?.[0]?.price ?? 0;
      return {
        name: item.name,
        count: quote.listingCount,
        min,
        steam_price: Math.round(min * 1.2),
        highest_offer: offer,
      };
    });
    const prices = {
      request: plannedRequest(connector, snapshot.game, 'prices'),
      body: { success: true, items },
    };
    const listings = listingsBySteamName(snapshot.rows);
    const pages = batches([...listings.keys()], NAMES_PER_REQUEST).map((names) =>
      massInfo(names, snapshot, listings),
    );
    return [prices, ...pages];
  },
};
