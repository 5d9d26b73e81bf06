/**
 * `/market/priceoverview/`: `{success, lowest_price, median_price, volume}`, all display
 * strings ("$1,234.56", "1,234"). `volume` (units sold in the last 24 h) and `median_price`
 * become one `sales_stats` observation for the 24 h window. Steam leaves `volume` and
 * `median_price` out at times (tyrrrz.me/blog/parsing-steam-market): no `volume` is read as
 * nothing sold, and then no median is kept either. `lowest_price` is only checked for its
 * currency; the histogram gives the asks of these items in full.
 */
import type { PageResult, ParseContext } from '../connector.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  salesStatsObservation,
} from '../formats/common.ts';
import { requestedName, steamBase } from './steam.ts';
import { readSteamCount, readUsdText, usdTextCents } from './steam-text.ts';

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Sample: {"success":true,"lowest_price":"$36.55","volume":"1,247","median_price":"$36.20"} */
export function parsePriceOverview(body: unknown, ctx: ParseContext): PageResult {
  const name = requestedName(ctx);
  if (name === null) return malformedBody('price overview request without an item name');
  if (!isRecord(body) || body.success !== true) {
    return malformedBody(`${name}: expected {success: true, …}`);
  }
  const out = new ResultBuilder();
  const lowest = body.lowest_price;
  if (present(lowest) && (typeof lowest !== 'string' || usdTextCents(lowest) === null)) {
    const detail = `lowest_price ${JSON.stringify(lowest)} is not USD`;
    out.reject({ reason: 'wrong_unit', detail }, name);
    return out.result();
  }
  const volume = present(body.volume) ? readSteamCount(body.volume) : 0;
  if (volume === null) {
    const detail = `volume ${JSON.stringify(body.volume)}`;
    out.reject({ reason: 'malformed', detail }, name);
    return out.result();
  }
  let median: number | null = null;
  if (volume > 0 && present(body.median_price)) {
    const read = readUsdText(body.median_price);
    if (!read.ok) {
      out.reject(read.rejection, `${name} median_price`);
      return out.result();
    }
    median = read.value;
  }
  const stats = { window: '24h', volume, min: null, max: null, avg: null, median } as const;
  out.observe(salesStatsObservation(steamBase(ctx, name), stats, ctx.now));
  return out.result();
}
