/**
 * `GET /api/v1/history/{market_hash_name}/sales` (sent with the key): the latest sales of one
 * name, each a sold listing `{id, price (cents), sold_at (ISO time), state, type, item{…}}`.
 * One sale observation each, under the phase-spliced name when the sold item is a Doppler.
 * Sources: `connector.ts`.
 */
import type { PageResult, ParseContext } from '../connector.ts';
import { ResultBuilder, isRecord, malformedBody, readName, readSale } from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';
import { base, nameWithPhase, phaseOf, readIsoTime, requestedItem } from './shared.ts';

export function parseSales(body: unknown, ctx: ParseContext): PageResult {
  if (!Array.isArray(body)) return malformedBody('expected an array of sold listings');
  const wanted = requestedItem(ctx);
  const out = new ResultBuilder();
  body.forEach((row, index) => {
    if (!isRecord(row))
      return out.reject({ reason: 'malformed', detail: 'not an object' }, `#${index}`);
    const item = isRecord(row.item) ? row.item : {};
    const name = readName(item.market_hash_name) ?? wanted;
    if (name === null) {
      return out.reject({ reason: 'malformed', detail: 'no item.market_hash_name' }, `#${index}`);
    }
    if (row.state !== undefined && row.state !== 'sold') return;
    const soldAs = nameWithPhase(name, phaseOf(item));
    const sale = readSale(
      base(ctx, soldAs),
      row.price,
      undefined,
      readIsoTime(row.sold_at),
      integerPrice,
    );
    out.add(sale, `${soldAs} sale #${index}`);
  });
  return out.result();
}
