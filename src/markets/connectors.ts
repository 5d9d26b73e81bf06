/**
 * The live connectors: those of the registry's markets that have one. `pricing serve --source
 * live` polls each one that is enabled for a game it lists; markets without a connector have no
 * usable public API and stay simulated-only (docs/markets.md).
 */
import type { MarketId } from '../domain/markets.ts';
import type { Connector } from './connector.ts';
import { MARKET_DEFINITIONS } from './registry.ts';

export const LIVE_CONNECTORS: readonly Connector[] = Object.values(MARKET_DEFINITIONS).flatMap(
  (market) => (market.connector ? [market.connector] : []),
);

export function liveConnector(market: MarketId): Connector | undefined {
  return MARKET_DEFINITIONS[market].connector ?? undefined;
}
