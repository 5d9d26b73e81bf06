/** Swap.gg: simulated only (no usable public API, docs/markets.md); answers in the shared export. */
import { MINUTE } from '../../domain/clock.ts';
import { simulatedOnly } from '../simulated-only.ts';

export const market = simulatedOnly(
  {
    id: 'swapgg',
    displayName: 'Swap.gg',
    games: ['cs2', 'rust'],
    currency: 'USD',
    scale: 100,
    cadenceMs: 10 * MINUTE,
    capabilities: { asks: true, bids: false, sales: false, listings: false, floats: false },
    docsUrl: 'https://github.com/Steam-Community-Market-Manager/SCMM',
  },
  { askLevel: 1.06, coverage: 0.5, outagesPerDay: 1, latencyMs: 1500 },
);
