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
 */
import type { Redis } from 'ioredis';
import type { QuotaDecision, QuotaLimits, RateLimiter, WindowState } from './rate-limiter.ts';
import { minuteWindow, monthWindow, resetSeconds } from './quota-windows.ts';
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
}

const MINUTE_KEY_TTL_MS = 2 * 60 * 1000;
const MONTH_KEY_TTL_MS = 32 * 24 * 3600 * 1000;

/** ARGV: perMinute, monthly (-1: no cap), now in ms ('' to read Redis TIME), key TTLs. */
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
if monthly >= 0 then month_used = tonumber(redis.call('GET', month_key) or '0') end
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

const OUTCOMES = ['allowed', 'minute', 'month'] as const;

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

/** The decision the memory limiter would make for the same counters at the same instant. */
function quotaDecision(limits: QuotaLimits, result: ScriptResult): QuotaDecision {
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

export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const owned = !options.redis;
  const redis = options.redis ?? openRedis(requireUrl(options.url), {}, options.onConnectionError);
  const prefix = options.prefix ?? 'quota:';
  const useRedisClock = (options.clock ?? 'redis') === 'redis';

  return {
    async consume(accountId, limits, now) {
      await whenReady(redis);
      const reply = await runScript(
        redis,
        QUOTA_SCRIPT,
        [accountKey(prefix, accountId)],
        [
          limits.perMinute,
          limits.monthly ?? -1,
          useRedisClock ? '' : Math.floor(now),
          MINUTE_KEY_TTL_MS,
          MONTH_KEY_TTL_MS,
        ],
      );
      return quotaDecision(limits, parseResult(reply));
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
