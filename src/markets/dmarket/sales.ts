/**
 * `GET /trade-aggregator/v1/last-sales`: the latest sales of the requested title. Each sale is
 * `{price, date, txOperationType, offerAttributes, orderAttributes}` (swagger
 * `GetLastSalesResponseSale`: price a string, date unix seconds as a string). The swagger does
 * not give the price's unit; clients that read live responses treat it as a decimal dollar
 * amount (GODrums/BetterFloat `src/contents/dmarket/index.ts` formats it as currency next to
 * dollar reference prices; csinvest-connector types it `float`), which is what is read here.
 * A Doppler phase in `offerAttributes.phase`, when present, is spliced into the name.
 */
import type { PageResult, ParseContext } from '../connector.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readSale,
  readUnixSeconds,
} from '../formats/common.ts';
import { decimalPrice } from '../formats/prices.ts';
import { withPhase } from '../naming.ts';
import { SCALE, base, metaTitle } from './units.ts';

const readDollars = decimalPrice(SCALE);

function readSeconds(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return readUnixSeconds(number);
}

/**
 * Sample: {"sales":[{"price":"12.40","date":"1795000000","txOperationType":"Offer",
 * "offerAttributes":{"floatValue":0.2113,"paintSeed":412},"orderAttributes":{}}]}
 */
export function parseLastSales(body: unknown, ctx: ParseContext): PageResult {
  const title = metaTitle(ctx);
  if (title === null) return malformedBody('last-sales request without a title');
  if (!isRecord(body) || !Array.isArray(body.sales))
    return malformedBody('expected {sales: [...]}');
  const out = new ResultBuilder();
  body.sales.forEach((sale: unknown, index) => {
    const where = `${title} sale ${index}`;
    if (!isRecord(sale)) return out.reject({ reason: 'malformed', detail: 'not an object' }, where);
    const attributes = isRecord(sale.offerAttributes) ? sale.offerAttributes : {};
    const item = base(ctx, withPhase(title, attributes.phase));
    out.add(readSale(item, sale.price, undefined, readSeconds(sale.date), readDollars), where);
  });
  return out.result();
}
