/**
 * Applies price-stream messages (docs/api/stream-and-alerts.md) to the item page's data: the
 * snapshot replaces the per-market rows and the NBBO; `quote` replaces or removes one market's
 * row, keeping asks cheapest first and bids highest first; `stale` flags a row; `nbbo` replaces
 * the best ask, best bid and spread. Pure: returns a new ItemData.
 */
import type { ItemData } from './api.ts';

type Pricing = ItemData['pricing'];
type AskRow = Pricing['markets'][number];
type BidRow = Pricing['buyOrders'][number];
type Row = { market: string; price: number };

const byAsk = (a: Row, b: Row) => a.price - b.price || a.market.localeCompare(b.market);
const byBid = (a: Row, b: Row) => b.price - a.price || a.market.localeCompare(b.market);

interface SnapshotItem {
  nbbo: ItemData['nbbo'];
  markets: AskRow[];
  buyOrders: BidRow[];
}

function replaceRow<T extends Row>(
  rows: readonly T[],
  market: string,
  row: T | null,
  order: (a: T, b: T) => number,
): T[] {
  const kept = rows.filter((held) => held.market !== market);
  if (row) kept.push(row);
  return kept.sort(order);
}

export function applyStreamEvent(data: ItemData, event: string, payload: unknown): ItemData {
  const body = payload as Record<string, unknown>;
  if (event === 'snapshot') {
    const item = (body.items as SnapshotItem[] | undefined)?.[0];
    if (!item) return data;
    return {
      ...data,
      nbbo: item.nbbo,
      pricing: { ...data.pricing, markets: item.markets, buyOrders: item.buyOrders },
    };
  }
  const market = String(body.market);
  if (event === 'quote' && body.side === 'ask') {
    const markets = replaceRow(data.pricing.markets, market, body.quote as AskRow | null, byAsk);
    return { ...data, pricing: { ...data.pricing, markets } };
  }
  if (event === 'quote') {
    const buyOrders = replaceRow(
      data.pricing.buyOrders,
      market,
      body.quote as BidRow | null,
      byBid,
    );
    return { ...data, pricing: { ...data.pricing, buyOrders } };
  }
  if (event === 'stale') {
    const flag = <T extends Row & { isStale: boolean }>(row: T): T =>
      row.market === market ? { ...row, isStale: true } : row;
    const list = body.side === 'ask' ? 'markets' : 'buyOrders';
    return list === 'markets'
      ? { ...data, pricing: { ...data.pricing, markets: data.pricing.markets.map(flag) } }
      : { ...data, pricing: { ...data.pricing, buyOrders: data.pricing.buyOrders.map(flag) } };
  }
  if (event === 'nbbo') {
    const top = body as Pick<
      ItemData['nbbo'],
      'bestAsk' | 'bestBid' | 'spreadBps' | 'calculatedAt'
    >;
    const { bestAsk, bestBid, spreadBps, calculatedAt } = top;
    return { ...data, nbbo: { ...data.nbbo, bestAsk, bestBid, spreadBps, calculatedAt } };
  }
  return data;
}
