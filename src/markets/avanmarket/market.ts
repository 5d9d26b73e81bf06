/** Avan.market: simulated only (no usable public API, docs/markets.md); answers in the shared export. */
import { MINUTE } from '../../domain/clock.ts';
import { simulatedOnly } from '../simulated-only.ts';

export const market = simulatedOnly(
  {
    id: 'avanmarket',
    displayName: 'Avan.market',
    games: ['cs2'],
    currency: 'USD',
    scale: 100,
    cadenceMs: 15 * MINUTE,
    capabilities: { asks: true, bids: false, sales: false, listings: true, floats: true },
    docsUrl: 'https://github.com/GODrums/BetterFloat/blob/main/src/lib/@typings/AvanTypes.d.ts',
  },
  { askLevel: 0.97, coverage: 0.35, outagesPerDay: 1, latencyMs: 2000, quotesPhases: true },
);
