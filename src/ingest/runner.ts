/**
 * The ingest runner: polls every (market, game) on the adapter's cadence with a small
 * deterministic jitter, backs off on retryable errors (capped at 4 cadences; a failed commit is
 * retried from 1 s, see storeRetryMs), disables a
 * (market, game) on a permanent error until restart, and records every attempt in the fetch
 * log and (batched) in the store. All time reads go through the injected clock; scheduling
 * goes through a Timers port (unref'd Node timers by default).
 */
import type { Book } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { SECOND, type Clock } from '../domain/clock.ts';
import { GAMES, type Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { FetchRecord } from '../domain/quote.ts';
import type { MarketAdapter } from '../markets/market-adapter.ts';
import type { PriceStore } from '../store/price-store.ts';
import { runCycle, type CycleDeps, type CycleOutcome } from './cycle.ts';
import type { FetchLog } from './fetch-log.ts';
import type { FxTable } from './fx.ts';
import {
  RejectionTracker,
  tallyRejections,
  type RejectionTally,
  type WarnLogger,
} from './rejections.ts';
import { nextDelayMs, jitterMs, nodeTimers, storeRetryMs, type Timers } from './schedule.ts';
import { createSlots } from './slots.ts';

export interface IngestLogger extends WarnLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface IngestRunnerOptions {
  adapters: readonly MarketAdapter[];
  catalogs: Partial<Record<Game, Catalog>>;
  /** Fixed rates, or where to read the rates in force (a refreshed source). */
  fx: FxTable | (() => FxTable);
  /** Non-USD observations are refused when the rates are older than this. */
  fxMaxAgeMs?: number;
  book: Pick<Book, 'apply'>;
  store: Pick<PriceStore, 'writeBatch' | 'recordFetches'>;
  fetchLog: Pick<FetchLog, 'append'>;
  clock: Clock;
  logger: IngestLogger;
  /** Games to poll; default: every game with a catalog. */
  games?: readonly Game[];
  rejections?: RejectionTracker;
  timers?: Timers;
  /** How often queued fetch records are written to the store while running. */
  fetchFlushMs?: number;
  /**
   * Scheduled polls of a market run only while this says yes (the ingest role: while this
   * process holds the market's lease); otherwise the poller looks again after `idleRecheckMs`,
   * so a standby starts polling within that long of gaining a lease. Default: always yes.
   */
  shouldPoll?: (market: MarketId) => boolean;
  /** The lease proof a market's results are written under (see CycleDeps.fence). */
  fence?: CycleDeps['fence'];
  /** Default 1 s. */
  idleRecheckMs?: number;
  /**
   * Polls of markets just gained (the first poll after an idle recheck) run at most this many
   * at once (default 2): a standby that takes over every market commits its first results
   * within one poll's time instead of all of them crowding the thread and the store together.
   */
  takeoverConcurrency?: number;
  /** Hears every finished cycle: its fetch record and its rejections by reason (metrics). */
  onCycle?: (record: FetchRecord, rejections: RejectionTally) => void;
  /** Hears the names a cycle's market listed that no catalog item matched (src/schema/learner.ts). */
  onUnmapped?: (market: MarketId, game: Game, names: string[]) => void;
}

export interface MarketHealth {
  market: MarketId;
  game: Game;
  lastSuccessAt: number | null;
  lastErrorAt: number | null;
  lastError: string | null;
  consecutiveErrors: number;
  disabled: boolean;
}

export type CycleResult = CycleOutcome | { skipped: 'disabled' };

export interface IngestRunner {
  start(): void;
  /** Stops scheduling, waits for in-flight cycles, then flushes queued fetch records. */
  stop(): Promise<void>;
  /** One cycle now (joins the running one for the same market and game). */
  runOnce(market: MarketId, game: Game): Promise<CycleResult>;
  health(): MarketHealth[];
  flushFetchRecords(): Promise<void>;
  readonly rejections: RejectionTracker;
}

/** Fetch records kept for the store while it is failing; the oldest are dropped beyond this. */
const MAX_PENDING_FETCHES = 10_000;

interface Poller {
  adapter: MarketAdapter;
  health: MarketHealth;
  timer: unknown;
  inFlight: Promise<CycleOutcome> | null;
  /** The last cycle failed to commit (retried sooner than a failed fetch). */
  storeFailed: boolean;
  /** The last tick found the market not to be polled (a lease not held). */
  idle: boolean;
}

export function createIngestRunner(options: IngestRunnerOptions): IngestRunner {
  const { clock, logger, fetchLog, store } = options;
  const timers = options.timers ?? nodeTimers;
  const rejections = options.rejections ?? new RejectionTracker(logger);
  const pollers = buildPollers(options);
  let pending: FetchRecord[] = [];
  let running = false;
  let flushTimer: unknown = null;
  const takeovers = createSlots(options.takeoverConcurrency ?? 2);

  const cycleDeps = {
    catalogs: options.catalogs,
    fx: typeof options.fx === 'function' ? options.fx : constant(options.fx),
    ...(options.fxMaxAgeMs === undefined ? {} : { fxMaxAgeMs: options.fxMaxAgeMs }),
    book: options.book,
    store,
    ...(options.fence ? { fence: options.fence } : {}),
    clock,
    onBookError: (error: unknown) => logger.error({ err: error }, 'book listener failed'),
  };

  function pollerFor(market: MarketId, game: Game): Poller {
    const poller = pollers.get(`${market}:${game}`);
    if (!poller) throw new Error(`no ingest adapter for ${market}/${game}`);
    return poller;
  }

  async function cycle(poller: Poller): Promise<CycleOutcome> {
    const outcome = await runCycle(poller.adapter, poller.health.game, cycleDeps);
    fetchLog.append(outcome.record);
    pending.push(outcome.record);
    if (pending.length > MAX_PENDING_FETCHES) pending = pending.slice(-MAX_PENDING_FETCHES);
    rejections.record(outcome.rejections, clock.now());
    options.onCycle?.(outcome.record, tallyRejections(outcome.rejections));
    if (options.onUnmapped) noteUnmapped(poller, outcome, options.onUnmapped);
    noteOutcome(poller, outcome);
    return outcome;
  }

  function noteOutcome(poller: Poller, outcome: CycleOutcome): void {
    const { health } = poller;
    poller.storeFailed = outcome.record.failure === 'store' && outcome.error !== null;
    const where = { market: health.market, game: health.game };
    if (!outcome.error) {
      health.lastSuccessAt = outcome.record.ingestedAt;
      health.consecutiveErrors = 0;
      return;
    }
    health.lastErrorAt = clock.now();
    health.lastError = outcome.error.message;
    health.consecutiveErrors += 1;
    if (outcome.error.kind === 'permanent') {
      health.disabled = true;
      logger.error({ ...where, error: outcome.error.message }, 'market disabled until restart');
    } else {
      const { message, simulated } = outcome.error;
      const detail = { ...where, error: message, consecutiveErrors: health.consecutiveErrors };
      // A failure the simulator staged is part of the show, not an operator's problem.
      if (simulated) logger.info({ ...detail, simulated }, 'simulated market failure; backing off');
      else logger.warn(detail, 'market fetch failed; backing off');
    }
  }

  function runOnce(market: MarketId, game: Game): Promise<CycleResult> {
    const poller = pollerFor(market, game);
    if (poller.health.disabled) return Promise.resolve({ skipped: 'disabled' });
    if (!poller.inFlight) {
      poller.inFlight = cycle(poller).finally(() => {
        poller.inFlight = null;
      });
    }
    return poller.inFlight;
  }

  function schedule(poller: Poller, delayMs: number): void {
    poller.timer = timers.setTimeout(() => void tick(poller), delayMs);
  }

  /**
   * Polls now. A market just gained waits for a takeover slot, and is polled only if the
   * runner still runs and the market is still to be polled when its turn comes.
   */
  async function poll(poller: Poller, gained: boolean): Promise<boolean> {
    const { market, game } = poller.health;
    if (!gained) {
      await runOnce(market, game);
      return true;
    }
    return takeovers(async () => {
      if (!running || (options.shouldPoll && !options.shouldPoll(market))) return false;
      await runOnce(market, game);
      return true;
    });
  }

  async function tick(poller: Poller): Promise<void> {
    poller.timer = null;
    if (!running) return;
    const { market, game } = poller.health;
    if (options.shouldPoll && !options.shouldPoll(market)) {
      poller.idle = true;
      schedule(poller, options.idleRecheckMs ?? SECOND);
      return;
    }
    const gained = poller.idle;
    poller.idle = false;
    let polled = true;
    try {
      polled = await poll(poller, gained);
    } catch (error) {
      logger.error({ market, game, err: error }, 'ingest cycle crashed');
    }
    if (!running || poller.health.disabled) return;
    if (!polled) {
      poller.idle = true;
      schedule(poller, options.idleRecheckMs ?? SECOND);
      return;
    }
    const cadence = poller.adapter.info.cadenceMs;
    const errors = poller.health.consecutiveErrors;
    schedule(
      poller,
      poller.storeFailed
        ? storeRetryMs(errors, cadence)
        : nextDelayMs(market, game, cadence, errors),
    );
  }

  function scheduleFlush(): void {
    flushTimer = timers.setTimeout(
      () => {
        void flushFetchRecords().finally(() => {
          if (running) scheduleFlush();
        });
      },
      options.fetchFlushMs ?? 5 * SECOND,
    );
  }

  async function flushFetchRecords(): Promise<void> {
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    try {
      await store.recordFetches(rows);
    } catch (error) {
      pending = [...rows, ...pending].slice(-MAX_PENDING_FETCHES);
      logger.warn({ err: error, queued: pending.length }, 'fetch records not written; will retry');
    }
  }

  return {
    rejections,
    runOnce,
    flushFetchRecords,
    start() {
      if (running) return;
      running = true;
      for (const poller of pollers.values()) {
        if (poller.health.disabled) continue;
        const { market, game } = poller.health;
        schedule(poller, jitterMs(market, game, poller.adapter.info.cadenceMs));
      }
      scheduleFlush();
      logger.info({ pollers: pollers.size }, 'ingest started');
    },
    async stop() {
      running = false;
      if (flushTimer !== null) timers.clearTimeout(flushTimer);
      flushTimer = null;
      const inFlight: Promise<unknown>[] = [];
      for (const poller of pollers.values()) {
        if (poller.timer !== null) timers.clearTimeout(poller.timer);
        poller.timer = null;
        if (poller.inFlight) inFlight.push(poller.inFlight);
      }
      await Promise.allSettled(inFlight);
      await flushFetchRecords();
    },
    health: () => [...pollers.values()].map((poller) => ({ ...poller.health })),
  };
}

function buildPollers(options: IngestRunnerOptions): Map<string, Poller> {
  const games = options.games ?? GAMES.filter((game) => options.catalogs[game]);
  const pollers = new Map<string, Poller>();
  for (const adapter of options.adapters) {
    for (const game of adapter.info.games) {
      if (!games.includes(game)) continue;
      const market = adapter.info.id;
      const key = `${market}:${game}`;
      if (pollers.has(key)) throw new Error(`two ingest adapters for ${key}`);
      pollers.set(key, {
        adapter,
        timer: null,
        inFlight: null,
        storeFailed: false,
        idle: false,
        health: {
          market,
          game,
          lastSuccessAt: null,
          lastErrorAt: null,
          lastError: null,
          consecutiveErrors: 0,
          disabled: false,
        },
      });
    }
  }
  return pollers;
}

function constant(table: FxTable): () => FxTable {
  return () => table;
}

function noteUnmapped(
  poller: Poller,
  outcome: CycleOutcome,
  hear: NonNullable<IngestRunnerOptions['onUnmapped']>,
): void {
  const names = outcome.rejections.flatMap((rejection) =>
    rejection.reason === 'unknown_item' && typeof rejection.item === 'string'
      ? [rejection.item]
      : [],
  );
  if (names.length > 0) hear(poller.adapter.info.id, poller.health.game, names);
}
