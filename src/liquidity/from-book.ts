/** Reads one item's liquidity inputs from the book and estimates it (the book is only read). */
import type { Book } from '../book/book.ts';
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Cents } from '../domain/money.ts';
import type { ItemRef } from '../pricing/book-view.ts';
import { liquidityRecord, type LiquidityRecord } from './estimate.ts';

export function liquidityFromBook(
  book: Pick<Book, 'sides' | 'sales' | 'salesStats'>,
  game: Game,
  item: ItemRef,
  markets: readonly MarketId[],
  askPrice: Cents | null,
  now: number,
): LiquidityRecord {
  return liquidityRecord({
    item,
    markets,
    sides: book.sides(game, item.id),
    sales: book.sales(game, item.id),
    salesStats: book.salesStats(game, item.id),
    askPrice,
    now,
  });
}
