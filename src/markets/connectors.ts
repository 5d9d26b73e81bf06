/**
 * The live connectors, as an explicit list (no autoload). `pricing serve --source live` polls
 * each one that is enabled for a game it lists; markets without a connector here have no usable
 * public API and stay simulated-only (docs/markets.md).
 */
import type { MarketId } from '../domain/markets.ts';
import type { Connector } from './connector.ts';
import { connector as buff163 } from './buff163/connector.ts';
import { connector as csdeals } from './csdeals/connector.ts';
import { connector as csfloat } from './csfloat/connector.ts';
import { connector as cstrade } from './cstrade/connector.ts';
import { connector as dmarket } from './dmarket/connector.ts';
import { connector as lisSkins } from './lis-skins/connector.ts';
import { connector as lootfarm } from './lootfarm/connector.ts';
import { connector as mannco } from './mannco-store/connector.ts';
import { connector as marketcsgo } from './marketcsgo/connector.ts';
import { connector as rustskins } from './rustskins/connector.ts';
import { connector as rusttm } from './rusttm/connector.ts';
import { connector as skinport } from './skinport/connector.ts';
import { connector as steamcommunity } from './steamcommunity/connector.ts';
import { connector as tradeitStore } from './tradeit-store/connector.ts';
import { connector as tradeitTrade } from './tradeit-trade/connector.ts';
import { connector as waxpeer } from './waxpeer/connector.ts';
import { connector as whitemarket } from './whitemarket/connector.ts';

export const LIVE_CONNECTORS: readonly Connector[] = [
  steamcommunity,
  skinport,
  buff163,
  csfloat,
  marketcsgo,
  waxpeer,
  csdeals,
  lisSkins,
  whitemarket,
  dmarket,
  rusttm,
  rustskins,
  lootfarm,
  cstrade,
  mannco,
  tradeitStore,
  tradeitTrade,
];

export function liveConnector(market: MarketId): Connector | undefined {
  return LIVE_CONNECTORS.find((connector) => connector.info.id === market);
}
