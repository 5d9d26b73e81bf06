/**
 * The explicit list of markets (no autoload): one line per market, each importing the market's
 * folder (`<id>/market.ts`: info, live connector, parsers, simulator profile and writer). The
 * simulator polls each market at its info's cadence, which is what a polite poller of that
 * source achieves and stays well under the 30-minute stale window (the connectors' own module
 * comments give the reasoning; CSFloat and the Tradeit views are simulated at a quicker
 * cadence than live polls them). Adding a market: docs/markets.md, "Adding a market".
 */
import type { MarketId } from '../domain/markets.ts';
import type { MarketInfo } from './market-adapter.ts';
import type { MarketDefinition } from './market-definition.ts';
import { market as avanmarket } from './avanmarket/market.ts';
import { market as buff163 } from './buff163/market.ts';
import { market as csdeals } from './csdeals/market.ts';
import { market as csfloat } from './csfloat/market.ts';
import { market as cstrade } from './cstrade/market.ts';
import { market as dmarket } from './dmarket/market.ts';
import { market as itrade } from './itrade/market.ts';
import { market as lisSkins } from './lis-skins/market.ts';
import { market as lootfarm } from './lootfarm/market.ts';
import { market as mannco } from './mannco-store/market.ts';
import { market as marketcsgo } from './marketcsgo/market.ts';
import { market as rustskins } from './rustskins/market.ts';
import { market as rusttm } from './rusttm/market.ts';
import { market as skindeck } from './skindeck/market.ts';
import { market as skinport } from './skinport/market.ts';
import { market as steamcommunity } from './steamcommunity/market.ts';
import { market as swapgg } from './swapgg/market.ts';
import { market as tradeitStore } from './tradeit-store/market.ts';
import { market as tradeitTrade } from './tradeit-trade/market.ts';
import { market as waxpeer } from './waxpeer/market.ts';
import { market as whitemarket } from './whitemarket/market.ts';

const MARKETS: readonly MarketDefinition[] = [
  steamcommunity,
  skinport,
  buff163,
  csfloat,
  dmarket,
  marketcsgo,
  waxpeer,
  csdeals,
  lisSkins,
  whitemarket,
  skindeck,
  cstrade,
  itrade,
  swapgg,
  lootfarm,
  avanmarket,
  tradeitStore,
  tradeitTrade,
  rusttm,
  rustskins,
  mannco,
];

export const MARKET_DEFINITIONS: Readonly<Record<MarketId, MarketDefinition>> = Object.fromEntries(
  MARKETS.map((market) => [market.info.id, market]),
) as Record<MarketId, MarketDefinition>;

export const MARKET_INFO: Readonly<Record<MarketId, MarketInfo>> = Object.fromEntries(
  MARKETS.map(({ info }) => [
    info.id,
    Object.freeze({ ...info, games: Object.freeze([...info.games]) }),
  ]),
) as Record<MarketId, MarketInfo>;

export function marketInfo(id: MarketId): MarketInfo {
  return MARKET_INFO[id];
}
