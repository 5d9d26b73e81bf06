/**
 * Buff163 per-goods books. `goods/sell_order` lists single listings (one asset each, cheapest
 * first as asked with `sort_by=price.asc`): each becomes a listing observation (float from
 * `asset_info.paintwear`, seed, paint index and stickers from `asset_info.info`, the Doppler
 * phase from the paint index), and together they form the ask ladder of the first page, for
 * the Steam name and, for Dopplers, per phase. `goods/buy_order` lists buy orders (`price`,
 * `num`, highest first); orders with a non-empty `specific` (a float range, phase or sticker
 * condition) are not bids for any copy of the item and are left out of the bid ladder. A first
 * page of conditional orders only says nothing about the rest, so no bid side comes of it.
 * The ask's listing count is the goods list's `sell_num` the planner passes in `meta.sell_num`:
 * the sell-order page's `total_count` is capped by Buff (91 in a public capture of real
 * answers, for goods with hundreds on sale), so it is used only when no `sell_num` is known.
 */
import type { RawLevel, Side } from '../../domain/observation.ts';
import type { PageResult, ParseContext } from '../connector.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readCount,
  readListing,
} from '../formats/common.ts';
import { withPhase } from '../naming.ts';
import { base, goodsName, itemsOf, openEnvelope, phaseFor, readCny } from './shared.ts';

const NO_SOURCE_TIME = { at: null, kind: null };

/** Price → (units, orders) of one side, read into a ladder best first. */
class Ladder {
  private readonly levels = new Map<number, RawLevel>();

  add(price: number, quantity: number): void {
    const level = this.levels.get(price) ?? { price, quantity: 0, orders: 0 };
    level.quantity += quantity;
    level.orders = (level.orders ?? 0) + 1;
    this.levels.set(price, level);
  }

  read(side: Side): RawLevel[] {
    const order = side === 'ask' ? 1 : -1;
    return [...this.levels.values()].sort((a, b) => order * (a.price - b.price));
  }
}

function steamLink(value: unknown): string | null {
  return typeof value === 'string' && value.startsWith('steam://') ? value : null;
}

function readOne(
  listing: unknown,
  index: number,
  name: string,
  ctx: ParseContext,
  out: ResultBuilder,
): { item: string; price: number } | null {
  if (!isRecord(listing) || !isRecord(listing.asset_info)) {
    const detail = `listing ${index} ${isRecord(listing) ? 'without asset_info' : 'not an object'}`;
    out.reject({ reason: 'malformed', detail }, name);
    return null;
  }
  const asset = listing.asset_info;
  const info = isRecord(asset.info) ? asset.info : {};
  const phase = phaseFor(name, info.paintindex);
  const item = phase === null ? name : withPhase(name, phase);
  const fields = {
    id: listing.id,
    price: listing.price,
    floatValue: asset.paintwear,
    paintSeed: info.paintseed,
    paintIndex: info.paintindex,
    phase,
    inspectLink: steamLink(asset.action_link),
    stickers: info.stickers,
  };
  const read = readListing(base(ctx.game, item), fields, readCny, ctx.now);
  out.add(read, `${item} listing`);
  return read.ok ? { item, price: read.value.price } : null;
}

/**
 * Sample (BetterBuff `BuffTypes.SellOrder`): {"code":"OK","data":{"total_count":1204,
 * "goods_infos":{"33906":{"market_hash_name":"AK-47 | Redline (Field-Tested)"}},
 * "items":[{"id":"230901T1","price":"77.5","asset_info":{"paintwear":"0.2154",
 * "action_link":"steam://rungame/730/…","info":{"paintseed":661,"paintindex":282,
 * "stickers":[{"name":"Titan | Katowice 2014"}]}}}]}}
 */
export function parseSellOrders(body: unknown, ctx: ParseContext): PageResult {
  const envelope = openEnvelope(body);
  if (!envelope.ok) return envelope.page;
  const items = itemsOf(envelope.data);
  const name = goodsName(envelope.data, ctx);
  if (items === null) return malformedBody('no data.items array');
  if (name === '') return malformedBody('no goods name (goods_infos or request)');
  const out = new ResultBuilder();
  const ladders = new Map<string, Ladder>();
  items.forEach((listing, index) => {
    const read = readOne(listing, index, name, ctx, out);
    if (read === null) return;
    for (const item of new Set([name, read.item])) {
      const ladder = ladders.get(item) ?? new Ladder();
      ladder.add(read.price, 1);
      ladders.set(item, ladder);
    }
  });
  if (items.length === 0) ladders.set(name, new Ladder());
  const listed = readCount(ctx.request.meta?.sell_num) ?? readCount(envelope.data.total_count);
  for (const [item, ladder] of ladders) {
    const count = item === name && listed !== null ? Math.max(listed, items.length) : null;
    const levels = { ok: true as const, value: ladder.read('ask') };
    out.side(base(ctx.game, item), 'ask', levels, count, ctx.now, NO_SOURCE_TIME);
  }
  return out.result();
}

function hasConditions(order: Record<string, unknown>): boolean {
  return Array.isArray(order.specific) && order.specific.length > 0;
}

/**
 * Sample (BetterBuff `BuffTypes.BuyOrder`): {"code":"OK","data":{"total_count":310,
 * "items":[{"id":"B1","price":"74","num":12,"real_num":12,"specific":[]}]}}
 */
export function parseBuyOrders(body: unknown, ctx: ParseContext): PageResult {
  const envelope = openEnvelope(body);
  if (!envelope.ok) return envelope.page;
  const items = itemsOf(envelope.data);
  const name = goodsName(envelope.data, ctx);
  if (items === null) return malformedBody('no data.items array');
  if (name === '') return malformedBody('no goods name in the request');
  const out = new ResultBuilder();
  const ladder = new Ladder();
  let accepted = 0;
  let conditional = 0;
  items.forEach((order, index) => {
    if (!isRecord(order)) {
      return out.reject({ reason: 'malformed', detail: `buy order ${index} not an object` }, name);
    }
    if (hasConditions(order)) return void (conditional += 1);
    const price = readCny(order.price);
    if (!price.ok) return out.reject(price.rejection, `${name} bid`);
    const num = readCount(order.num);
    if (num === null || num === 0) {
      const detail = `buy order ${index} num ${JSON.stringify(order.num)}`;
      return out.reject({ reason: 'malformed', detail }, name);
    }
    ladder.add(price.value, num);
    accepted += 1;
  });
  if (accepted > 0 || items.length === 0) {
    const count = conditional === 0 ? readCount(envelope.data.total_count) : null;
    const levels = { ok: true as const, value: ladder.read('bid') };
    out.side(base(ctx.game, name), 'bid', levels, count, ctx.now, NO_SOURCE_TIME);
  }
  return out.result();
}
