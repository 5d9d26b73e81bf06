/**
 * Fetch records (latency, error rates, health, freshness) do not travel on the change bus: an
 * API process loads them from the shared store at boot and then every `intervalMs` (5 s),
 * the ingest side flushing them every 5 s too, so status endpoints lag ingest by about 10 s.
 * Each sync re-reads an overlap window (records can be flushed late, from several ingest
 * processes) and skips records it already holds. A failing store is logged once per outage;
 * the fetch log keeps what it has.
 */
import { MINUTE, type Clock } from '../domain/clock.ts';
import type { FetchRecord } from '../domain/quote.ts';
import type { FetchLog } from '../ingest/fetch-log.ts';
import type { PriceStore } from '../store/price-store.ts';

export interface FetchSyncLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface FetchLogSyncOptions {
  store: Pick<PriceStore, 'loadFetches'>;
  fetchLog: Pick<FetchLog, 'append' | 'windowMs'>;
  clock: Clock;
  logger: FetchSyncLogger;
  intervalMs?: number;
  overlapMs?: number;
}

export interface FetchLogSync {
  /** One sync now; resolves with the number of new records. Throws when the store fails. */
  syncOnce(): Promise<number>;
  /** A first sync (errors propagate), then one every interval (errors logged). */
  start(): Promise<void>;
  stop(): void;
}

export const FETCH_SYNC_INTERVAL_MS = 5_000;
export const FETCH_SYNC_OVERLAP_MS = 15 * MINUTE;

function recordKey(record: FetchRecord): string {
  return `${record.market}|${record.game}|${record.startedAt}|${record.fetchedAt}`;
}

export function createFetchLogSync(options: FetchLogSyncOptions): FetchLogSync {
  const { store, fetchLog, clock, logger } = options;
  const intervalMs = options.intervalMs ?? FETCH_SYNC_INTERVAL_MS;
  const overlapMs = options.overlapMs ?? FETCH_SYNC_OVERLAP_MS;
  /** Keys of records inside the overlap window, with their startedAt. */
  const seen = new Map<string, number>();
  let newest: number | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let failing = false;
  let busy = false;

  const forgetBefore = (ms: number) => {
    for (const [key, startedAt] of seen) if (startedAt < ms) seen.delete(key);
  };

  const syncOnce = async () => {
    const since =
      newest === null ? clock.now() - fetchLog.windowMs : Math.min(newest, clock.now()) - overlapMs;
    const rows = await store.loadFetches(since);
    let added = 0;
    for (const row of rows) {
      const key = recordKey(row);
      if (seen.has(key)) continue;
      seen.set(key, row.startedAt);
      fetchLog.append(row);
      added += 1;
      if (newest === null || row.startedAt > newest) newest = row.startedAt;
    }
    if (newest === null) newest = clock.now();
    forgetBefore(Math.min(newest, clock.now()) - overlapMs);
    return added;
  };

  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      await syncOnce();
      if (failing) logger.info({}, 'fetch records load again from the store');
      failing = false;
    } catch (error) {
      if (!failing) logger.warn({ err: error }, 'fetch records not loaded; status may lag');
      failing = true;
    } finally {
      busy = false;
    }
  };

  return {
    syncOnce,
    async start() {
      await syncOnce();
      timer = setInterval(() => void tick(), intervalMs);
      timer.unref();
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}
