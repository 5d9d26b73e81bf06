/**
 * CSFloat's two bulk price lists: `GET /api/v1/listings/price-list` (a bare array, one row per
 * market_hash_name with the lowest buy-now price in cents and the listing count) and
 * `GET /api/v1/listings/price-list/doppler` (`{data: [...]}`, one row per Doppler / Gamma Doppler
 * name and paint index). Each row becomes a one-level ask; Doppler rows go to the phase-spliced
 * name. Sources: `connector.ts`.
 */
import type { PageResult, ParseContext } from '../connector.ts';
import {
  addAsk,
  askRows,
  nameField,
  namedRows,
  type AskRow,
  type AskRows,
} from '../formats/bulk-asks.ts';
import {
  ResultBuilder,
  fail,
  isRecord,
  malformedBody,
  readCount,
  readName,
  type Read,
} from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';
import { phaseOfPaintIndex } from '../naming.ts';
import { base, nameWithPhase } from './shared.ts';

/** `qty` may be absent (the official extension's type has no count): then the count is unknown. */
function rowAsk(row: Record<string, unknown>): Read<AskRow> {
  if (row.qty === undefined || row.qty === null) {
    return { ok: true, value: { price: row.min_price, count: null } };
  }
  const count = readCount(row.qty);
  if (count === null) return fail('malformed', `qty ${JSON.stringify(row.qty)}`);
  return { ok: true, value: { price: row.min_price, count } };
}

const ROWS: AskRows = {
  ...nameField('row', 'market_hash_name'),
  base,
  price: integerPrice,
  ask: rowAsk,
};

/** Sample: [{"market_hash_name":"AK-47 | Redline (Field-Tested)","qty":412,"min_price":1189}] */
export function parsePriceList(body: unknown, ctx: ParseContext): PageResult {
  if (!Array.isArray(body)) return malformedBody('expected an array of price-list rows');
  return askRows(body, ROWS, ctx);
}

/**
 * Sample: {"data":[{"market_hash_name":"★ Karambit | Doppler (Factory New)","paint_index":415,
 * "min_price":352000}]}. A row whose paint index names no phase is refused: its price is one
 * variant's, and filing it under the plain name would misprice every other phase.
 */
export function parseDopplerPriceList(body: unknown, ctx: ParseContext): PageResult {
  const rows = isRecord(body) ? body.data : undefined;
  if (!Array.isArray(rows)) return malformedBody('expected {data: [...]} of Doppler rows');
  const out = new ResultBuilder();
  namedRows(out, rows, ROWS, (row, name) => {
    const phased = nameWithPhase(
      name,
      phaseOfPaintIndex(row.paint_index) ?? readName(row.phase_name),
    );
    if (phased === name) {
      const detail = `paint_index ${JSON.stringify(row.paint_index)} names no Doppler phase`;
      return out.reject({ reason: 'unknown_item', detail }, name);
    }
    addAsk(out, ROWS, phased, rowAsk(row), ctx);
  });
  return out.result();
}
