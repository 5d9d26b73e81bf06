/**
 * Tradeit.gg Store: what the site's store sells each item for (`storePrice`, integer US cents)
 * and the bots' stock. The endpoint, units, paging, limits and caveats are shared with
 * `tradeit-trade` and documented in `./inventory.ts`. SCMM records a 35% bonus on cash and
 * crypto deposits and a card surcharge of $0.30 + 0.28% (`MarketType.cs`, `TradeitGG`), a
 * fee-table matter not applied here.
 */
import type { Connector } from '../connector.ts';
import { tradeitConnector } from './inventory.ts';

export const connector: Connector = tradeitConnector(
  'tradeit-store',
  'Tradeit.gg Store',
  'storePrice',
  'asks (store price, bot stock) for every item group the bots hold',
);
