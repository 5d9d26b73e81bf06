/**
 * Parsers of the keyless TM price exports, shared by market.csgo.com and rust.tm:
 * `/api/v2/prices/USD.json` (lowest ask per name) and `/api/v2/prices/orders/USD.json` (highest
 * buy order per name), both `{success, time, currency, items: [{market_hash_name, volume,
 * price}]}`. Each row becomes a one-level book side in milli-dollars; `volume` is the listing
 * count (asks) or the open buy-order count (bids). Facts and sources: `connector.ts`.
 */
import type { MarketId } from '../../domain/markets.ts';
import type { ObservationBase, RawLevel, Side } from '../../domain/observation.ts';
import type { PageResult, ParseContext, ResponseParser } from '../connector.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readCount,
  readName,
  readUnixSeconds,
  topLevel,
  type Read,
} from '../formats/common.ts';
import { decimalPrice } from '../formats/prices.ts';

/** Every TM price is USD; the trading API counts 1 USD = 1000, the exports keep 3 decimals. */
export const TM_CURRENCY = 'USD';
export const TM_SCALE = 1000;
export const readTmDecimal = decimalPrice(TM_SCALE);

export function tmBase(market: MarketId, ctx: ParseContext, item: string): ObservationBase {
  return { game: ctx.game, market, item, currency: TM_CURRENCY, scale: TM_SCALE };
}

/** The body's own currency must be the one we asked for; anything else is refused, not converted. */
export function currencyRejection(currency: unknown): PageResult | null {
  if (currency === TM_CURRENCY) return null;
  const detail = `currency ${JSON.stringify(currency)}, expected ${TM_CURRENCY}`;
  return { observations: [], rejected: [{ reason: 'wrong_unit', detail }] };
}

/** `volume` may be absent from the orders export (one OSS client says so): then count unknown. */
function readVolume(row: Record<string, unknown>, side: Side): number | null | undefined {
  if (side === 'bid' && (row.volume === undefined || row.volume === null)) return null;
  return readCount(row.volume) ?? undefined;
}

function levelsOf(price: unknown, volume: number | null): Read<RawLevel[]> {
  if (volume !== null) return topLevel(price, volume, readTmDecimal);
  return price === null || price === undefined
    ? { ok: true, value: [] }
    : topLevel(price, 1, readTmDecimal);
}

/**
 * Sample (`/api/v2/prices/USD.json`): {"success":true,"time":1795000000,"currency":"USD",
 * "items":[{"market_hash_name":"AK-47 | Redline (Field-Tested)","volume":"412","price":"13.754"}]}
 */
export function exportParser(market: MarketId, side: Side): ResponseParser {
  return (body, ctx) => {
    if (!isRecord(body) || body.success !== true || !Array.isArray(body.items)) {
      return malformedBody('expected {success: true, currency, time, items: [...]}');
    }
    const wrongUnit = currencyRejection(body.currency);
    if (wrongUnit) return wrongUnit;
    const time = { at: readUnixSeconds(body.time), kind: 'generated_at' };
    const out = new ResultBuilder();
    body.items.forEach((row, index) => {
      const name = isRecord(row) ? readName(row.market_hash_name) : null;
      if (!isRecord(row) || name === null) {
        return out.reject({ reason: 'malformed', detail: 'no market_hash_name' }, `item ${index}`);
      }
      const volume = readVolume(row, side);
      if (volume === undefined) {
        const detail = `volume ${JSON.stringify(row.volume) ?? 'missing'}: not a count`;
        return out.reject({ reason: 'malformed', detail }, name);
      }
      out.side(tmBase(market, ctx, name), side, levelsOf(row.price, volume), volume, ctx.now, time);
    });
    return out.result();
  };
}
