/**
 * CS.Deals simulated: the lowest prices of every listed item (no listing counts; a Doppler
 * phase in a `phase` field beside the Steam name), and the window's sales of the items that
 * sold, asked for in batches as the connector asks for the most wanted.
 */
import type { Game } from '../../domain/games.ts';
import type { SimMarket, SimPage, SimRow } from '../sim/sim-market.ts';
import {
  BULK_LIST,
  batches,
  decimalString,
  plannedRequest,
  steamNameAndPhase,
  unixSeconds,
} from '../sim/wire.ts';
import { connector } from './connector.ts';

const SALES_BATCH = 50;
const APP_ID: Readonly<Record<Game, number>> = { cs2: 730, rust: 252490 };

function named(row: SimRow, field: string): Record<string, string> {
  const { name, phase } = steamNameAndPhase(row);
  return phase === null ? { [field]: name } : { [field]: name, phase };
}

/** One price-list row, its fields written out: a spread per row cost more than the rest. */
function lowestPriceRow(row: SimRow, scale: number): Record<string, string> {
  const { name, phase } = steamNameAndPhase(row);
  const lowest = decimalString(row.quote.ask[0]!.price, scale);
  return phase === null
    ? { marketname: name, lowest_price: lowest }
    : { marketname: name, phase, lowest_price: lowest };
}

function salesPage(rows: SimRow[], game: Game, scale: number): SimPage {
  const names = rows.map((row) => row.item.name);
  const response = rows.map((row) => ({
    ...named(row, 'name'),
    appid: APP_ID[game],
    sales: row.sales.map((sale) => ({
      time: unixSeconds(sale.soldAt),
      price: decimalString(sale.price, scale),
    })),
  }));
  const request = plannedRequest(connector, game, 'sales_history', names);
  return { request, body: { success: true, response } };
}

export const sim: SimMarket = {
  profile: {
    ...BULK_LIST,
    askLevel: 1.03,
    coverage: 0.7,
    salesShare: 0.1,
    listingCounts: false,
    quotesPhases: true,
    sourceTime: 'time_updated',
    singleSales: true,
    outagesPerDay: 1,
    latencyMs: 1500,
  },
  pages: (snapshot) => {
    const { game, scale } = snapshot;
    const items = snapshot.rows.map((row) => lowestPriceRow(row, scale));
    const response = { time_updated: unixSeconds(snapshot.dataTime), appid: APP_ID[game], items };
    const request = plannedRequest(connector, game, 'lowest_prices');
    const pages: SimPage[] = [{ request, body: { success: true, response } }];
    const sold = snapshot.rows.filter((row) => row.sales.length > 0);
    for (const batch of batches(sold, SALES_BATCH)) pages.push(salesPage(batch, game, scale));
    return pages;
  },
};
