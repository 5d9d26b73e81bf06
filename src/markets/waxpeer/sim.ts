/**
 * Waxpeer simulated: `/v1/prices` (lowest price and count, highest buy offer, thousandths of
 * a dollar; a Doppler phase spliced into the name) for every listed item, and the keyed
 * `mass-info` (single listings with float and paint index, the buy orders) of the depth slice.
 */
import type { SimListing } from '../sim/listings.ts';
import type { SimMarket, SimPage, SimRow, SimSnapshot } from '../sim/sim-market.ts';
import { batches, plannedRequest } from '../sim/wire.ts';
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

function massInfo(rows: SimRow[], snapshot: SimSnapshot): SimPage {
  const data: Record<string, unknown> = {};
  for (const { item, quote, listings } of rows) {
    data[item.name] = {
      listings: (listings ?? []).map((entry) => listing(entry, item.name)),
      orders: (quote.bid ?? []).map((level) => ({ price: level.price, amount: level.quantity })),
    };
  }
  const names = rows.map((row) => row.item.name);
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
    depthOnly: false,
    singleSales: false,
    saleQuantities: false,
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
    const deep = snapshot.rows.filter(
      (row) => row.listings !== null && row.item.item.variantOf === undefined,
    );
    return [prices, ...batches(deep, NAMES_PER_REQUEST).map((rows) => massInfo(rows, snapshot))];
  },
};
