/**
 * Buff163 recent sales (`goods/bill_order`): the last completed trades of one goods, each with
 * `price` (CNY string), the trade time (`transact_time`; older crawlers read `buyer_pay_time`)
 * and the asset sold (`asset_info`, whose paint index gives a Doppler's phase). Every poll sees
 * the same recent trades again, so the request carries the newest sale time already delivered
 * (`meta.since`, ms) and only newer sales are emitted; the newest is remembered per goods_id.
 *
 * Sample: {"code":"OK","data":{"items":[{"price":"76","transact_time":1795516800,"type":1,
 *  "asset_info":{"paintwear":"0.2154","info":{"paintseed":661,"paintindex":282}}}]}}
 */
import type { PageResult, ParseContext } from '../connector.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readCount,
  readSale,
  readUnixSeconds,
} from '../formats/common.ts';
import { assetName, base, goodsName, itemsOf, memoryKey, openEnvelope, readCny } from './shared.ts';

function tradeTime(sale: Record<string, unknown>): number | null {
  return readUnixSeconds(sale.transact_time ?? sale.buyer_pay_time);
}

export function parseBillOrders(body: unknown, ctx: ParseContext): PageResult {
  const envelope = openEnvelope(body);
  if (!envelope.ok) return envelope.page;
  const items = itemsOf(envelope.data);
  const name = goodsName(envelope.data, ctx);
  if (items === null) return malformedBody('no data.items array');
  if (name === '') return malformedBody('no goods name (goods_infos or request)');
  const since = readCount(ctx.request.meta?.since) ?? 0;
  const out = new ResultBuilder();
  let newest = since;
  items.forEach((sale, index) => {
    if (!isRecord(sale)) {
      return out.reject({ reason: 'malformed', detail: `sale ${index} not an object` }, name);
    }
    const soldAt = tradeTime(sale);
    if (soldAt !== null && soldAt <= since) return;
    const asset = isRecord(sale.asset_info) ? sale.asset_info : {};
    const item = assetName(name, isRecord(asset.info) ? asset.info.paintindex : undefined);
    const read = readSale(base(ctx.game, item), sale.price, undefined, soldAt, readCny);
    out.add(read, `${item} sale`);
    if (read.ok) newest = Math.max(newest, read.value.soldAt);
  });
  const goodsId = readCount(ctx.request.meta?.goods_id);
  const remember =
    newest > since && goodsId !== null ? { [memoryKey.lastSale(goodsId)]: String(newest) } : {};
  return { ...out.result(), remember };
}
