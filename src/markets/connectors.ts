/**
 * The live connectors, as an explicit list (no autoload). `pricing serve --source live` polls
 * each one that is enabled for a game it lists; markets without a connector here have no usable
 * public API and stay simulated-only (README, "Live market data").
 */
import type { MarketId } from '../domain/markets.ts';
import type { Connector } from './connector.ts';
import { connector as skinport } from './skinport/connector.ts';

export const LIVE_CONNECTORS: readonly Connector[] = [skinport];

export function liveConnector(market: MarketId): Connector | undefined {
  return LIVE_CONNECTORS.find((connector) => connector.info.id === market);
}
