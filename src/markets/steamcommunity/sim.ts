/**
 * Steam simulated: for every listed item the order-book histogram (cumulative ask and bid
 * graphs in dollars, the sides' totals), as if the poll budget covered the whole catalog (live
 * asks the most wanted items and walks the bulk search for the rest); and the price overview
 * (24 h volume and median) of every item that sold in the last 24 hours.
 */
import { DAY } from '../../domain/clock.ts';
import type { RawLevel } from '../../domain/observation.ts';
import type { NativeSale, SimMarket, SimPage, SimRow, SimSnapshot } from '../sim/sim-market.ts';
import { decimalNumber, decimalString } from '../sim/wire.ts';
import { histogramRequest, priceOverviewRequest } from './plan.ts';

function graph(levels: readonly RawLevel[], scale: number): [number, number, string][] {
  let total = 0;
  return levels.map((level) => {
    total += level.quantity;
    return [decimalNumber(level.price, scale), total, ''];
  });
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
  const nameId = String(row.item.key % 1_000_000_000);
  return { request: histogramRequest(snapshot.game, row.item.name, nameId), body };
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
  const prices = row.sales.flatMap((sale: NativeSale) =>
    Array<number>(sale.quantity).fill(sale.price),
  );
  prices.sort((a, b) => a - b);
  const body = {
    success: true,
    lowest_price: usdText(row.quote.ask[0]!.price),
    volume: withCommas(prices.length),
    median_price: usdText(prices[Math.floor((prices.length - 1) / 2)]!),
  };
  return { request: priceOverviewRequest(snapshot.game, row.item.name), body };
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
  pages: (snapshot) => [
    ...snapshot.rows.map((row) => histogram(row, snapshot)),
    ...snapshot.rows.filter((row) => row.sales.length > 0).map((row) => overview(row, snapshot)),
  ],
};
