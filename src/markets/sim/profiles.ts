/**
 * How each simulated market behaves, as data. Levels are multiples of an item's true price
 * (Buff cheap, Steam ~17% dear, trade bots in between); `coverage` is the share of the
 * catalog listed at full popularity; `salesShare` scales the item's daily sales rate;
 * `ladder` says whether the wire format carries several ask levels or only the best price;
 * `cacheMs` is how old the upstream export can be; faults are per day. Bid sides are always
 * ladders (every bid market has a depth endpoint).
 */
import type { MarketId } from '../../domain/markets.ts';
import { MINUTE } from '../../domain/clock.ts';

export interface SimProfile {
  askLevel: number;
  /** Top bid as a multiple of true price; null on markets without buy orders. */
  bidLevel: number | null;
  coverage: number;
  salesShare: number;
  ladder: boolean;
  /** Whether ladder levels carry an order count. */
  countsOrders: boolean;
  cacheMs: number;
  outagesPerDay: number;
  /** Typical response time of one full fetch. */
  latencyMs: number;
}

/**
 * Markets that quote Doppler phases as items of their own (a phase field, paint index, tag or
 * spliced name, per the reference table); the others only quote the base name.
 */
export const PHASE_MARKETS: ReadonlySet<MarketId> = new Set<MarketId>([
  'buff163',
  'csfloat',
  'dmarket',
  'marketcsgo',
  'waxpeer',
  'csdeals',
  'whitemarket',
  'lootfarm',
  'avanmarket',
]);

const BULK = { ladder: false, countsOrders: false, bidLevel: null } as const;

// prettier-ignore
export const SIM_PROFILES: Readonly<Record<MarketId, SimProfile>> = {
  steamcommunity: { askLevel: 1.17, bidLevel: 0.93, coverage: 1, salesShare: 1, ladder: true, countsOrders: true, cacheMs: 0, outagesPerDay: 2, latencyMs: 2500 },
  skinport: { ...BULK, askLevel: 0.98, coverage: 0.85, salesShare: 0.3, cacheMs: 5 * MINUTE, outagesPerDay: 1, latencyMs: 1800 },
  buff163: { askLevel: 0.94, bidLevel: 0.9, coverage: 0.97, salesShare: 0.8, ladder: true, countsOrders: false, cacheMs: 0, outagesPerDay: 2, latencyMs: 4000 },
  csfloat: { askLevel: 0.98, bidLevel: 0.92, coverage: 0.8, salesShare: 0.3, ladder: true, countsOrders: true, cacheMs: 0, outagesPerDay: 1, latencyMs: 700 },
  dmarket: { askLevel: 1.0, bidLevel: 0.9, coverage: 0.85, salesShare: 0.25, ladder: true, countsOrders: true, cacheMs: 0, outagesPerDay: 1.5, latencyMs: 900 },
  marketcsgo: { askLevel: 0.99, bidLevel: 0.91, coverage: 0.9, salesShare: 0.3, ladder: true, countsOrders: false, cacheMs: 0, outagesPerDay: 1, latencyMs: 1200 },
  waxpeer: { ...BULK, askLevel: 0.98, bidLevel: 0.89, coverage: 0.8, salesShare: 0.2, cacheMs: 0, outagesPerDay: 1, latencyMs: 800 },
  csdeals: { ...BULK, askLevel: 1.03, coverage: 0.7, salesShare: 0.1, cacheMs: 0, outagesPerDay: 1, latencyMs: 1500 },
  'lis-skins': { ...BULK, askLevel: 0.95, coverage: 0.75, salesShare: 0, cacheMs: 10 * MINUTE, outagesPerDay: 0.5, latencyMs: 3000 },
  whitemarket: { ...BULK, askLevel: 0.96, coverage: 0.6, salesShare: 0.08, cacheMs: 10 * MINUTE, outagesPerDay: 0.5, latencyMs: 1000 },
  skindeck: { ...BULK, askLevel: 1.0, coverage: 0.4, salesShare: 0, cacheMs: 0, outagesPerDay: 1.5, latencyMs: 1500 },
  cstrade: { ...BULK, askLevel: 1.08, coverage: 0.55, salesShare: 0, cacheMs: 0, outagesPerDay: 1, latencyMs: 1500 },
  itrade: { ...BULK, askLevel: 1.05, coverage: 0.5, salesShare: 0, cacheMs: 0, outagesPerDay: 1, latencyMs: 2000 },
  swapgg: { ...BULK, askLevel: 1.06, coverage: 0.5, salesShare: 0, cacheMs: 0, outagesPerDay: 1, latencyMs: 1500 },
  lootfarm: { ...BULK, askLevel: 1.07, coverage: 0.55, salesShare: 0, cacheMs: 0, outagesPerDay: 1, latencyMs: 1500 },
  avanmarket: { ...BULK, askLevel: 0.97, coverage: 0.35, salesShare: 0, cacheMs: 0, outagesPerDay: 1, latencyMs: 2000 },
  'tradeit-store': { ...BULK, askLevel: 1.04, coverage: 0.6, salesShare: 0, cacheMs: 0, outagesPerDay: 1, latencyMs: 1500 },
  'tradeit-trade': { ...BULK, askLevel: 1.1, coverage: 0.6, salesShare: 0, cacheMs: 0, outagesPerDay: 1, latencyMs: 1500 },
  rusttm: { ...BULK, askLevel: 1.0, coverage: 0.85, salesShare: 0, cacheMs: 0, outagesPerDay: 0.5, latencyMs: 1000 },
  rustskins: { ...BULK, askLevel: 0.97, coverage: 0.6, salesShare: 0, cacheMs: 0, outagesPerDay: 0.5, latencyMs: 1200 },
  'mannco-store': { ...BULK, askLevel: 1.02, coverage: 0.5, salesShare: 0, cacheMs: 0, outagesPerDay: 1, latencyMs: 2000 },
};
