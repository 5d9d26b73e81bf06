/**
 * Parsers of the keyed TM endpoints, shared by market.csgo.com and rust.tm:
 * `/api/v2/bid-ask` (bid and ask ladders of one name, decimal dollars) and
 * `/api/v2/get-list-items-info` (recent sales of several names, decimal dollars).
 * Both answer in the account's currency, so a body not in USD is refused whole, and a bid-ask
 * body that does not name its currency is reported as a failure, never guessed. Facts and
 * sources: `connector.ts`.
 */
import type { MarketId } from '../../domain/markets.ts';
import type { Side } from '../../domain/observation.ts';
import type { PageResult, ParseContext, ResponseParser } from '../connector.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readLevels,
  readName,
  readSale,
  readUnixSeconds,
} from '../formats/common.ts';
import { currencyRejection, readTmDecimal, tmBase } from './parse-exports.ts';

const NO_TIME = { at: null, kind: null };
const LEVEL_FIELDS = { price: 'price', quantity: 'quantity', orders: null };

/** `{success: false, error}` is how TM refuses a request (bad key, unknown name). */
function refusal(body: Record<string, unknown>): PageResult | null {
  if (body.success !== false) return null;
  return malformedBody(`refused: ${JSON.stringify(body.error ?? null)}`);
}

/**
 * Sources name the level size `count` (markets.md research) or `total` (marketcsgo4j); a level
 * of size 0 is gone (marketcsgo4j, search results) and is dropped rather than failing the side.
 */
function normaliseLadder(raw: unknown): unknown {
  if (!Array.isArray(raw)) return raw;
  return raw
    .map((entry) =>
      isRecord(entry) ? { price: entry.price, quantity: entry.count ?? entry.total } : entry,
    )
    .filter((entry) => !isRecord(entry) || (entry.quantity !== 0 && entry.quantity !== '0'));
}

/**
 * That bid-ask names its currency rests on one client only (connector-audit.md #5); keyed
 * answers are in the account's currency (USD, EUR or RUB), so a ladder without it is not used.
 */
const UNNAMED_CURRENCY: PageResult = {
  observations: [],
  rejected: [],
  failure: {
    kind: 'parse',
    detail:
      "bid-ask answer names no currency: the account's currency cannot be confirmed, so the ladder is not used",
  },
};

/**
 * Sample: {"success":true,"currency":"USD","bid":[{"price":"12.100","count":3}],
 * "ask":[{"price":"12.470","count":1},{"price":"12.500","count":4}]}
 */
export function bidAskParser(market: MarketId): ResponseParser {
  return (body, ctx) => {
    const item = readName(ctx.request.meta?.item);
    if (item === null) return malformedBody('bid-ask request carries no meta.item');
    if (!isRecord(body)) return malformedBody('expected {bid: [...], ask: [...]}');
    const refused = refusal(body);
    if (refused) return refused;
    if (body.currency === undefined) return UNNAMED_CURRENCY;
    const wrongUnit = currencyRejection(body.currency);
    if (wrongUnit) return wrongUnit;
    const out = new ResultBuilder();
    for (const side of ['bid', 'ask'] as const satisfies readonly Side[]) {
      const levels = readLevels(normaliseLadder(body[side]), side, readTmDecimal, LEVEL_FIELDS);
      const listings = levels.ok && side === 'ask' ? sumQuantity(levels.value) : null;
      out.side(tmBase(market, ctx, item), side, levels, listings, ctx.now, NO_TIME);
    }
    return out.result();
  };
}

function sumQuantity(levels: readonly { quantity: number }[]): number {
  return levels.reduce((total, level) => total + level.quantity, 0);
}

/** Unix seconds as a number or a digit string. */
function readSaleTime(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return readUnixSeconds(number);
}

function readHistory(
  market: MarketId,
  ctx: ParseContext,
  name: string,
  history: unknown,
  out: ResultBuilder,
): void {
  if (!Array.isArray(history)) {
    return out.reject({ reason: 'malformed', detail: 'history is not an array' }, name);
  }
  history.forEach((entry, index) => {
    if (!Array.isArray(entry) || entry.length < 2) {
      return out.reject(
        { reason: 'malformed', detail: `history ${index} is not [time, price]` },
        name,
      );
    }
    const base = tmBase(market, ctx, name);
    out.add(readSale(base, entry[1], undefined, readSaleTime(entry[0]), readTmDecimal), name);
  });
}

/**
 * Sample: {"success":true,"currency":"USD","data":{"AK-47 | Redline (Field-Tested)":
 * {"max":15.5,"min":11.02,"average":12.813,"history":[[1794990000,12.45],[1794980000,12.6]]}}}
 */
export function itemsInfoParser(market: MarketId): ResponseParser {
  return (body, ctx) => {
    if (!isRecord(body)) return malformedBody('expected {success, currency, data: {...}}');
    const refused = refusal(body);
    if (refused) return refused;
    const wrongUnit = currencyRejection(body.currency);
    if (wrongUnit) return wrongUnit;
    if (Array.isArray(body.data) && body.data.length === 0)
      return { observations: [], rejected: [] };
    if (!isRecord(body.data)) return malformedBody('data is not an object keyed by name');
    const out = new ResultBuilder();
    for (const [key, info] of Object.entries(body.data)) {
      const name = readName(key);
      if (name === null || !isRecord(info)) {
        out.reject({ reason: 'malformed', detail: 'entry is not {history: [...]}' }, `data ${key}`);
        continue;
      }
      readHistory(market, ctx, name, info.history, out);
    }
    return out.result();
  };
}
