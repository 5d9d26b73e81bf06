/** SkinDeck: simulated only (no usable public API, docs/markets.md); answers in the shared export. */
import { MINUTE } from '../../domain/clock.ts';
import { simulatedOnly } from '../simulated-only.ts';

export const market = simulatedOnly(
  {
    id: 'skindeck',
    displayName: 'SkinDeck',
    games: ['cs2'],
    currency: 'USD',
    scale: 100,
    cadenceMs: 10 * MINUTE,
    capabilities: { asks: true, bids: false, sales: false, listings: false, floats: false },
    docsUrl: null,
  },
  { askLevel: 1.0, coverage: 0.4, outagesPerDay: 1.5, latencyMs: 1500 },
);
