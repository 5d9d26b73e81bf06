/**
 * Live exchange rates for ingest: the ECB's daily reference rates (fx-ecb.ts), fetched through
 * the shared outbound HTTP port (conditional GET, its own small budget), checked for
 * plausibility against the rates in force, stored with their publication date, and refreshed
 * every hour (every 10 minutes after a failure). When the source is unreachable the last stored
 * rates stay in force; ingest refuses non-USD prices once they are more than FX_MAX_AGE_MS old
 * (normalise.ts, `stale_fx`), so those quotes age and turn stale instead of drifting.
 */
import { DAY, HOUR, MINUTE, type Clock } from '../domain/clock.ts';
import type { FxTable } from '../domain/fx.ts';
import type { MarketHttp } from '../markets/http/market-http.ts';
import type { PriceStore } from '../store/price-store.ts';
import { ECB_DAILY_URL, implausibleMoves, parseEcbDaily } from '../markets/ecb/fx-ecb.ts';
import type { Timers } from './schedule.ts';

/**
 * The ECB publishes on TARGET working days; the longest regular gap (Good Friday to Easter
 * Monday) leaves Thursday's rates in force until Tuesday afternoon, under 6 days. A week
 * covers every holiday with a day to spare.
 */
export const FX_MAX_AGE_MS = 7 * DAY;
export const FX_REFRESH_MS = HOUR;
export const FX_RETRY_MS = 10 * MINUTE;

export interface FxLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface FxRefresherOptions {
  http: MarketHttp;
  store: Pick<PriceStore, 'saveFxRates' | 'loadFxRates'>;
  clock: Clock;
  logger: FxLogger;
  timers: Timers;
  /** Used until a stored or fetched table exists (its age makes it refuse non-USD at once). */
  fallback: FxTable;
  url?: string;
}

export type RefreshOutcome = 'updated' | 'unchanged' | 'failed' | 'refused';

export interface FxRefresher {
  current(): FxTable;
  /**
   * Loads the stored rates (if newer than the fallback), then fetches in the background and
   * keeps refreshing; `first` settles with that first fetch's outcome.
   */
  start(): Promise<{ first: Promise<RefreshOutcome> }>;
  refresh(): Promise<RefreshOutcome>;
  stop(): void;
}

export function createFxRefresher(options: FxRefresherOptions): FxRefresher {
  const { http, store, logger, timers } = options;
  const url = options.url ?? ECB_DAILY_URL;
  const channel = http.channel('ecb', {
    limits: [{ requests: 12, windowMs: HOUR }],
    maxQueueMs: 0,
  });
  let table = options.fallback;
  let timer: unknown = null;
  let stopped = false;

  async function refresh(): Promise<RefreshOutcome> {
    let next: FxTable;
    try {
      const response = await channel.send({
        method: 'GET',
        url,
        expect: 'text',
        conditional: true,
        timeoutMs: 20_000,
        maxBytes: 1 << 20,
        label: 'ecb GET eurofxref-daily.xml',
      });
      next = parseEcbDaily(response.body);
    } catch (error) {
      logger.warn(
        { err: String((error as Error).message ?? error), ratesOf: table.source },
        'exchange rates not refreshed; the last rates stay in force',
      );
      return 'failed';
    }
    if (next.asOf <= table.asOf && next.source === table.source) return 'unchanged';
    const moved = implausibleMoves(next, table);
    if (moved.length > 0) {
      logger.warn(
        { currencies: moved, ratesOf: next.source },
        'exchange rates refused: implausible day-to-day moves',
      );
      return 'refused';
    }
    table = next;
    await store.saveFxRates(next);
    logger.info(
      { ratesOf: next.source, currencies: Object.keys(next.usdMicroPerUnit).length },
      'exchange rates updated',
    );
    return 'updated';
  }

  function schedule(outcome: RefreshOutcome): void {
    if (stopped) return;
    const delay = outcome === 'failed' ? FX_RETRY_MS : FX_REFRESH_MS;
    timer = timers.setTimeout(() => {
      void refresh().then(schedule);
    }, delay);
  }

  return {
    current: () => table,
    async start() {
      const stored = await store.loadFxRates();
      if (stored && stored.asOf >= table.asOf) table = stored;
      const first = refresh().then((outcome) => {
        schedule(outcome);
        return outcome;
      });
      return { first };
    },
    refresh,
    stop() {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
    },
  };
}

/** True when non-USD prices would be refused at `now` with these rates. */
export function ratesTooOld(table: FxTable, now: number): boolean {
  return now - table.asOf > FX_MAX_AGE_MS;
}
