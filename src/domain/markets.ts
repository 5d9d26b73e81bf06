import type { Game } from './games.ts';
import { MARKET_CODES, MARKETS, type MarketId } from './market-codes.ts';

export type { MarketId } from './market-codes.ts';

/** Every market id, in the order their codes were given (the display order). */
export const MARKET_IDS: readonly MarketId[] = Object.freeze(
  (Object.keys(MARKET_CODES) as MarketId[]).sort((a, b) => MARKET_CODES[a] - MARKET_CODES[b]),
);

/** Bids here pay in store credit that cannot be withdrawn. */
export const WALLET_MARKET_ID: MarketId = 'steamcommunity';
/** The one market with native float / fade / phase buckets. */
export const NATIVE_MARKET_ID: MarketId = 'buff163';

export const MARKETS_BY_GAME: Readonly<Record<Game, readonly MarketId[]>> = {
  cs2: MARKET_IDS.filter((id) => (MARKETS[id].games as readonly Game[]).includes('cs2')),
  rust: MARKET_IDS.filter((id) => (MARKETS[id].games as readonly Game[]).includes('rust')),
};

export function isMarketId(value: string): value is MarketId {
  return (MARKET_IDS as readonly string[]).includes(value);
}
