/**
 * Market.CSGO (and RUST.TM, the same API) simulated: the public price and buy-order exports
 * (best ask with listing count, best bid with order count, USD in thousandths) for every listed
 * item, and the keyed `get-list-items-info` sales of the items that sold, ten names a request as
 * the connector asks. The keyed bid/ask ladders are not simulated: the books are the exports'.
 */
import type { Connector } from '../connector.ts';
import type { SimMarket, SimPage, SimProfile, SimRow, SimSnapshot } from '../sim/sim-market.ts';
import { batches, decimalString, plannedRequest, topOf, unixSeconds } from '../sim/wire.ts';
import { connector } from './connector.ts';
import { TM_CURRENCY } from './parse-exports.ts';
import { KEYED_ITEMS_PER_POLL, keyedNames } from './tm-api.ts';

function exportPage(of: Connector, snapshot: SimSnapshot, kind: 'prices' | 'orders'): SimPage {
  const price = (units: number) => decimalString(units, snapshot.scale);
  const items = snapshot.rows.flatMap(({ item, quote }) => {
    const side = kind === 'prices' ? quote.ask : quote.bid;
    if (side === null) return [];
    const volume = kind === 'prices' ? quote.listingCount : (quote.orderCount ?? 0);
    const best = topOf(side)[0];
    return [{ market_hash_name: item.name, volume, price: best ? price(best.price) : '0' }];
  });
  const body = {
    success: true,
    time: unixSeconds(snapshot.dataTime),
    currency: TM_CURRENCY,
    items,
  };
  return { request: plannedRequest(of, snapshot.game, kind), body };
}

function salesPage(of: Connector, rows: SimRow[], snapshot: SimSnapshot): SimPage {
  const data: Record<string, unknown> = {};
  for (const { item, sales } of rows) {
    const history = sales.map((sale) => [
      unixSeconds(sale.soldAt),
      decimalString(sale.price, snapshot.scale),
    ]);
    data[item.name] = { history };
  }
  const names = rows.map((row) => row.item.name);
  const request = plannedRequest(of, snapshot.game, 'items_info', names);
  return { request, body: { success: true, currency: TM_CURRENCY, data } };
}

export function tmSim(of: Connector, profile: SimProfile): SimMarket {
  return {
    profile,
    pages: (snapshot) => {
      const sold = snapshot.rows.filter(
        (row) => row.sales.length > 0 && keyedNames([row.item.name]).length === 1,
      );
      return [
        exportPage(of, snapshot, 'prices'),
        exportPage(of, snapshot, 'orders'),
        ...batches(sold, KEYED_ITEMS_PER_POLL).map((rows) => salesPage(of, rows, snapshot)),
      ];
    },
  };
}

export const TM_PROFILE = {
  ladder: false,
  countsOrders: false,
  listingCounts: true,
  cacheMs: 0,
  sourceTime: 'generated_at',
  singleSales: true,
  statsWindowMs: 0,
} as const;

export const sim = tmSim(connector, {
  ...TM_PROFILE,
  askLevel: 0.99,
  bidLevel: 0.91,
  coverage: 0.9,
  salesShare: 0.3,
  quotesPhases: true,
  outagesPerDay: 1,
  latencyMs: 1200,
});
