/**
 * The item page's later capabilities, computed as their key-gated routes compute them: the
 * liquidity estimate (as /v2/liquidity/:name over every liquidity market, at the best ask) and
 * the cheapest individual listings with float data (as /v2/pricing/:name/listings, at most
 * TERMINAL_LISTINGS rows).
 */

import { itemListings } from '../attributes/item-listings.ts';
import { listingsResponse } from '../attributes/listings-view.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { AppDeps } from '../http/deps.ts';
import { liquidityScope } from '../http/routes/liquidity.ts';
import { LiquidityRecord } from '../http/schemas/liquidity.ts';
import { Listings } from '../http/schemas/listings.ts';
import { DEFAULT_RETENTION } from '../ingest/retention.ts';
import { liquidityFromBook } from '../liquidity/from-book.ts';
import { ALL_MARKETS } from '../pricing/top-of-book.ts';

export const TERMINAL_LISTINGS = 10;

export const ItemExtras = {
  liquidity: LiquidityRecord,
  listings: Listings,
};

export function itemExtras(deps: AppDeps, item: CatalogItem, now: number) {
  const game = item.game;
  const sides = deps.book.sides(game, item.id);
  return {
    liquidity: liquidityFromBook(deps.book, game, item, liquidityScope(game, undefined), null, now),
    listings: listingsResponse({
      item,
      listings: itemListings(deps.book, deps.catalogs[game], item),
      asks: sides.flatMap((entry) => (entry.ask ? [entry.ask] : [])),
      selection: ALL_MARKETS,
      limit: TERMINAL_LISTINGS,
      now,
      maxAgeMs: DEFAULT_RETENTION.listingsUnseenMs,
    }),
  };
}
