/**
 * CSFloat simulated: the price list (lowest price and count per Steam name) and the Doppler
 * price list (per paint index) of every listed item; as the keyed per-item reads, the cheapest
 * listings (float, seed, paint index, stickers) of the depth slice, the buy orders of every item
 * (read from its cheapest listing; a Doppler phase's under its phase name, which the real API
 * does not do) and the sold listings of every item that sold.
 */
import type { SimItem } from '../sim/items.ts';
import type { SimListing } from '../sim/listings.ts';
import type { SimMarket, SimPage, SimRow, SimSnapshot } from '../sim/sim-market.ts';
import { listingsBySteamName, plannedRequest, steamNameAndPhase } from '../sim/wire.ts';
import type { ConnectorRequest } from '../connector.ts';
import { connector } from './connector.ts';
import { buyOrdersRequest } from './shared.ts';

function listedItem(entry: SimListing, name: string) {
  return {
    market_hash_name: name,
    paint_index: entry.paintIndex,
    paint_seed: entry.paintSeed,
    float_value: entry.floatValue,
    inspect_link: entry.inspectLink,
    stickers: entry.stickers.map((sticker) => ({ name: sticker })),
  };
}

function priceLists(snapshot: SimSnapshot): SimPage[] {
  const plain = [];
  const dopplers = [];
  for (const row of snapshot.rows) {
    const { name, phase } = steamNameAndPhase(row);
    const entry = {
      market_hash_name: name,
      qty: row.quote.listingCount,
      min_price: row.quote.ask[0]!.price,
    };
    if (phase === null) plain.push(entry);
    else dopplers.push({ ...entry, paint_index: row.item.paintIndex, phase_name: phase });
  }
  return [
    { request: plannedRequest(connector, snapshot.game, 'price_list'), body: plain },
    {
      request: plannedRequest(connector, snapshot.game, 'doppler_price_list'),
      body: { data: dopplers },
    },
  ];
}

/** Per Steam name, its cheapest listings: the item's and its Doppler phases'. */
function listingPages(snapshot: SimSnapshot): SimPage[] {
  return [...listingsBySteamName(snapshot.rows)].map(([name, listings]) => ({
    request: plannedRequest(connector, snapshot.game, 'listings', [name]),
    body: listings.map((entry) => ({
      id: entry.id,
      type: 'buy_now',
      state: 'listed',
      price: entry.price,
      item: listedItem(entry, name),
    })),
  }));
}

const BUY_ORDERS_REQUESTS = new WeakMap<SimItem, ConnectorRequest>();

/** The item's buy-orders read, the same every poll (`listings` is): built once per item. */
function buyOrdersRequestOf(item: SimItem, listings: ConnectorRequest): ConnectorRequest {
  let request = BUY_ORDERS_REQUESTS.get(item);
  if (!request) {
    request = buyOrdersRequest(listings, `${item.key}`, item.name);
    BUY_ORDERS_REQUESTS.set(item, request);
  }
  return request;
}

/** `listings`: a keyed listings request, whose credential the buy-orders read carries. */
function itemPages(row: SimRow, snapshot: SimSnapshot, listings: ConnectorRequest): SimPage[] {
  const { name, phase } = steamNameAndPhase(row);
  const pages: SimPage[] = [];
  if (row.quote.bid !== null) {
    const item = row.item.name;
    const request = buyOrdersRequestOf(row.item, listings);
    const body = row.quote.bid.map((level) => ({
      market_hash_name: item,
      price: level.price,
      qty: level.quantity,
    }));
    pages.push({ request, body });
  }
  if (row.sales.length > 0) {
    const request = plannedRequest(connector, snapshot.game, 'sales', [name]);
    const body = row.sales.map((sale, index) => ({
      id: `${row.item.key}-${sale.soldAt}-${index}`,
      price: sale.price,
      state: 'sold',
      sold_at: new Date(sale.soldAt).toISOString(),
      item: {
        market_hash_name: name,
        ...(phase === null ? {} : { paint_index: row.item.paintIndex, phase }),
      },
    }));
    pages.push({ request, body });
  }
  return pages;
}

function itemsPages(snapshot: SimSnapshot): SimPage[] {
  const listings = plannedRequest(connector, snapshot.game, 'listings', ['listings']);
  return snapshot.rows.flatMap((row) => itemPages(row, snapshot, listings));
}

export const sim: SimMarket = {
  profile: {
    askLevel: 0.98,
    bidLevel: 0.92,
    coverage: 0.8,
    salesShare: 0.3,
    ladder: false,
    listingCounts: true,
    countsOrders: false,
    cacheMs: 0,
    quotesPhases: true,
    sourceTime: null,
    singleSales: true,
    statsWindowMs: 0,
    outagesPerDay: 1,
    latencyMs: 700,
  },
  pages: (snapshot) => [
    ...priceLists(snapshot),
    ...listingPages(snapshot),
    ...itemsPages(snapshot),
  ],
};
