/**
 * CSFloat's two bulk price lists: `GET /api/v1/listings/price-list` (a bare array, one row per
 * market_hash_name with the lowest buy-now price in cents and the listing count) and
 * `GET /api/v1/listings/price-list/doppler` (`{data: [...]}`, one row per Doppler / Gamma Doppler
 * name and paint index). Each row becomes a one-level ask; Doppler rows go to the phase-spliced
 * name. Sources: `connector.ts`.
 */
import type { PageResult, ParseContext } from '../connector.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readCount,
  readName,
  topLevel,
} from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';
import { phaseOfPaintIndex } from '../naming.ts';
import { base, nameWithPhase } from './shared.ts';

const NO_TIME = { at: null, kind: null };

/** `qty` may be absent (the official extension's type has no count): then the count is unknown. */
function readQty(row: Record<string, unknown>): number | null | undefined {
  if (row.qty === undefined || row.qty === null) return null;
  return readCount(row.qty) ?? undefined;
}

function addRow(
  out: ResultBuilder,
  ctx: ParseContext,
  name: string,
  row: Record<string, unknown>,
): void {
  const count = readQty(row);
  if (count === undefined) {
    return out.reject({ reason: 'malformed', detail: `qty ${JSON.stringify(row.qty)}` }, name);
  }
  const levels = topLevel(row.min_price, count ?? 1, integerPrice);
  out.side(base(ctx, name), 'ask', levels, count, ctx.now, NO_TIME);
}

/** Sample: [{"market_hash_name":"AK-47 | Redline (Field-Tested)","qty":412,"min_price":1189}] */
export function parsePriceList(body: unknown, ctx: ParseContext): PageResult {
  if (!Array.isArray(body)) return malformedBody('expected an array of price-list rows');
  const out = new ResultBuilder();
  body.forEach((row, index) => {
    const name = isRecord(row) ? readName(row.market_hash_name) : null;
    if (!isRecord(row) || name === null) {
      return out.reject({ reason: 'malformed', detail: 'no market_hash_name' }, `row ${index}`);
    }
    addRow(out, ctx, name, row);
  });
  return out.result();
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
  rows.forEach((row, index) => {
    const name = isRecord(row) ? readName(row.market_hash_name) : null;
    if (!isRecord(row) || name === null) {
      return out.reject({ reason: 'malformed', detail: 'no market_hash_name' }, `row ${index}`);
    }
    const phased = nameWithPhase(
      name,
      phaseOfPaintIndex(row.paint_index) ?? readName(row.phase_name),
    );
    if (phased === name) {
      const detail = `paint_index ${JSON.stringify(row.paint_index)} names no Doppler phase`;
      return out.reject({ reason: 'unknown_item', detail }, name);
    }
    addRow(out, ctx, phased, row);
  });
  return out.result();
}
