/**
 * The on-disk code of every market: the number stored for it in rollup tallies and the rollup
 * journal. Frozen and explicit, so the order of MARKET_IDS (a display order) never decides
 * what stored figures mean: a new market takes the next unused code (append, never renumber),
 * and a code is never reused. Typing the table by MarketId makes a market without a code a
 * compile error; market-codes.test.ts pins every code given so far.
 */
import type { MarketId } from './markets.ts';

export const MARKET_CODES: Readonly<Record<MarketId, number>> = Object.freeze({
  steamcommunity: 0,
  skinport: 1,
  buff163: 2,
  csfloat: 3,
  dmarket: 4,
  marketcsgo: 5,
  waxpeer: 6,
  csdeals: 7,
  'lis-skins': 8,
  whitemarket: 9,
  skindeck: 10,
  cstrade: 11,
  itrade: 12,
  swapgg: 13,
  lootfarm: 14,
  avanmarket: 15,
  'tradeit-store': 16,
  'tradeit-trade': 17,
  rusttm: 18,
  rustskins: 19,
  'mannco-store': 20,
});

const BY_CODE: readonly (MarketId | undefined)[] = (() => {
  const out: (MarketId | undefined)[] = [];
  for (const [market, code] of Object.entries(MARKET_CODES)) out[code] = market as MarketId;
  return out;
})();

export function marketCode(market: MarketId): number {
  return MARKET_CODES[market];
}

/** The market a stored code stands for; undefined for a code no market has. */
export function marketOfCode(code: number): MarketId | undefined {
  return BY_CODE[code];
}
