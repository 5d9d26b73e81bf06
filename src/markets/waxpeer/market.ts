import { liveMarket } from '../market-definition.ts';
import { connector } from './connector.ts';
import { sim } from './sim.ts';

export const market = liveMarket(connector, sim);
