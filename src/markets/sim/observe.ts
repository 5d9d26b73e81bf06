/**
 * The book observations a market's parsers yield for a simulated row, built directly (no body
 * round trip) for the backfill, where speed matters: the market's profile says whether its
 * answers carry ladders or only the best price, listing counts, and a source time. The
 * consistency test in backfill.test.ts checks their best prices equal what the live parsers
 * read from the written answers.
 */
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { BookObservation, Observation, RawLevel } from '../../domain/observation.ts';
import { SIM_PROFILES } from './profiles.ts';
import type { NativeSale, SimQuote } from './sim-market.ts';
import { topOf, unixSeconds } from './wire.ts';

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
  const profile = SIM_PROFILES[ctx.market];
  const full: RawLevel[] = side === 'ask' ? quote.ask : (quote.bid ?? []);
  const kind = profile.sourceTime;
  const count = side === 'ask' ? quote.listingCount : quote.orderCount;
  return {
    game: ctx.game,
    market: ctx.market,
    item: name,
    currency: ctx.currency,
    scale: ctx.scale,
    kind: 'book',
    side,
    levels: profile.ladder ? full : topOf(full),
    listingCount: side === 'ask' && !profile.listingCounts ? null : count,
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
