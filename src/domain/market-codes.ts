/**
 * Every market, its on-disk code (the number stored for it in rollup tallies and the rollup
 * journal) and the games it lists. This table is where a market id is introduced (MARKET_IDS,
 * MARKETS_BY_GAME and the MarketId type are read off it): a new market is appended with the
 * next unused code, never renumbered, and a code is never reused, so what stored figures mean
 * never depends on anything else.
 * market-codes.test.ts pins every code given so far.
 */
const CS2 = ['cs2'] as const;
const RUST = ['rust'] as const;
const BOTH = ['cs2', 'rust'] as const;

/** Every market: its stored code and the games it lists. Append; never renumber or reuse. */
export const MARKETS = Object.freeze({
  steamcommunity: { code: 0, games: BOTH },
  skinport: { code: 1, games: BOTH },
  buff163: { code: 2, games: CS2 },
  csfloat: { code: 3, games: CS2 },
  dmarket: { code: 4, games: BOTH },
  marketcsgo: { code: 5, games: CS2 },
  waxpeer: { code: 6, games: BOTH },
  csdeals: { code: 7, games: BOTH },
  'lis-skins': { code: 8, games: BOTH },
  whitemarket: { code: 9, games: CS2 },
  skindeck: { code: 10, games: CS2 },
  cstrade: { code: 11, games: BOTH },
  itrade: { code: 12, games: BOTH },
  swapgg: { code: 13, games: BOTH },
  lootfarm: { code: 14, games: BOTH },
  avanmarket: { code: 15, games: CS2 },
  'tradeit-store': { code: 16, games: BOTH },
  'tradeit-trade': { code: 17, games: BOTH },
  rusttm: { code: 18, games: RUST },
  rustskins: { code: 19, games: RUST },
  'mannco-store': { code: 20, games: RUST },
} as const);

/** Market ids exactly as the public service spells them. */
export type MarketId = keyof typeof MARKETS;

export const MARKET_CODES: Readonly<Record<MarketId, number>> = Object.freeze(
  Object.fromEntries(Object.entries(MARKETS).map(([id, market]) => [id, market.code])) as Record<
    MarketId,
    number
  >,
);

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
