/**
 * One market as its folder (`src/markets/<id>/market.ts`) declares it: who it is (`info`, what
 * the simulator and health use), its live connector if it has one, the parser of each response
 * kind (the connector's own; a simulated-only market's folder has its own), and its simulator
 * profile and writer. The registry lists these, one line per market.
 */
import type { Connector, ResponseParser } from './connector.ts';
import type { MarketInfo } from './market-adapter.ts';
import type { SimMarket } from './sim/sim-market.ts';

export interface MarketDefinition {
  info: MarketInfo;
  connector: Connector | null;
  parsers: Readonly<Record<string, ResponseParser>>;
  sim: SimMarket;
}

/**
 * A market with a live connector: its info is the connector's (the simulator polls it every
 * `simCadenceMs`), and the simulator reads its answers with the connector's own parsers.
 */
export function liveMarket(
  connector: Connector,
  sim: SimMarket,
  simCadenceMs = connector.info.cadenceMs,
): MarketDefinition {
  const { id, displayName, games, currency, scale, capabilities, docsUrl } = connector.info;
  const info = { id, displayName, games, currency, scale, capabilities, docsUrl };
  return { info: { ...info, cadenceMs: simCadenceMs }, connector, parsers: connector.parsers, sim };
}
