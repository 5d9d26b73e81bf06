/**
 * Writes a simulated snapshot in each market's wire format (the shapes the parsers in
 * ../formats read), converting native integer units to the format's representation: CNY
 * strings for Buff, EUR decimal numbers for Skinport, milli-USD for Waxpeer, integer cents
 * (strings on DMarket) for the cents ladder, decimal strings for the USD-decimal exports.
 */
import type { RawLevel } from '../../domain/observation.ts';
import type { BuffGoodsBody, BuffGoodsItem, BuffSellListing } from '../formats/buff-goods.ts';
import type { CentsLadderBody, CentsLadderItem, CentsListing } from '../formats/cents-ladder.ts';
import type { FormatId } from '../formats/index.ts';
import type { SkinportBundle, SkinportItem } from '../formats/skinport-items.ts';
import type { DecimalListing, UsdDecimalBody, UsdDecimalItem } from '../formats/usd-decimal.ts';
import type { WaxpeerBundle, WaxpeerDepth } from '../formats/waxpeer-prices.ts';
import type { SimListing } from './listings.ts';
import type { SimRow, SimSnapshot } from './snapshot.ts';

/** `units / scale` as a decimal string without trailing zeros ("77.5", "74", "0.03"). */
export function decimalString(units: number, scale: number): string {
  const digits = Math.round(Math.log10(scale));
  const whole = Math.floor(units / scale);
  const fraction = String(units - whole * scale)
    .padStart(digits, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

function buffBody(snapshot: SimSnapshot): BuffGoodsBody {
  const cny = (units: number) => decimalString(units, snapshot.scale);
  const levels = (side: RawLevel[]) =>
    side.map((level) => ({ price: cny(level.price), num: level.quantity }));
  const listing = (entry: SimListing): BuffSellListing => ({
    id: entry.id,
    price: cny(entry.price),
    asset_info: {
      paintwear: entry.floatValue === null ? '' : String(entry.floatValue),
      paintseed: entry.paintSeed,
      paintindex: entry.paintIndex,
      phase: entry.phase,
      stickers: entry.stickers.map((name) => ({ name })),
      inspect_url: entry.inspectLink,
    },
  });
  const items = snapshot.rows.map(({ item, quote, sales, listings }): BuffGoodsItem => {
    const bid = quote.bid ?? [];
    const row: BuffGoodsItem = {
      id: item.key % 1_000_000,
      market_hash_name: item.name,
      sell_min_price: cny(quote.ask[0]!.price),
      buy_max_price: bid[0] ? cny(bid[0].price) : '0',
      sell_num: quote.listingCount,
      buy_num: quote.orderCount ?? 0,
      sell_orders: levels(quote.ask),
      buy_orders: levels(bid),
    };
    if (sales.length > 0) {
      row.bill_orders = sales.map((sale) => ({
        price: cny(sale.price),
        transact_time: unixSeconds(sale.soldAt),
      }));
    }
    if (listings) row.sell_listings = listings.map(listing);
    return row;
  });
  const page = { page_num: 1, page_size: items.length, total_page: 1, total_count: items.length };
  return { code: 'OK', msg: null, data: { items, ...page } };
}

function skinportBody(snapshot: SimSnapshot): SkinportBundle {
  const { currency, scale } = snapshot;
  const major = (units: number) => units / scale;
  const items = snapshot.rows.map(({ item, quote }): SkinportItem => {
    const min = quote.ask[0]!.price;
    const slug = encodeURIComponent(item.item.slug);
    return {
      market_hash_name: item.name,
      currency,
      suggested_price: major(Math.round(min * 1.12)),
      item_page: `https://skinport.com/item/${slug}`,
      market_page: `https://skinport.com/market?search=${slug}`,
      min_price: major(min),
      max_price: major(Math.round(min * 2.4)),
      mean_price: major(Math.round(min * 1.31)),
      median_price: major(Math.round(min * 1.14)),
      quantity: quote.listingCount,
      created_at: 1_535_988_253 + (item.key % 150_000_000),
      updated_at: unixSeconds(snapshot.dataTime),
    };
  });
  const sales = snapshot.rows.flatMap(({ item, sales: sold }) =>
    sold.map((sale) => ({
      market_hash_name: item.name,
      currency,
      price: major(sale.price),
      sold_at: unixSeconds(sale.soldAt),
    })),
  );
  return { items, sales };
}

function waxpeerDepth(row: SimRow): WaxpeerDepth {
  return {
    listings: (row.listings ?? []).map((entry) => ({
      item_id: entry.id,
      price: entry.price,
      float: entry.floatValue,
      paint_index: entry.paintIndex,
      paint_seed: entry.paintSeed,
      phase: entry.phase,
    })),
    orders: (row.quote.bid ?? []).map((level) => ({ price: level.price, amount: level.quantity })),
    history: row.sales.map((sale) => ({ price: sale.price, sold_at: unixSeconds(sale.soldAt) })),
  };
}

function waxpeerBody(snapshot: SimSnapshot): WaxpeerBundle {
  const data: Record<string, WaxpeerDepth> = {};
  const items = snapshot.rows.map((row) => {
    if (row.quote.bid !== null) data[row.item.name] = waxpeerDepth(row);
    const min = row.quote.ask[0]!.price;
    return {
      name: row.item.name,
      count: row.quote.listingCount,
      min,
      steam_price: Math.round(min * 1.2),
    };
  });
  const hasDepth = Object.keys(data).length > 0;
  return { prices: { success: true, items }, massInfo: hasDepth ? { success: true, data } : null };
}

function centsListing(entry: SimListing): CentsListing {
  return {
    id: entry.id,
    price: entry.price,
    float_value: entry.floatValue,
    paint_seed: entry.paintSeed,
    paint_index: entry.paintIndex,
    phase: entry.phase,
    inspect_link: entry.inspectLink,
    stickers: entry.stickers.map((name) => ({ name })),
    is_stattrak: entry.isStatTrak,
  };
}

function centsBody(snapshot: SimSnapshot): CentsLadderBody {
  const asString = snapshot.market === 'dmarket';
  const levels = (side: RawLevel[]) =>
    side.map((level) => ({
      price: asString ? String(level.price) : level.price,
      quantity: level.quantity,
      orders: level.orders,
    }));
  const items = snapshot.rows.map(({ item, quote, sales, listings }): CentsLadderItem => {
    const row: CentsLadderItem = {
      market_hash_name: item.name,
      listing_count: quote.listingCount,
      asks: levels(quote.ask),
    };
    if (quote.bid !== null) {
      row.bids = levels(quote.bid);
      row.order_count = quote.orderCount;
    }
    if (sales.length > 0) {
      row.sales = sales.map((sale) => ({
        price: sale.price,
        quantity: sale.quantity,
        sold_at: unixSeconds(sale.soldAt),
      }));
    }
    if (listings) row.listings = listings.map(centsListing);
    return row;
  });
  return { currency: snapshot.currency, updated_at: unixSeconds(snapshot.dataTime), items };
}

function decimalBody(snapshot: SimSnapshot): UsdDecimalBody {
  const usd = (units: number) => decimalString(units, snapshot.scale);
  const levels = (side: RawLevel[]) =>
    side.map((level) => ({ price: usd(level.price), count: level.quantity }));
  const listing = (entry: SimListing): DecimalListing => ({
    id: entry.id,
    price: usd(entry.price),
    float: entry.floatValue,
    paint_seed: entry.paintSeed,
    paint_index: entry.paintIndex,
    phase: entry.phase,
    inspect_link: entry.inspectLink,
    stickers: entry.stickers.map((name) => ({ name })),
  });
  const items = snapshot.rows.map(({ quote, item, sales, listings }): UsdDecimalItem => {
    const row: UsdDecimalItem = {
      market_hash_name: item.name,
      price: usd(quote.ask[0]!.price),
      volume: quote.listingCount,
    };
    if (quote.ask.length > 1 || quote.bid !== null) row.ask = levels(quote.ask);
    if (quote.bid !== null) {
      row.bid = levels(quote.bid);
      row.buy_volume = quote.orderCount ?? 0;
    }
    if (sales.length > 0)
      row.history = sales.map((sale) => ({
        price: usd(sale.price),
        time: unixSeconds(sale.soldAt),
      }));
    if (listings) row.listings = listings.map(listing);
    return row;
  });
  return {
    success: true,
    time: unixSeconds(snapshot.dataTime),
    currency: snapshot.currency,
    items,
  };
}

export const WRITERS: Readonly<Record<FormatId, (snapshot: SimSnapshot) => unknown>> = {
  'buff-goods': buffBody,
  'skinport-items': skinportBody,
  'waxpeer-prices': waxpeerBody,
  'cents-ladder': centsBody,
  'usd-decimal': decimalBody,
};
