/**
 * DMarket simulated: aggregated prices (best offer and best order with their counts, integer
 * cents) of every listed item, a hundred titles a request; the offers (single listings with
 * float, seed and phase) of the depth slice and the last sales of every item that sold. The
 * real aggregated prices are per Steam title; the simulated ones also carry each Doppler phase.
 */
import type { SimListing } from '../sim/listings.ts';
import type { SimMarket, SimPage, SimRow, SimSnapshot } from '../sim/sim-market.ts';
import {
  batches,
  decimalString,
  listingsBySteamName,
  steamNameAndPhase,
  unixSeconds,
} from '../sim/wire.ts';
import { aggregatedRequest, lastSalesRequest, offersRequest, TITLES_PER_REQUEST } from './plan.ts';

function money(units: number | undefined) {
  return { Currency: 'USD', Amount: String(units ?? 0) };
}

function aggregated(rows: SimRow[], snapshot: SimSnapshot): SimPage {
  const titles = rows.map((row) => row.item.name);
  const aggregatedPrices = rows.map(({ item, quote }) => {
    const bid = quote.bid?.[0];
    return {
      title: item.name,
      offerBestPrice: money(quote.ask[0]!.price),
      offerCount: String(quote.listingCount),
      orderBestPrice: money(bid?.price),
      orderCount: String(bid ? (quote.orderCount ?? 0) : 0),
    };
  });
  const request = aggregatedRequest(snapshot.game, titles, '', 1);
  return { request, body: { aggregatedPrices, nextCursor: '' } };
}

function offer(entry: SimListing, title: string) {
  const cs2Attributes = {
    floatValue: entry.floatValue,
    paintSeed: entry.paintSeed,
    paintIndex: entry.paintIndex,
    stickers: entry.stickers.map((name) => ({ name })),
  };
  return {
    offerId: entry.id,
    priceCents: entry.price,
    locked: false,
    attributes: { title, cs2Attributes },
  };
}

/** Per Steam title, its cheapest offers: the item's and its Doppler phases'. */
function offerPages(snapshot: SimSnapshot): SimPage[] {
  return [...listingsBySteamName(snapshot.rows)].map(([name, listings]) => ({
    request: offersRequest(snapshot.game, name),
    body: { items: listings.map((entry) => offer(entry, name)) },
  }));
}

function salesPages(row: SimRow, snapshot: SimSnapshot): SimPage[] {
  const { name, phase } = steamNameAndPhase(row);
  const pages: SimPage[] = [];
  if (row.sales.length > 0) {
    const sales = row.sales.map((sale) => ({
      price: decimalString(sale.price, snapshot.scale),
      date: String(unixSeconds(sale.soldAt)),
      offerAttributes: phase === null ? {} : { phase },
    }));
    pages.push({ request: lastSalesRequest(snapshot.game, name), body: { sales } });
  }
  return pages;
}

export const sim: SimMarket = {
  profile: {
    askLevel: 1.0,
    bidLevel: 0.9,
    coverage: 0.85,
    salesShare: 0.25,
    ladder: false,
    listingCounts: true,
    countsOrders: false,
    cacheMs: 0,
    quotesPhases: true,
    sourceTime: null,
    singleSales: true,
    statsWindowMs: 0,
    outagesPerDay: 1.5,
    latencyMs: 900,
  },
  pages: (snapshot) => [
    ...batches(snapshot.rows, TITLES_PER_REQUEST).map((rows) => aggregated(rows, snapshot)),
    ...offerPages(snapshot),
    ...snapshot.rows.flatMap((row) => salesPages(row, snapshot)),
  ],
};
