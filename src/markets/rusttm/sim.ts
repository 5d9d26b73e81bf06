/** RUST.TM simulated: the Market.CSGO API on rust.tm (../marketcsgo/sim.ts). */
import { TM_PROFILE, tmSim } from '../marketcsgo/sim.ts';
import { connector } from './connector.ts';

export const sim = tmSim(connector, {
  ...TM_PROFILE,
  askLevel: 1.0,
  bidLevel: 0.9,
  coverage: 0.85,
  salesShare: 0.1,
  quotesPhases: false,
  outagesPerDay: 0.5,
  latencyMs: 1000,
});
