/**
 * Keeps the polling leases of one ingest process: for every market it tries to acquire
 * `lease:<market>`, renews what it holds every ttl/3 and retries what it does not every ttl/3,
 * so a hot standby takes over at most ttl + ttl/3 after the holder's last renewal. The runner
 * polls a market only while `holds(market)`; `onChange` reports every gain and loss.
 * When the lease store cannot be reached a held lease is kept only while it is sure to still be
 * valid (its last confirmed renewal plus ttl lies beyond the next round), so two processes never
 * poll the same market for longer than the clock skew between them.
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
  holds(market: MarketId): boolean;
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

export function createLeaseKeeper(options: LeaseKeeperOptions): LeaseKeeper {
  const { clock, ttlMs } = options;
  const timers = options.timers ?? nodeTimers;
  const logger = options.logger ?? quiet;
  const intervalMs = Math.max(1, Math.floor(ttlMs / 3));
  const entries: Entry[] = options.markets.map((market) => ({
    market,
    lease: options.lease(market),
    held: false,
    confirmedAt: -Infinity,
  }));
  let timer: unknown = null;
  let stopped = false;
  let unreachable = false;
  let current: Promise<void> = Promise.resolve();

  const setHeld = (entry: Entry, held: boolean) => {
    if (entry.held === held) return;
    entry.held = held;
    try {
      options.onChange?.(entry.market, held);
    } catch (error) {
      logger.warn({ err: error, market: entry.market }, 'lease change listener failed');
    }
  };

  const onStoreError = (entry: Entry, error: unknown) => {
    if (!unreachable) {
      unreachable = true;
      logger.warn({ err: error }, 'lease store unreachable: keeping leases only while valid');
    }
    const validUntil = entry.confirmedAt + ttlMs;
    if (entry.held && clock.now() + intervalMs >= validUntil) setHeld(entry, false);
  };

  const tend = async (entry: Entry) => {
    const askedAt = clock.now();
    let ok: boolean;
    try {
      ok = entry.held ? await entry.lease.renew() : await entry.lease.acquire();
    } catch (error) {
      onStoreError(entry, error);
      return;
    }
    if (unreachable) {
      unreachable = false;
      logger.info({}, 'lease store reachable again');
    }
    if (ok) entry.confirmedAt = askedAt;
    setHeld(entry, ok);
  };

  const round = async () => {
    await Promise.all(entries.map(tend));
    if (!stopped) timer = timers.setTimeout(() => void runRound(), intervalMs);
  };
  const runRound = () => (current = round());

  const halt = () => {
    stopped = true;
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  };

  return {
    async start() {
      stopped = false;
      await runRound();
    },
    holds: (market) => entries.some((entry) => entry.market === market && entry.held),
    held: () => entries.filter((entry) => entry.held).map((entry) => entry.market),
    async stop() {
      halt();
      await current;
      const held = entries.filter((entry) => entry.held);
      await Promise.all(held.map((entry) => entry.lease.release().catch(() => {})));
      for (const entry of held) setHeld(entry, false);
    },
    abandon: halt,
  };
}
