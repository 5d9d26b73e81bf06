/**
 * Every market and its on-disk code: the number stored for it in rollup tallies and the rollup
 * journal. This table is where a market id is introduced (MARKET_IDS and the MarketId type are
 * read off it): a new market is appended with the next unused code, never renumbered, and a
 * code is never reused, so what stored figures mean never depends on anything else.
 * market-codes.test.ts pins every code given so far.
 */
export const MARKET_CODES = Object.freeze({
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
} as const);

/** Market ids exactly as the public service spells them. */
export type MarketId = keyof typeof MARKET_CODES;

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
