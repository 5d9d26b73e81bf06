/**
 * Which FX table ingest converts with: an operator's file wins; with the simulator as the
 * source, the simulated world's own rates at boot (so its EUR and CNY quotes convert back to
 * the USD prices it modelled); otherwise the built-in snapshot.
 */
import type { ServeConfig } from '../config.ts';
import { DEFAULT_FX, loadFxTable, type FxTable } from '../ingest/fx.ts';
import { simFxRates } from '../markets/sim/price-model.ts';

export async function chooseFxTable(
  config: Pick<ServeConfig, 'fxFile' | 'source' | 'seed'>,
  now: number,
): Promise<FxTable> {
  if (config.fxFile) return loadFxTable(config.fxFile);
  if (config.source !== 'sim') return DEFAULT_FX;
  const simulated = simFxRates(config.seed, now);
  return {
    asOf: now,
    source: `simulator (seed ${config.seed})`,
    usdMicroPerUnit: { ...DEFAULT_FX.usdMicroPerUnit, ...simulated },
  };
}
