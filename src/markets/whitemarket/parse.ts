/**
 * White.market price-export parser: per row an ask for the Steam name (cheapest price, listing
 * count) and a listing observation for that cheapest listing (asset id, float, paint seed,
 * paint index, phase, inspect link). Facts and sources: the module comment of ./connector.ts.
 */
import type { PageResult, ParseContext } from '../connector.ts';
import {
  addAsk,
  askWithCount,
  nameField,
  namedRows,
  observationBase,
  type AskUnits,
} from '../formats/bulk-asks.ts';
import { ResultBuilder, malformedBody, readCount, readListing } from '../formats/common.ts';
import { decimalPrice } from '../formats/prices.ts';
import { phaseOfPaintIndex, withPhase } from '../naming.ts';

export const CURRENCY = 'USD';
export const SCALE = 100;
const readPrice = decimalPrice(SCALE);
const base = observationBase('whitemarket', CURRENCY, SCALE);
const UNITS: AskUnits = { base, price: readPrice };
const ROWS = nameField('row', 'market_hash_name');

/** The cheapest listing of a row, under the phase-spliced name when it is a Doppler phase. */
function cheapestListing(
  out: ResultBuilder,
  row: Record<string, unknown>,
  name: string,
  ctx: ParseContext,
): void {
  if (row.cheapest_asset_id === null || row.cheapest_asset_id === undefined) return;
  const phase = phaseOfPaintIndex(readCount(row.paint_index));
  const fields = {
    id: row.cheapest_asset_id,
    price: row.price,
    floatValue: row.cheapest_float,
    paintSeed: row.paint_seed,
    paintIndex: row.paint_index,
    phase,
    inspectLink: row.inspect_link,
    stickers: undefined,
  };
  const item = phase === null ? name : withPhase(name, phase);
  out.add(readListing(base(ctx, item), fields, readPrice, ctx.now), `${name} listing`);
}

/**
 * Sample: [{"market_hash_name":"AK-47 | Redline (Field-Tested)","price":30.69,
 * "market_product_link":"https://white.market/market?name=AK-47%20%7C%20Redline...",
 * "market_product_count":412,"cheapest_asset_id":36857146063,"cheapest_float":"0.2796",
 * "paint_index":282,"paint_seed":153,"inspect_link":"steam://rungame/730/..."}]
 */
export function parsePrices(body: unknown, ctx: ParseContext): PageResult {
  if (!Array.isArray(body)) return malformedBody('expected an array of price rows');
  const out = new ResultBuilder();
  namedRows(out, body, ROWS, (row, name) => {
    const ask = askWithCount(row.price, row.market_product_count, 'market_product_count');
    const asks = addAsk(out, UNITS, name, ask, ctx);
    if (asks.ok && asks.value.length > 0) cheapestListing(out, row, name, ctx);
  });
  return out.result();
}
