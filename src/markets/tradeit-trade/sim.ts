/** Tradeit.gg's trade view simulated: the same inventory, priced in `price` (../tradeit-store/sim.ts). */
import { inventorySim } from '../tradeit-store/sim.ts';
import { connector } from './connector.ts';

export const sim = inventorySim(connector, 'price', 1.1);
