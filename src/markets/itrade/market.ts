/** iTrade.gg: simulated only (no usable public API, docs/markets.md); answers in the shared export. */
import { MINUTE } from '../../domain/clock.ts';
import { simulatedOnly } from '../simulated-only.ts';

export const market = simulatedOnly(
  {
    id: 'itrade',
    displayName: 'iTrade.gg',
    games: ['cs2', 'rust'],
    currency: 'USD',
    scale: 100,
    cadenceMs: 15 * MINUTE,
    capabilities: { asks: true, bids: false, sales: false, listings: false, floats: false },
    docsUrl: 'https://github.com/Steam-Community-Market-Manager/SCMM',
  },
  { askLevel: 1.05, coverage: 0.5, outagesPerDay: 1, latencyMs: 2000 },
);
