/**
 * Small helpers the markets' simulator writers share: native integer units as the decimal
 * strings and numbers upstreams send, unix seconds, the one-level side a bulk price list shows,
 * the request a connector's own plan makes for a response kind, and a Doppler variant's Steam
 * name and phase.
 */
import type { Game } from '../../domain/games.ts';
import type { RawLevel } from '../../domain/observation.ts';
import type { Connector, ConnectorRequest } from '../connector.ts';
import type { SimItem } from './items.ts';
import type { SimListing } from './listings.ts';
import type { NativeSale, SimRow } from './sim-market.ts';

/** `units / scale` as a decimal string without trailing zeros ("77.5", "74", "0.03"). */
export function decimalString(units: number, scale: number): string {
  const digits = Math.round(Math.log10(scale));
  const whole = Math.floor(units / scale);
  const fraction = String(units - whole * scale)
    .padStart(digits, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

/** `units / scale` as a JSON number (`decimalPrice` reads it back exactly). */
export function decimalNumber(units: number, scale: number): number {
  return units / scale;
}

export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** What a bulk list says of a side: its best price as one level of unknown size. */
export function topOf(levels: readonly RawLevel[]): RawLevel[] {
  const best = levels[0];
  return best ? [{ price: best.price, quantity: 1, orders: null }] : [];
}

const SIM_CREDENTIAL = 'simulated';

/**
 * The request of `kind` that the connector's own plan makes for `game` (credentials all set,
 * nothing remembered, `priorities` the most wanted items), so a simulated answer carries the
 * request live sends.
 */
export function plannedRequest(
  connector: Connector,
  game: Game,
  kind: string,
  priorities: readonly string[] = [],
): ConnectorRequest {
  const credentials = Object.fromEntries(
    connector.info.credentials.map((credential) => [credential.env, SIM_CREDENTIAL]),
  );
  const plan = connector.requests({ game, now: 0, credentials, priorities, memory: new Map() });
  const request = plan.find((entry) => entry.kind === kind);
  if (!request) throw new Error(`${connector.info.id}: no ${kind} request in a ${game} poll`);
  return request;
}

/** A Doppler variant's Steam name and phase label; the item's own name and null otherwise. */
export function steamNameAndPhase(row: { item: SimItem }): SimItem['steam'] {
  return row.item.steam;
}

/** Every sold unit's price, cheapest first (a sale of `quantity` units counts that often). */
export function unitPrices(sales: readonly NativeSale[]): Float64Array {
  let units = 0;
  for (const sale of sales) units += sale.quantity;
  const prices = new Float64Array(units);
  let at = 0;
  for (const sale of sales) {
    prices.fill(sale.price, at, at + sale.quantity);
    at += sale.quantity;
  }
  return prices.sort();
}

/** Splits `items` into runs of at most `size`. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    out.push(items.slice(start, start + size));
  return out;
}

/** A bulk price list's profile: best ask and listing count per item, nothing else. */
export const BULK_LIST = {
  listingCounts: true,
  bidLevel: null,
  ladder: false,
  countsOrders: false,
  cacheMs: 0,
  quotesPhases: false,
  sourceTime: null,
  singleSales: false,
  statsWindowMs: 0,
} as const;

/**
 * The single listings of the snapshot by the Steam name a market files them under: a Doppler
 * base item's and its phase variants' together, as one goods' listings (cheapest first).
 */
export function listingsBySteamName(rows: readonly SimRow[]): Map<string, SimListing[]> {
  const out = new Map<string, SimListing[]>();
  for (const row of rows) {
    if (row.listings === null) continue;
    const { name } = steamNameAndPhase(row);
    const listings = out.get(name);
    if (listings) listings.push(...row.listings);
    else out.set(name, [...row.listings]);
  }
  for (const listings of out.values()) listings.sort((a, b) => a.price - b.price);
  return out;
}
