/**
 * `POST /marketplace-api/v1/aggregated-prices`: per title the best offer (ask) and best target
 * (bid) with their counts, as one-level book sides, and the next page while DMarket returns full
 * pages under a new cursor. Prices are `{Currency, Amount}` with Amount in integer cents
 * (swagger `commonMoney`); bare cent strings or numbers, as some clients report, are read too.
 * gRPC-gateway JSON may leave out zero counts and empty prices, so a missing count means 0.
 */
import type { PageResult, ParseContext } from '../connector.ts';
import {
  ResultBuilder,
  fail,
  isRecord,
  malformedBody,
  readCount,
  readName,
  topLevel,
  type PriceReader,
} from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';
import { MAX_PAGES, type AggregatedBody } from './plan.ts';
import { CURRENCY, base } from './units.ts';

const NO_TIME = { at: null, kind: null };

/** `{Currency, Amount}` in cents, or a bare cent amount; another currency is refused. */
export const readMoney: PriceReader = (value) => {
  if (!isRecord(value)) return integerPrice(value);
  const currency = value.Currency ?? value.currency;
  if (currency !== undefined && currency !== CURRENCY) {
    return fail('wrong_unit', `currency ${JSON.stringify(currency)}, expected ${CURRENCY}`);
  }
  return integerPrice(value.Amount ?? value.amount);
};

function readOptionalCount(value: unknown): number | null {
  return value === undefined ? 0 : readCount(value);
}

function sentBody(body: unknown): AggregatedBody | null {
  if (!isRecord(body) || !isRecord(body.filter) || typeof body.limit !== 'string') return null;
  return body as unknown as AggregatedBody;
}

/** The same request one page on, or null when this page was the last one worth asking for. */
function nextPage(cursor: unknown, rows: number, ctx: ParseContext): PageResult['next'] {
  const sent = sentBody(ctx.request.body);
  const page = Number(ctx.request.meta?.page ?? 1);
  if (typeof cursor !== 'string' || cursor === '' || sent === null) return undefined;
  if (cursor === sent.cursor || rows < Number(sent.limit) || page >= MAX_PAGES) return undefined;
  const body: AggregatedBody = { ...sent, cursor };
  return [{ ...ctx.request, body, meta: { ...ctx.request.meta, page: page + 1 } }];
}

/**
 * Sample (swagger `marketplaceListAggregatedPricesResponse`): {"aggregatedPrices":[{"title":
 * "AK-47 | Redline (Field-Tested)","orderBestPrice":{"Currency":"USD","Amount":"1175"},
 * "orderCount":"42","offerBestPrice":{"Currency":"USD","Amount":"1240"},"offerCount":"318"}],
 * "nextCursor":""}
 */
export function parseAggregatedPrices(body: unknown, ctx: ParseContext): PageResult {
  if (!isRecord(body) || !Array.isArray(body.aggregatedPrices)) {
    return malformedBody('expected {aggregatedPrices: [...], nextCursor}');
  }
  const out = new ResultBuilder();
  body.aggregatedPrices.forEach((row: unknown, index) => {
    const name = isRecord(row) ? readName(row.title) : null;
    if (!isRecord(row) || name === null) {
      return out.reject({ reason: 'malformed', detail: 'no title' }, `row ${index}`);
    }
    const offers = readOptionalCount(row.offerCount);
    const orders = readOptionalCount(row.orderCount);
    if (offers === null || orders === null) {
      return out.reject({ reason: 'malformed', detail: 'offerCount/orderCount' }, name);
    }
    const item = base(ctx, name);
    const ask = topLevel(row.offerBestPrice, offers, readMoney);
    const bid = topLevel(row.orderBestPrice, orders, readMoney);
    out.side(item, 'ask', ask, offers, ctx.now, NO_TIME);
    out.side(item, 'bid', bid, orders, ctx.now, NO_TIME);
  });
  const result: PageResult = out.result();
  const next = nextPage(body.nextCursor, body.aggregatedPrices.length, ctx);
  if (next) result.next = next;
  return result;
}
