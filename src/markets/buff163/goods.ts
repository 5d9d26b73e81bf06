/**
 * Buff163 goods list (`/api/market/goods`): one row per Steam name with the lowest ask
 * (`sell_min_price`, `sell_num` listings) and the highest bid (`buy_max_price`, `buy_num`
 * orders), both CNY strings. Each row's `id` is the goods_id the detail endpoints take; the
 * parser remembers it per name, moves the catalog cursor on, and asks for the slice's next page.
 *
 * Sample (fields per softwerk-org/csinvest-connector get_market_goods.py):
 * {"code":"OK","msg":null,"data":{"page_num":1,"page_size":80,"total_page":300,
 *  "total_count":23950,"items":[{"id":33906,"market_hash_name":"AK-47 | Redline (Field-Tested)",
 *  "sell_min_price":"77.5","buy_max_price":"74","sell_num":1204,"buy_num":310, ...}]}}
 */
import type { ConnectorRequest, PageResult, ParseContext } from '../connector.ts';
import { ResultBuilder, isRecord, readCount, readName, topLevel } from '../formats/common.ts';
import { followUps, goodsPage, type PageStep } from './plan.ts';
import { base, itemsOf, memoryKey, openEnvelope, readCny } from './shared.ts';

const NO_SOURCE_TIME = { at: null, kind: null };

function parseRow(
  row: unknown,
  index: number,
  ctx: ParseContext,
  out: ResultBuilder,
  remember: Record<string, string>,
): void {
  const name = isRecord(row) ? readName(row.market_hash_name) : null;
  if (!isRecord(row) || name === null) {
    return out.reject({ reason: 'malformed', detail: 'no market_hash_name' }, `row ${index}`);
  }
  const goodsId = readCount(row.id);
  if (goodsId !== null) remember[memoryKey.goodsId(name)] = String(goodsId);
  const sellNum = readCount(row.sell_num);
  const buyNum = readCount(row.buy_num);
  if (sellNum === null || buyNum === null) {
    return out.reject({ reason: 'malformed', detail: 'sell_num/buy_num not counts' }, name);
  }
  if (goodsId !== null) remember[memoryKey.sellNum(goodsId)] = String(sellNum);
  const item = base(ctx.game, name);
  const asks = topLevel(row.sell_min_price, sellNum, readCny);
  const bids = topLevel(row.buy_max_price, buyNum, readCny);
  out.side(item, 'ask', asks, sellNum, ctx.now, NO_SOURCE_TIME);
  out.side(item, 'bid', bids, buyNum, ctx.now, NO_SOURCE_TIME);
}

function readStep(meta: ConnectorRequest['meta']): PageStep | null {
  const read = (key: string) => readCount(meta?.[key]);
  const [page, first, left] = [read('page'), read('first'), read('left')];
  if (!page || !first || left === null) return null;
  return { page, first, left, wrapped: read('wrapped') ?? 0 };
}

/**
 * Where the catalog crawl goes on: the page after this one, or page 1 after the last page
 * (by `total_page`, or an empty page when that is missing). The slice stops when its page
 * budget is spent, when it would come back to its first page, or when it would wrap twice.
 */
function advance(
  step: PageStep,
  data: Record<string, unknown>,
  rows: number,
  ctx: ParseContext,
): { next: ConnectorRequest[]; page: number } {
  const total = readCount(data.total_page);
  const last = total !== null ? step.page >= total : rows === 0;
  const page = last ? 1 : step.page + 1;
  const stop = step.left <= 0 || page === step.first || (last && step.wrapped === 1);
  if (stop) return { next: [], page };
  const following = {
    page,
    first: step.first,
    left: step.left - 1,
    wrapped: last ? 1 : step.wrapped,
  };
  return { next: [goodsPage(ctx.game, following, ctx.request.headers ?? {})], page };
}

export function parseGoods(body: unknown, ctx: ParseContext): PageResult {
  const envelope = openEnvelope(body);
  if (!envelope.ok) return envelope.page;
  const follow = followUps(ctx.request);
  const items = itemsOf(envelope.data);
  if (items === null) {
    const rejected = [{ reason: 'malformed' as const, detail: 'no data.items array' }];
    return { observations: [], rejected, ...(follow.length > 0 ? { next: follow } : {}) };
  }
  const out = new ResultBuilder();
  const remember: Record<string, string> = {};
  items.forEach((row, index) => parseRow(row, index, ctx, out, remember));
  const next: ConnectorRequest[] = [];
  const step = readStep(ctx.request.meta);
  if (step !== null) {
    const moved = advance(step, envelope.data, items.length, ctx);
    remember[memoryKey.nextPage] = String(moved.page);
    next.push(...moved.next);
  }
  const search = ctx.request.meta?.search;
  if (typeof search === 'string') remember[memoryKey.lookedUp(search)] = String(ctx.now);
  next.push(...follow);
  return { ...out.result(), ...(next.length > 0 ? { next } : {}), remember };
}
