/**
 * The observations a market's parser yields for a simulated row, built directly (no body
 * round trip) for the backfill, where speed matters. The consistency test in
 * backfill.test.ts checks these equal what the real parsers read from the written bodies.
 */
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { BookObservation, Observation } from '../../domain/observation.ts';
import { FORMAT_BY_MARKET, type FormatId } from '../formats/index.ts';
import type { SimQuote } from './quote.ts';
import type { NativeSale } from './snapshot.ts';
import { unixSeconds } from './writers.ts';

/** The source time each format carries, named by what it means. */
export const SOURCE_TIME_KIND: Readonly<Record<FormatId, string | null>> = {
  'buff-goods': null,
  'skinport-items': 'updated_at',
  'waxpeer-prices': null,
  'cents-ladder': 'updated_at',
  'usd-decimal': 'generated_at',
};

export interface RowContext {
  game: Game;
  market: MarketId;
  currency: string;
  scale: number;
  fetchedAt: number;
  dataTime: number;
}

function book(
  ctx: RowContext,
  name: string,
  side: 'ask' | 'bid',
  quote: SimQuote,
): BookObservation {
  const kind = SOURCE_TIME_KIND[FORMAT_BY_MARKET[ctx.market]];
  return {
    game: ctx.game,
    market: ctx.market,
    item: name,
    currency: ctx.currency,
    scale: ctx.scale,
    kind: 'book',
    side,
    levels: side === 'ask' ? quote.ask : (quote.bid ?? []),
    listingCount: side === 'ask' ? quote.listingCount : quote.orderCount,
    fetchedAt: ctx.fetchedAt,
    sourceUpdatedAt: kind === null ? null : unixSeconds(ctx.dataTime) * 1000,
    sourceTimeKind: kind,
  };
}

/** Ask and (when the row reports it) bid snapshots, then the row's sales. */
export function pushRowObservations(
  out: Observation[],
  ctx: RowContext,
  name: string,
  quote: SimQuote,
  sales: readonly NativeSale[],
): void {
  out.push(book(ctx, name, 'ask', quote));
  if (quote.bid !== null) out.push(book(ctx, name, 'bid', quote));
  for (const sale of sales) {
    const { game, market, currency, scale } = ctx;
    out.push({
      game,
      market,
      item: name,
      currency,
      scale,
      kind: 'sale',
      price: sale.price,
      quantity: sale.quantity,
      soldAt: sale.soldAt,
    });
  }
}
