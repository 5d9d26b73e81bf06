/**
 * Each market's simulator profile, as its folder declares it (`<id>/sim.ts`; the fields in
 * sim-market.ts): levels are multiples of an item's true price, `coverage` the share of the
 * catalog listed at full popularity, `salesShare` scales the daily sales rate, faults per day.
 */
import type { MarketId } from '../../domain/markets.ts';
import { MARKET_DEFINITIONS } from '../registry.ts';
import type { SimProfile } from './sim-market.ts';

export const SIM_PROFILES: Readonly<Record<MarketId, SimProfile>> = Object.fromEntries(
  Object.values(MARKET_DEFINITIONS).map((market) => [market.info.id, market.sim.profile]),
) as Record<MarketId, SimProfile>;
