/**
 * Buff163 simulated: the goods list (lowest ask and highest bid with their counts, CNY strings)
 * as one page of every listed item, and for the depth slice the per-goods sell orders (single
 * listings with float, seed, paint index and stickers) and buy orders, and for every item that
 * sold its bill orders (one trade each). The real goods list has one row per Steam name; the
 * simulated one also has a row per Doppler phase, as the phase listings price them.
 */
import type { SimListing } from '../sim/listings.ts';
import type { SimMarket, SimPage, SimRow, SimSnapshot } from '../sim/sim-market.ts';
import { hashString } from '../sim/random.ts';
import {
  decimalString,
  listingsBySteamName,
  plannedRequest,
  steamNameAndPhase,
  unixSeconds,
} from '../sim/wire.ts';
import type { ConnectorRequest } from '../connector.ts';
import { connector } from './connector.ts';
import { detailRequests } from './plan.ts';

const NO_HEADERS = {};

/** One goods id per Steam name (a Doppler's phases are one goods on Buff). */
function goodsId(name: string): number {
  return 1 + (hashString(name) % 999_999);
}

function envelope(data: Record<string, unknown>) {
  return { code: 'OK', msg: null, data };
}

function goodsPage(snapshot: SimSnapshot): SimPage {
  const cny = (units: number) => decimalString(units, snapshot.scale);
  const items = snapshot.rows.map((row) => {
    const { ask, bid, listingCount, orderCount } = row.quote;
    const best = bid?.[0];
    return {
      id: goodsId(steamNameAndPhase(row).name),
      market_hash_name: row.item.name,
      sell_min_price: cny(ask[0]!.price),
      buy_max_price: best ? cny(best.price) : '0',
      sell_num: listingCount,
      buy_num: best ? (orderCount ?? 0) : 0,
    };
  });
  const page = { page_num: 1, page_size: items.length, total_page: 1, total_count: items.length };
  return {
    request: plannedRequest(connector, snapshot.game, 'goods'),
    body: envelope({ ...page, items }),
  };
}

function sellListing(entry: SimListing, scale: number) {
  return {
    id: entry.id,
    price: decimalString(entry.price, scale),
    asset_info: {
      paintwear: entry.floatValue === null ? '' : String(entry.floatValue),
      action_link: entry.inspectLink,
      info: {
        paintseed: entry.paintSeed,
        paintindex: entry.paintIndex,
        stickers: entry.stickers.map((name) => ({ name })),
      },
    },
  };
}

function requestsOf(snapshot: SimSnapshot, name: string, listed: number): ConnectorRequest[] {
  return detailRequests(snapshot.game, [goodsId(name), name, 0, listed], NO_HEADERS);
}

function goodsInfos(name: string) {
  const id = goodsId(name);
  return { goods_infos: { [id]: { goods_id: id, market_hash_name: name } } };
}

/** Per Steam name, its sell orders: the listings of the item and of its Doppler phases. */
function sellOrderPages(snapshot: SimSnapshot): SimPage[] {
  const plain = new Map(snapshot.rows.map((row) => [row.item.name, row]));
  return [...listingsBySteamName(snapshot.rows)].map(([name, listings]) => {
    const listed = plain.get(name)?.quote.listingCount ?? listings.length;
    const items = listings.map((entry) => sellListing(entry, snapshot.scale));
    const body = envelope({ ...goodsInfos(name), total_count: listed, items });
    return { request: requestsOf(snapshot, name, listed)[0]!, body };
  });
}

function detailPages(row: SimRow, snapshot: SimSnapshot): SimPage[] {
  const { name, phase } = steamNameAndPhase(row);
  const requests = () => requestsOf(snapshot, name, row.quote.listingCount);
  const cny = (units: number) => decimalString(units, snapshot.scale);
  const pages: SimPage[] = [];
  if (row.listings !== null && phase === null) {
    const orders = (row.quote.bid ?? []).map((level) => ({
      price: cny(level.price),
      num: level.quantity,
      specific: [],
    }));
    pages.push({
      request: requests()[1]!,
      body: envelope({ total_count: row.quote.orderCount ?? 0, items: orders }),
    });
  }
  if (row.sales.length > 0) {
    const paintindex = row.item.paintIndex;
    const items = row.sales.map((sale) => ({
      price: cny(sale.price),
      transact_time: unixSeconds(sale.soldAt),
      asset_info: { info: { paintindex } },
    }));
    pages.push({ request: requests()[2]!, body: envelope({ ...goodsInfos(name), items }) });
  }
  return pages;
}

export const sim: SimMarket = {
  profile: {
    askLevel: 0.94,
    bidLevel: 0.9,
    coverage: 0.97,
    salesShare: 0.8,
    ladder: false,
    listingCounts: true,
    countsOrders: false,
    cacheMs: 0,
    quotesPhases: true,
    sourceTime: null,
    singleSales: true,
    statsWindowMs: 0,
    outagesPerDay: 2,
    latencyMs: 4000,
  },
  pages: (snapshot) => [
    goodsPage(snapshot),
    ...sellOrderPages(snapshot),
    ...snapshot.rows.flatMap((row) => detailPages(row, snapshot)),
  ],
};
