/**
 * The markets liquidity is estimated on, per game, as the public service lists them
 * (shared/reference/service-conventions.md, "Liquidity markets on the public service"), in
 * that order: the order of `metrics[]` and of `notes[]`, and the tie-break for the best market.
 */
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';

export const LIQUIDITY_MARKETS: Readonly<Record<Game, readonly MarketId[]>> = {
  cs2: ['skinport', 'marketcsgo', 'dmarket', 'csfloat', 'steamcommunity'],
  rust: ['rusttm', 'skinport'],
};

export function isLiquidityMarket(game: Game, market: string): market is MarketId {
  return (LIQUIDITY_MARKETS[game] as readonly string[]).includes(market);
}
