/**
 * The bulk search (`/market/search/render/?norender=1`): one ask per item name, the cheapest
 * listing's buyer price `sell_price` in integer cents with `sell_listings` behind it. Pages
 * are followed within the poll while `meta.pagesLeft` allows, each continuing at `start` plus
 * the results actually returned (anonymous callers may get 10 whatever `count` asks); the
 * position is remembered for the next poll and wraps to 0 after the last page, so successive
 * polls walk the whole catalog by name.
 */
import type { ConnectorRequest, PageResult, ParseContext } from '../connector.ts';
import { askRows, askWithCount, type AskRows } from '../formats/bulk-asks.ts';
import { fail, isRecord, malformedBody, readCount, readName } from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';
import { searchRequest } from './plan.ts';
import { searchCursorKey, steamBase } from './steam.ts';
import { usdTextCents } from './steam-text.ts';

const RESULTS: AskRows = {
  base: steamBase,
  price: integerPrice,
  label: 'result',
  noName: 'no hash_name',
  name: (row) => {
    const description = isRecord(row.asset_description) ? row.asset_description : {};
    return readName(row.hash_name) ?? readName(description.market_hash_name);
  },
  ask: (row) => {
    const text = row.sell_price_text;
    if (text !== undefined && (typeof text !== 'string' || usdTextCents(text) === null)) {
      return fail('wrong_unit', `sell_price_text ${JSON.stringify(text)} is not USD`);
    }
    const detail = `sell_listings ${JSON.stringify(row.sell_listings)}`;
    return askWithCount(row.sell_price, row.sell_listings, detail);
  },
};

interface Cursor {
  remember?: Record<string, string>;
  next?: ConnectorRequest[];
}

/**
 * An empty page claiming an empty catalog says nothing about where we are (Steam answers so
 * when it is unwell): the position is kept.
 */
function advance(body: Record<string, unknown>, results: unknown[], ctx: ParseContext): Cursor {
  const start = readCount(ctx.request.query?.start);
  const total = readCount(body.total_count);
  if (start === null || total === null || (results.length === 0 && total === 0)) return {};
  const after = start + results.length;
  const wrapped = results.length === 0 || after >= total;
  const remember = { [searchCursorKey(ctx.game)]: String(wrapped ? 0 : after) };
  const pagesLeft = readCount(ctx.request.meta?.pagesLeft) ?? 0;
  if (wrapped || pagesLeft === 0) return { remember };
  return { remember, next: [searchRequest(ctx.game, after, pagesLeft - 1)] };
}

/**
 * Sample: {"success":true,"start":0,"pagesize":10,"total_count":21450,"results":[{"name":
 * "AK-47 | Redline (Field-Tested)","hash_name":"AK-47 | Redline (Field-Tested)",
 * "sell_listings":1187,"sell_price":3655,"sell_price_text":"$36.55",...}]}
 */
export function parseSearch(body: unknown, ctx: ParseContext): PageResult {
  if (!isRecord(body) || body.success !== true || !Array.isArray(body.results)) {
    return malformedBody('expected {success: true, results: [...]}');
  }
  const results: unknown[] = body.results;
  return { ...askRows(results, RESULTS, ctx), ...advance(body, results, ctx) };
}
