/**
 * Tradeit.gg Trade: what each item the bots hold is worth in a trade (`price`, integer US
 * cents; the field SCMM reads) and the bots' stock. The endpoint, units, paging, limits and
 * caveats are shared with `tradeit-store` and documented in `../tradeit-store/inventory.ts`;
 * both connectors read the same pages, each on its own budget.
 */
import type { Connector } from '../connector.ts';
import { tradeitConnector } from '../tradeit-store/inventory.ts';

export const connector: Connector = tradeitConnector(
  'tradeit-trade',
  'Tradeit.gg Trade',
  'price',
  'asks (trade value, bot stock) for every item group the bots hold',
);
