/**
 * Redis plumbing shared by the quota limiter, the change bus and the ingest lease: connection
 * options that fail fast while Redis is down (no request waits on a dead server), a readiness
 * gate for the first connection, and Lua scripts run by SHA with a fallback to the full source
 * when the server has not cached the script (NOSCRIPT).
 */
import { createHash } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';

/** Commands are refused at once while disconnected instead of queueing behind a reconnect. */
export const FAIL_FAST_OPTIONS: Readonly<RedisOptions> = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 500,
  commandTimeout: 1_000,
};

export const DEFAULT_READY_TIMEOUT_MS = 1_000;

/**
 * A connection with FAIL_FAST_OPTIONS (plus overrides). Connection errors go to `onError`
 * instead of crashing the process; ioredis keeps reconnecting in the background.
 */
export function openRedis(
  url: string,
  overrides: RedisOptions = {},
  onError: (error: Error) => void = () => {},
): Redis {
  const redis = new Redis(url, { ...FAIL_FAST_OPTIONS, ...overrides });
  redis.on('error', onError);
  redis.once('close', () => lostOnce.add(redis));
  return redis;
}

const firstConnects = new WeakMap<Redis, Promise<void>>();
/** Connections from openRedis() that have been disconnected at least once. */
const lostOnce = new WeakSet<Redis>();

/**
 * Resolves when the connection can take commands. While the first connection is still being
 * made it waits (up to `timeoutMs`; concurrent callers share one wait); once a connection from
 * openRedis() was lost it throws at once, also during reconnect attempts.
 */
export async function whenReady(redis: Redis, timeoutMs = DEFAULT_READY_TIMEOUT_MS): Promise<void> {
  if (redis.status === 'ready') return;
  if (redis.status === 'wait') {
    await redis.connect();
    return;
  }
  const connecting = redis.status === 'connecting' || redis.status === 'connect';
  if (!connecting || lostOnce.has(redis)) {
    throw new Error(`redis connection is ${redis.status}`);
  }
  let waiting = firstConnects.get(redis);
  if (!waiting) {
    waiting = waitForReady(redis, timeoutMs).finally(() => firstConnects.delete(redis));
    firstConnects.set(redis, waiting);
  }
  await waiting;
}

function waitForReady(redis: Redis, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onFailure);
      redis.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onReady = () => settle();
    const onFailure = (error: Error) => settle(error);
    const onClose = () => settle(new Error('redis connection closed'));
    const timer = setTimeout(() => settle(new Error('redis connect timed out')), timeoutMs);
    redis.once('ready', onReady);
    redis.once('error', onFailure);
    redis.once('close', onClose);
  });
}

const hasEnded = (redis: Redis) => redis.status === 'end';

/** Closes a connection politely when it is up, at once otherwise. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (hasEnded(redis)) return;
  if (redis.status === 'ready') {
    try {
      await redis.quit();
      return;
    } catch {
      // fall through: the connection went away while quitting
    }
  }
  if (hasEnded(redis)) return;
  const ended = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, DEFAULT_READY_TIMEOUT_MS);
    redis.once('end', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  redis.disconnect();
  await ended;
}

export interface LuaScript {
  source: string;
  sha: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/** EVALSHA, falling back to EVAL (which also caches the script) on NOSCRIPT. */
export async function runScript(
  redis: Redis,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!isNoScript(error)) throw error;
    return redis.eval(script.source, keys.length, ...keys, ...args);
  }
}
