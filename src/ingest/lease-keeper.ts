/**
 * Keeps the polling leases of one ingest process: for every market it tries to acquire
 * `lease:<market>`, renews what it holds every ttl/3 and retries what it does not every
 * min(ttl/3, 1 s), so a hot standby takes over at most ttl + 1 s after the holder's last renewal. The runner
 * polls a market only while `holds(market)`; `onChange` reports every gain and loss.
 *
 * A lease is never trusted past its deadline: the send time of its last confirmed acquire or
 * renew plus ttl, less a guard of ttl/5. `holds()` reads the clock each time, so a process that
 * was paused, or whose renewals hang on a slow or unreachable Redis, stops polling before the
 * key can expire and another process can take it. Rounds run at a fixed rate and never wait on
 * a slow request (a market whose request is still out is skipped), so a renewal that merely
 * takes long still counts from when it was sent. Each holding carries the lease's fencing token
 * (`fence()`), which the store checks when a poll's results are written.
 */
import type { Clock } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Redis } from 'ioredis';
import { createMemoryLease, createRedisLease, type Lease } from './lease.ts';
import { nodeTimers, type Timers } from './schedule.ts';

export interface LeaseLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface LeaseKeeperOptions {
  markets: readonly MarketId[];
  lease: (market: MarketId) => Lease;
  ttlMs: number;
  clock: Clock;
  timers?: Timers;
  onChange?: (market: MarketId, held: boolean) => void;
  logger?: LeaseLogger;
}

export interface LeaseKeeper {
  /** Runs the first round (so holds() is meaningful once it resolves), then keeps going. */
  start(): Promise<void>;
  /** True while the lease is held and its deadline (see above) has not passed. */
  holds(market: MarketId): boolean;
  /** The fencing token of the market's holding while holds(market), else null. */
  fence(market: MarketId): number | null;
  held(): MarketId[];
  /** Stops and releases every held lease: a clean shutdown hands over at the next retry. */
  stop(): Promise<void>;
  /** Stops without releasing, as a crash would: the leases run out on their own. */
  abandon(): void;
}

interface Entry {
  market: MarketId;
  lease: Lease;
  held: boolean;
  /** When the last successful acquire or renew was sent. */
  confirmedAt: number;
  token: number | null;
  /** The acquire or renew still out, if any. */
  inFlight: Promise<void> | null;
}

export interface RedisLeaseFactoryOptions {
  redis: Redis;
  /** Key prefix; keys are `<prefix>lease:<market>`. */
  prefix?: string;
  ttlMs: number;
  owner: string;
}

export function redisLeases(options: RedisLeaseFactoryOptions): (market: MarketId) => Lease {
  const { redis, ttlMs, owner } = options;
  const prefix = options.prefix ?? '';
  return (market) => createRedisLease({ redis, key: `${prefix}lease:${market}`, ttlMs, owner });
}

export const memoryLeases = (market: MarketId): Lease => createMemoryLease(`lease:${market}`);

const quiet: LeaseLogger = { warn() {}, info() {} };

/** A market not held is tried at least this often (a standby acquires within this of expiry). */
export const ACQUIRE_RETRY_MS = 1_000;

/** Polling stops this share of the ttl before a lease could expire (clock-rate drift, pauses). */
export const DEADLINE_GUARD_SHARE = 1 / 5;

export function createLeaseKeeper(options: LeaseKeeperOptions): LeaseKeeper {
  const { clock, ttlMs } = options;
  const timers = options.timers ?? nodeTimers;
  const logger = options.logger ?? quiet;
  const intervalMs = Math.max(1, Math.floor(ttlMs / 3));
  const roundMs = Math.min(intervalMs, ACQUIRE_RETRY_MS);
  const trustMs = ttlMs - Math.ceil(ttlMs * DEADLINE_GUARD_SHARE);
  const entries: Entry[] = options.markets.map((market) => ({
    market,
    lease: options.lease(market),
    held: false,
    confirmedAt: -Infinity,
    token: null,
    inFlight: null,
  }));
  let timer: unknown = null;
  let stopped = false;
  let unreachable = false;

  const setHeld = (entry: Entry, held: boolean) => {
    if (entry.held === held) return;
    entry.held = held;
    try {
      options.onChange?.(entry.market, held);
    } catch (error) {
      logger.warn({ err: error, market: entry.market }, 'lease change listener failed');
    }
  };

  const valid = (entry: Entry) => entry.held && clock.now() < entry.confirmedAt + trustMs;

  const onStoreError = (error: unknown) => {
    if (unreachable) return;
    unreachable = true;
    logger.warn({ err: error }, 'lease store unreachable: keeping leases only while valid');
  };

  const ask = async (entry: Entry) => {
    const askedAt = clock.now();
    let token: number | null;
    try {
      token = entry.held
        ? (await entry.lease.renew())
          ? entry.token
          : null
        : await entry.lease.acquire();
    } catch (error) {
      onStoreError(error);
      return;
    }
    if (unreachable) {
      unreachable = false;
      logger.info({}, 'lease store reachable again');
    }
    if (token !== null && askedAt > entry.confirmedAt) {
      entry.confirmedAt = askedAt;
      entry.token = token;
    }
    setHeld(entry, token !== null && valid({ ...entry, held: true }));
  };

  const tend = (entry: Entry): Promise<void> => {
    if (entry.held && !valid(entry)) setHeld(entry, false);
    // Renewed every ttl/3 though rounds may come every second; half a round of slack for timers.
    const renewedLately = entry.held && clock.now() - entry.confirmedAt < intervalMs - roundMs / 2;
    if (!entry.inFlight && !renewedLately) {
      entry.inFlight = ask(entry).finally(() => {
        entry.inFlight = null;
      });
    }
    return entry.inFlight ?? Promise.resolve();
  };

  const round = (): Promise<void> => {
    const asked = Promise.all(entries.map(tend)).then(() => undefined);
    if (!stopped) timer = timers.setTimeout(() => void round(), roundMs);
    return asked;
  };

  const halt = () => {
    stopped = true;
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  };

  const entryOf = (market: MarketId) => entries.find((entry) => entry.market === market);

  return {
    async start() {
      stopped = false;
      await round();
    },
    holds: (market) => {
      const entry = entryOf(market);
      return entry !== undefined && valid(entry);
    },
    fence: (market) => {
      const entry = entryOf(market);
      return entry !== undefined && valid(entry) ? entry.token : null;
    },
    held: () => entries.filter(valid).map((entry) => entry.market),
    async stop() {
      halt();
      await Promise.all(entries.map((entry) => entry.inFlight));
      const held = entries.filter((entry) => entry.held);
      await Promise.all(held.map((entry) => entry.lease.release().catch(() => {})));
      for (const entry of held) setHeld(entry, false);
    },
    abandon: halt,
  };
}
