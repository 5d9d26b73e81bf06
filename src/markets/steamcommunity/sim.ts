/**
 * Steam simulated: for every listed item the order-book histogram (cumulative ask and bid
 * graphs in dollars, the sides' totals), as if the poll budget covered the whole catalog (live
 * asks the most wanted items and walks the bulk search for the rest); and the price overview
 * (24 h volume and median) of every item that sold in the last 24 hours.
 */
import { DAY } from '../../domain/clock.ts';
import type { RawLevel } from '../../domain/observation.ts';
import type { Game } from '../../domain/games.ts';
import type { ConnectorRequest } from '../connector.ts';
import type { SimItem } from '../sim/items.ts';
import type { SimMarket, SimPage, SimRow, SimSnapshot } from '../sim/sim-market.ts';
import { decimalNumber, decimalString, unitPrices } from '../sim/wire.ts';
import { histogramRequest, priceOverviewRequest } from './plan.ts';

function graph(levels: readonly RawLevel[], scale: number): [number, number, string][] {
  let total = 0;
  return levels.map((level) => {
    total += level.quantity;
    return [decimalNumber(level.price, scale), total, ''];
  });
}

const REQUESTS = new WeakMap<
  SimItem,
  { histogram: ConnectorRequest; overview: ConnectorRequest }
>();

/** The item's two requests, the same every poll: built once per item. */
function requestsOf(item: SimItem, game: Game) {
  let requests = REQUESTS.get(item);
  if (!requests) {
    const nameId = String(item.key % 1_000_000_000);
    requests = {
      histogram: histogramRequest(game, item.name, nameId),
      overview: priceOverviewRequest(game, item.name),
    };
    REQUESTS.set(item, requests);
  }
  return requests;
}

function histogram(row: SimRow, snapshot: SimSnapshot): SimPage {
  const { ask, bid, listingCount, orderCount } = row.quote;
  const bids = bid ?? [];
  const body = {
    success: 1,
    sell_order_count: listingCount,
    buy_order_count: orderCount ?? 0,
    lowest_sell_order: ask[0] ? String(ask[0].price) : null,
    highest_buy_order: bids[0] ? String(bids[0].price) : null,
    sell_order_graph: graph(ask, snapshot.scale),
    buy_order_graph: graph(bids, snapshot.scale),
    price_prefix: '$',
    price_suffix: '',
  };
  return { request: requestsOf(row.item, snapshot.game).histogram, body };
}

/** 1234567 as Steam writes it: "1,234,567". */
function withCommas(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}

function usdText(cents: number): string {
  const [whole, fraction = ''] = decimalString(cents, 100).split('.');
  return `$${withCommas(Number(whole))}.${fraction.padEnd(2, '0')}`;
}

function overview(row: SimRow, snapshot: SimSnapshot): SimPage {
  const prices = unitPrices(row.sales);
  const body = {
    success: true,
    lowest_price: usdText(row.quote.ask[0]!.price),
    volume: withCommas(prices.length),
    median_price: usdText(prices[Math.floor((prices.length - 1) / 2)]!),
  };
  return { request: requestsOf(row.item, snapshot.game).overview, body };
}

export const sim: SimMarket = {
  profile: {
    askLevel: 1.17,
    bidLevel: 0.93,
    coverage: 1,
    salesShare: 1,
    ladder: true,
    listingCounts: true,
    countsOrders: false,
    cacheMs: 0,
    quotesPhases: false,
    sourceTime: null,
    singleSales: false,
    statsWindowMs: DAY,
    outagesPerDay: 2,
    latencyMs: 2500,
  },
  pages: (snapshot) => {
    const pages = snapshot.rows.map((row) => histogram(row, snapshot));
    for (const row of snapshot.rows) if (row.sales.length > 0) pages.push(overview(row, snapshot));
    return pages;
  },
};
