/**
 * Skinport (https://docs.skinport.com). Facts used:
 * - `GET https://api.skinport.com/v1/items?app_id=&currency=&tradable=` — no auth; one row per
 *   item name: `{market_hash_name, currency, suggested_price, item_page, market_page,
 *   min_price, max_price, mean_price, median_price, quantity, created_at, updated_at}`, prices
 *   as decimal numbers in `currency` (or null when nothing is listed), times in unix seconds
 *   (docs.skinport.com/items; SCMM `SCMM.Market.Skinport.Client/SkinportItem.cs`).
 * - `GET /v1/sales/history?app_id=&currency=` — no auth; per item name
 *   `last_24_hours | last_7_days | last_30_days | last_90_days: {min, max, avg, median, volume}`
 *   (docs.skinport.com/sales-history; `softwerk-org/csinvest-connector:
 *   src/connector/skinport/models/get_sales_history.py`). Window aggregates, not single sales.
 *   Rows carry `version`: `default` (or null) for the plain item, else the Doppler phase or gem
 *   (e.g. `Emerald`; csinvest `version: str | None`; `PaxxPatriot/skinport.py` test data has
 *   `"version": "Emerald"` on a Gamma Doppler), one row per phase: the phase is spliced
 *   into the name, and a version that does not read as a phase of a Doppler is refused.
 * - Limit "8 requests / 5 minutes" per endpoint, responses cached 5 minutes, and
 *   `Accept-Encoding: br` required (docs; SCMM `SkinportWebClient.cs`). Our one budget for the
 *   origin keeps both endpoints together under 8 per 5 minutes.
 * - Apps 730 (CS2) and 252490 (Rust); currencies include EUR and USD. We ask for EUR, the
 *   market's home currency, and convert with the day's reference rate.
 */
import { MINUTE } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { SalesWindow } from '../../domain/observation.ts';
import type { Connector, ConnectorRequest, PageResult, ParseContext } from '../connector.ts';
import {
  askRows,
  nameField,
  namedRows,
  observationBase,
  type AskRows,
} from '../formats/bulk-asks.ts';
import {
  ResultBuilder,
  fail,
  isRecord,
  malformedBody,
  readCount,
  readUnixSeconds,
  salesStatsObservation,
} from '../formats/common.ts';
import { decimalPrice, optionalPrice } from '../formats/prices.ts';
import { withPhase } from '../naming.ts';

const APP_ID: Readonly<Record<Game, number>> = { cs2: 730, rust: 252490 };
const CURRENCY = 'EUR';
const SCALE = 100;
const readPrice = decimalPrice(SCALE);

const WINDOWS: readonly [string, SalesWindow][] = [
  ['last_24_hours', '24h'],
  ['last_7_days', '7d'],
  ['last_30_days', '30d'],
  ['last_90_days', '90d'],
];

const base = observationBase('skinport', CURRENCY, SCALE);

/** Rows must be in the currency we asked for; anything else is refused, never converted. */
function currencyProblem(row: Record<string, unknown>): string | null {
  return row.currency === CURRENCY
    ? null
    : `currency ${JSON.stringify(row.currency)}, asked ${CURRENCY}`;
}

const ITEMS: AskRows = {
  ...nameField('item', 'market_hash_name'),
  base,
  price: readPrice,
  ask: (row) => {
    const problem = currencyProblem(row);
    if (problem) return fail('wrong_unit', problem);
    const quantity = readCount(row.quantity);
    if (quantity === null) return fail('malformed', 'quantity');
    const time = { at: readUnixSeconds(row.updated_at), kind: 'updated_at' };
    return { ok: true, value: { price: row.min_price, count: quantity, time } };
  },
};

/**
 * Sample: [{"market_hash_name":"AK-47 | Redline (Field-Tested)","currency":"EUR",
 * "suggested_price":13.18,"min_price":11.9,"max_price":49.99,"mean_price":14.5,
 * "median_price":12.86,"quantity":181,"created_at":1535988253,"updated_at":1732400000}]
 */
export function parseItems(body: unknown, ctx: ParseContext): PageResult {
  if (!Array.isArray(body)) return malformedBody('expected an array of items');
  return askRows(body, ITEMS, ctx);
}

/** The row's name with its `version` (Doppler phase) spliced in, or null for an unknown version. */
function versionedName(row: Record<string, unknown>, name: string): string | null {
  const version = row.version;
  if (version === undefined || version === null || version === 'default') return name;
  const phased = withPhase(name, version);
  return phased === name ? null : phased;
}

/**
 * Sample: [{"market_hash_name":"AK-47 | Redline (Field-Tested)","version":"default",
 * "currency":"EUR","last_24_hours":{"min":11.5,"max":14.2,"avg":12.6,"median":12.5,
 * "volume":38},"last_7_days":{...},"last_30_days":{...},"last_90_days":{...}}]
 */
export function parseSalesHistory(body: unknown, ctx: ParseContext): PageResult {
  if (!Array.isArray(body)) return malformedBody('expected an array of sales summaries');
  const out = new ResultBuilder();
  namedRows(out, body, nameField('summary', 'market_hash_name'), (row, plainName) => {
    const name = versionedName(row, plainName);
    if (name === null) {
      const detail = `version ${JSON.stringify(row.version)} is not a phase of this item`;
      return out.reject({ reason: 'unknown_item', detail }, plainName);
    }
    const problem = currencyProblem(row);
    if (problem) return out.reject({ reason: 'wrong_unit', detail: problem }, name);
    for (const [field, window] of WINDOWS) {
      const stats = row[field];
      if (!isRecord(stats)) continue;
      const volume = readCount(stats.volume);
      const [min, max, avg, median] = ['min', 'max', 'avg', 'median'].map((key) =>
        optionalPrice(stats[key], readPrice),
      );
      if (volume === null || [min, max, avg, median].includes(undefined)) {
        const detail = `${field} is not {min, max, avg, median, volume}`;
        out.reject({ reason: 'malformed', detail }, name);
        continue;
      }
      const figures = {
        window,
        volume,
        min: min ?? null,
        max: max ?? null,
        avg: avg ?? null,
        median: median ?? null,
      };
      out.observe(salesStatsObservation(base(ctx, name), figures, ctx.now));
    }
  });
  return out.result();
}

function request(kind: 'items' | 'sales_history', game: Game, path: string): ConnectorRequest {
  const query: Record<string, string | number> = { app_id: APP_ID[game], currency: CURRENCY };
  if (kind === 'items') query.tradable = 0;
  return { kind, game, method: 'GET', path, query, conditional: true, timeoutMs: 60_000 };
}

export const connector: Connector = {
  info: {
    id: 'skinport',
    displayName: 'Skinport',
    games: ['cs2', 'rust'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: 5 * MINUTE,
    capabilities: { asks: true, bids: false, sales: true, listings: false, floats: false },
    docsUrl: 'https://docs.skinport.com/',
    baseUrl: 'https://api.skinport.com',
    limits: [{ requests: 8, windowMs: 5 * MINUTE }],
    credentials: [],
    supplies: 'asks (lowest price, listing count) for every item; 24h/7d/30d/90d sales statistics',
  },
  requests: (ctx) => [
    request('items', ctx.game, '/v1/items'),
    request('sales_history', ctx.game, '/v1/sales/history'),
  ],
  parsers: { items: parseItems, sales_history: parseSalesHistory },
};
