/**
 * The exchange rates a markets check converts with: the operator's FX file when given, else
 * one fetch of the markets file's rate source (the ECB by default) through the same client as
 * `serve`; when that fails, the built-in table, whose age makes non-USD prices be refused
 * (`stale_fx`) exactly as `serve` would refuse them.
 */
import type { Clock } from '../../domain/clock.ts';
import type { FxTable } from '../../domain/fx.ts';
import { DEFAULT_FX, loadFxTable } from '../../ingest/fx.ts';
import { createFxRefresher } from '../../ingest/fx-refresher.ts';
import { createMarketHttp } from '../../markets/http/http-client.ts';
import type { Transport } from '../../markets/http/undici-transport.ts';

export interface CheckFx {
  table: FxTable;
  /** Why the built-in table is used (null when the file or the source answered). */
  problem: string | null;
}

export async function checkFx(options: {
  fxFile: string | null;
  url: string;
  clock: Clock;
  transport: Transport;
}): Promise<CheckFx> {
  if (options.fxFile) return { table: await loadFxTable(options.fxFile), problem: null };
  const http = createMarketHttp({
    clock: options.clock,
    transport: { attempt: options.transport.attempt, close: async () => undefined },
  });
  let problem: string | null = null;
  const refresher = createFxRefresher({
    http,
    store: { saveFxRates: async () => undefined, loadFxRates: async () => null },
    clock: options.clock,
    logger: {
      info: () => undefined,
      warn: (detail, message) =>
        void (problem = `${message}: ${(detail as { err?: string }).err ?? ''}`),
    },
    timers: { setTimeout: () => null, clearTimeout: () => undefined },
    fallback: DEFAULT_FX,
    url: options.url,
  });
  const outcome = await refresher.refresh();
  await http.close();
  if (outcome === 'updated' || outcome === 'unchanged')
    return { table: refresher.current(), problem: null };
  return {
    table: DEFAULT_FX,
    problem: `rates from ${options.url} not used (${outcome}): ${problem ?? ''}; non-USD prices are refused`,
  };
}
