/**
 * Redis RateLimiter (the scaled deployment): the same windows and decisions as the memory
 * limiter, pooled per account across every API process. One Lua script reads both counters,
 * refuses without spending anything, or increments both — atomically, so concurrent requests
 * from any number of processes admit exactly the limit.
 *
 * Time: with `clock: 'redis'` (the default) the script picks the windows from Redis's own clock
 * (TIME), so processes with skewed clocks still share one minute; `clock: 'caller'` uses the
 * `now` passed to consume (the contract suite sets exact instants). Keys: `<prefix>{<account>}`
 * plus `:m:<minute number>` (expires after 2 minutes) and `:mo:<yyyymm>` (expires after 32 days);
 * the braces keep one account's keys in one cluster slot.
 *
 * With a `monthLedger` the month counter survives a Redis restart: every admitted request under a
 * monthly cap is recorded in the ledger, and when an account's month key is missing the script
 * spends nothing and says so; the limiter then creates the key from the ledger (the stored total
 * plus this process's unwritten counts) and runs the script again. `raiseMonthCounters` lifts
 * month counters that are below the stored totals (counts another process wrote after the seed).
 */
import type { Redis } from 'ioredis';
import type { QuotaDecision, QuotaLimits, RateLimiter, WindowState } from './rate-limiter.ts';
import { minuteWindow, monthNumber, monthWindow, resetSeconds } from './quota-windows.ts';
import type { MonthLedger } from './monthly-usage-ledger.ts';
import type { MonthlyUsage } from './monthly-usage.ts';
import type { WindowBounds } from './quota-windows.ts';
import { closeRedis, luaScript, openRedis, runScript, whenReady } from '../events/redis-support.ts';

export type QuotaClock = 'redis' | 'caller';

export interface RedisRateLimiterOptions {
  /** A connection the caller owns (close() leaves it open)… */
  redis?: Redis;
  /** …or a URL: the limiter opens a fail-fast connection and close() quits it. */
  url?: string;
  /** Key prefix; default `quota:`. */
  prefix?: string;
  clock?: QuotaClock;
  onConnectionError?: (error: Error) => void;
  /** Records admitted monthly requests and seeds missing month keys. */
  monthLedger?: MonthLedger;
}

export interface RedisRateLimiter extends RateLimiter {
  /** Raises each account's month counter to at least its stored total (creating missing keys). */
  raiseMonthCounters(totals: readonly MonthlyUsage[]): Promise<void>;
}

const MINUTE_KEY_TTL_MS = 2 * 60 * 1000;
const MONTH_KEY_TTL_MS = 32 * 24 * 3600 * 1000;

/**
 * ARGV: perMinute, monthly (-1: no cap), now in ms ('' to read Redis TIME), key TTLs, and '1'
 * when a missing month key must be seeded first (then the reply is code 3 and nothing is spent).
 */
const QUOTA_SCRIPT = luaScript(`
local per_minute = tonumber(ARGV[1])
local monthly = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function month_number(ms)
  local z = math.floor(ms / 86400000) + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524)
    - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local month = mp < 10 and mp + 3 or mp - 9
  local year = yoe + era * 400
  if month <= 2 then year = year + 1 end
  return year * 100 + month
end
local minute_key = KEYS[1] .. ':m:' .. string.format('%d', math.floor(now / 60000))
local month_key = KEYS[1] .. ':mo:' .. string.format('%d', month_number(now))
local minute_used = tonumber(redis.call('GET', minute_key) or '0')
local month_used = 0
if monthly >= 0 then
  local stored = redis.call('GET', month_key)
  if not stored and ARGV[6] == '1' then return {3, 0, 0, now} end
  month_used = tonumber(stored or '0')
end
if minute_used >= per_minute then return {1, minute_used, month_used, now} end
if monthly >= 0 and month_used >= monthly then return {2, minute_used, month_used, now} end
minute_used = redis.call('INCR', minute_key)
if minute_used == 1 then redis.call('PEXPIRE', minute_key, ARGV[4]) end
if monthly >= 0 then
  month_used = redis.call('INCR', month_key)
  if month_used == 1 then redis.call('PEXPIRE', month_key, ARGV[5]) end
end
return {0, minute_used, month_used, now}
`);

/** KEYS[1]: a month key. ARGV: the total it must reach, its TTL when the key is created. */
const RAISE_SCRIPT = luaScript(`
local stored = redis.call('GET', KEYS[1])
local target = tonumber(ARGV[1])
if not stored then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
elseif tonumber(stored) < target then
  redis.call('INCRBY', KEYS[1], string.format('%d', target - tonumber(stored)))
end
return 0
`);

/** Attempts at seeding a missing month key before giving up (a month can turn in between). */
const SEED_ATTEMPTS = 3;

const OUTCOMES = ['allowed', 'minute', 'month', 'unseeded'] as const;

interface ScriptResult {
  outcome: (typeof OUTCOMES)[number];
  minuteUsed: number;
  monthUsed: number;
  now: number;
}

function parseResult(reply: unknown): ScriptResult {
  if (!Array.isArray(reply) || reply.length !== 4 || !reply.every(Number.isInteger)) {
    throw new Error(`unexpected quota script reply: ${JSON.stringify(reply)}`);
  }
  const [code, minuteUsed, monthUsed, now] = reply as number[];
  const outcome = OUTCOMES[code!];
  if (!outcome) throw new Error(`unexpected quota script outcome: ${code}`);
  return { outcome, minuteUsed: minuteUsed!, monthUsed: monthUsed!, now: now! };
}

function windowState(limit: number, used: number, bounds: WindowBounds, now: number): WindowState {
  return {
    limit,
    remaining: Math.max(0, limit - used),
    resetSeconds: resetSeconds(bounds.end, now),
  };
}

type CountedResult = ScriptResult & { outcome: Exclude<ScriptResult['outcome'], 'unseeded'> };

/** The decision the memory limiter would make for the same counters at the same instant. */
function quotaDecision(limits: QuotaLimits, result: CountedResult): QuotaDecision {
  const { now } = result;
  const minute = windowState(limits.perMinute, result.minuteUsed, minuteWindow(now), now);
  const month =
    limits.monthly === null
      ? null
      : windowState(limits.monthly, result.monthUsed, monthWindow(now), now);
  if (result.outcome === 'allowed') {
    return { allowed: true, refusedBy: null, minute, month, retryAfterSeconds: null };
  }
  const refusing = result.outcome === 'minute' ? minute : month;
  return {
    allowed: false,
    refusedBy: result.outcome,
    minute,
    month,
    retryAfterSeconds: refusing?.resetSeconds ?? minute.resetSeconds,
  };
}

export function accountKey(prefix: string, accountId: string): string {
  return `${prefix}{${accountId}}`;
}

export function monthKey(prefix: string, accountId: string, month: number): string {
  return `${accountKey(prefix, accountId)}:mo:${month}`;
}

export function createRedisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  const owned = !options.redis;
  const redis = options.redis ?? openRedis(requireUrl(options.url), {}, options.onConnectionError);
  const prefix = options.prefix ?? 'quota:';
  const useRedisClock = (options.clock ?? 'redis') === 'redis';
  const ledger = options.monthLedger;

  const count = async (accountId: string, limits: QuotaLimits, now: number) =>
    parseResult(
      await runScript(
        redis,
        QUOTA_SCRIPT,
        [accountKey(prefix, accountId)],
        [
          limits.perMinute,
          limits.monthly ?? -1,
          useRedisClock ? '' : Math.floor(now),
          MINUTE_KEY_TTL_MS,
          MONTH_KEY_TTL_MS,
          ledger ? '1' : '0',
        ],
      ),
    );

  const raise = (accountId: string, month: number, used: number) =>
    runScript(redis, RAISE_SCRIPT, [monthKey(prefix, accountId, month)], [used, MONTH_KEY_TTL_MS]);

  const seed = async (accountId: string, month: number) => {
    const used = await ledger!.usedSoFar(accountId, month);
    await raise(accountId, month, used);
  };

  return {
    async consume(accountId, limits, now) {
      await whenReady(redis);
      for (let attempt = 0; attempt < SEED_ATTEMPTS; attempt += 1) {
        const result = await count(accountId, limits, now);
        if (result.outcome === 'unseeded') {
          await seed(accountId, monthNumber(result.now));
          continue;
        }
        if (result.outcome === 'allowed' && limits.monthly !== null) {
          ledger?.record(accountId, monthNumber(result.now));
        }
        return quotaDecision(limits, result as CountedResult);
      }
      throw new Error(`month counter of ${accountId} could not be seeded`);
    },
    async raiseMonthCounters(totals) {
      await whenReady(redis);
      await Promise.all(totals.map((total) => raise(total.accountId, total.month, total.used)));
    },
    async close() {
      if (owned) await closeRedis(redis);
    },
  };
}

function requireUrl(url: string | undefined): string {
  if (!url) throw new Error('createRedisRateLimiter needs either `redis` or `url`');
  return url;
}
