import type { Game } from './games.ts';

/** Market ids exactly as the public service spells them. */
export const MARKET_IDS = [
  'steamcommunity',
  'skinport',
  'buff163',
  'csfloat',
  'dmarket',
  'marketcsgo',
  'waxpeer',
  'csdeals',
  'lis-skins',
  'whitemarket',
  'skindeck',
  'cstrade',
  'itrade',
  'swapgg',
  'lootfarm',
  'avanmarket',
  'tradeit-store',
  'tradeit-trade',
  'rusttm',
  'rustskins',
  'mannco-store',
] as const;
export type MarketId = (typeof MARKET_IDS)[number];

/** Bids here pay in store credit that cannot be withdrawn. */
export const WALLET_MARKET_ID: MarketId = 'steamcommunity';
/** The one market with native float / fade / phase buckets. */
export const NATIVE_MARKET_ID: MarketId = 'buff163';

const RUST_ONLY: readonly MarketId[] = ['rusttm', 'rustskins', 'mannco-store'];
const ALSO_RUST: readonly MarketId[] = [
  'steamcommunity',
  'skinport',
  'dmarket',
  'waxpeer',
  'csdeals',
  'lis-skins',
  'cstrade',
  'itrade',
  'swapgg',
  'lootfarm',
  'tradeit-store',
  'tradeit-trade',
];

export const MARKETS_BY_GAME: Readonly<Record<Game, readonly MarketId[]>> = {
  cs2: MARKET_IDS.filter((id) => !RUST_ONLY.includes(id)),
  rust: MARKET_IDS.filter((id) => RUST_ONLY.includes(id) || ALSO_RUST.includes(id)),
};

export function isMarketId(value: string): value is MarketId {
  return (MARKET_IDS as readonly string[]).includes(value);
}
