/**
 * Authentication of key-gated requests: Authorization header → key → account → effective plan
 * and quota limits, or a 401/403 refusal. Keys found in the store are cached by hash. When
 * `store.version()` moves (polled on a timer) the cached keys are re-read, with their accounts,
 * in one read of the key and account lists: a changed key or account is replaced, a vanished
 * one dropped, and the rest stay cached, so a revoke or plan change made by another process
 * takes effect within one refresh interval without sending every request back to the store.
 * A failed re-read keeps the cache as it was and is retried on the next tick. Misses are not
 * cached: an unknown well-formed key costs one indexed store lookup, malformed tokens none.
 */
import type { AccessStore, Account, ApiKeyRecord } from './access-store.ts';
import type { QuotaLimits } from './rate-limiter.ts';
import { PLAN_QUOTAS } from '../domain/plans.ts';
import type { Plan } from '../domain/plans.ts';
import { timingSafeEqual } from 'node:crypto';
import { hashApiKey, hasKeyShape } from './keys.ts';
import { ipAllowed, parseAllowList } from './ip-allow-list.ts';
import type { ParsedRange } from './ip-allow-list.ts';
import { invalidKey, ipNotAllowed, subscriptionInactive } from './failures.ts';
import type { AccessFailure } from './failures.ts';

export interface AuthSuccess {
  ok: true;
  account: Account;
  key: ApiKeyRecord;
  /** The plan to gate features with: 'developer' for trial keys, else the account's plan. */
  plan: Plan;
  limits: QuotaLimits;
}

export type AuthResult = AuthSuccess | AccessFailure;

export interface AccessService {
  authenticate(
    authorizationHeader: string | undefined,
    clientIp: string,
    now: number,
  ): Promise<AuthResult>;
  /**
   * The same answer without waiting when the key is cached; null when it needs a store read.
   * Allocation-free for a cached key: the header's hash is remembered and the success kept.
   */
  authenticateNow(
    authorizationHeader: string | undefined,
    clientIp: string,
    now: number,
  ): AuthResult | null;
  /** Checks the store version once and, if it moved, re-reads the cached keys. */
  refreshNow(): Promise<void>;
  /** Refreshes now, then polls `refreshNow` on an unref'd timer. */
  startRefresh(intervalMs?: number): void;
  stop(): void;
  /** Number of cached keys (for tests and metrics). */
  cachedKeys(): number;
}

export interface AccessServiceOptions {
  store: AccessStore;
  /** Called when a background refresh fails; the cache is kept as it was. */
  onRefreshError?: (error: unknown) => void;
}

interface CachedKey {
  key: ApiKeyRecord;
  account: Account | null;
  allowList: ParsedRange[];
  storedHash: Buffer;
  /** The success answer, built on first use (every field of it is fixed for the entry). */
  success: AuthSuccess | null;
}

function cachedKey(key: ApiKeyRecord, account: Account | null): CachedKey {
  const storedHash = Buffer.from(key.hash, 'hex');
  return { key, account, allowList: parseAllowList(key.allowIps), storedHash, success: null };
}

/** A header's key hash, remembered so a repeated header is not parsed and hashed again. */
interface HeaderHash {
  hex: string;
  bytes: Buffer;
}

/** Distinct Authorization headers remembered (all forgotten when full). */
const HEADER_MEMO_SIZE = 10_000;

const AUTHORIZATION = /^\s*(\S+)\s+(\S+)\s*$/;
const ACCEPTED_SCHEMES = new Set(['apikey', 'bearer']);

/** The key in `ApiKey <key>` or `Bearer <key>` (scheme case-insensitive), or null. */
export function parseAuthorization(header: string | undefined): string | null {
  const match = header === undefined ? null : AUTHORIZATION.exec(header);
  if (!match?.[1] || !match[2]) return null;
  return ACCEPTED_SCHEMES.has(match[1].toLowerCase()) ? match[2] : null;
}

export function effectivePlan(account: Account, key: ApiKeyRecord): Plan {
  return key.trial ? 'developer' : account.plan;
}

/** The plan's quota with the account's overrides (null override: the plan's value). */
export function effectiveLimits(plan: Plan, account: Account): QuotaLimits {
  const quota = PLAN_QUOTAS[plan];
  return {
    perMinute: account.perMinuteOverride ?? quota.perMinute,
    monthly: account.monthlyOverride ?? quota.monthly,
  };
}

/**
 * A stored allow-list holds on every plan: only Enterprise accounts may create one, but a later
 * plan change never widens a key's access. An empty list allows any address.
 */
function ipRefused(entry: CachedKey, clientIp: string): boolean {
  if (entry.key.allowIps.length === 0) return false;
  return !ipAllowed(entry.allowList, clientIp);
}

function hashMatches(entry: CachedKey, hash: Buffer): boolean {
  return (
    entry.storedHash.length === hash.length &&
    hash.length > 0 &&
    timingSafeEqual(entry.storedHash, hash)
  );
}

function decide(entry: CachedKey, hash: Buffer, clientIp: string, now: number): AuthResult {
  const { key, account } = entry;
  if (!hashMatches(entry, hash) || key.status !== 'active') return invalidKey();
  if (key.expiresAt !== null && key.expiresAt <= now) return invalidKey();
  if (!account) return invalidKey();
  if (account.status !== 'active') return subscriptionInactive();
  if (ipRefused(entry, clientIp)) return ipNotAllowed();
  if (entry.success === null) {
    const plan = effectivePlan(account, key);
    entry.success = { ok: true, account, key, plan, limits: effectiveLimits(plan, account) };
  }
  return entry.success;
}

/** The key hash of a well-formed Authorization header, or null. */
function headerHash(header: string | undefined): HeaderHash | null {
  const token = parseAuthorization(header);
  if (token === null || !hasKeyShape(token)) return null;
  const hex = hashApiKey(token);
  return { hex, bytes: Buffer.from(hex, 'hex') };
}

export function createAccessService(options: AccessServiceOptions): AccessService {
  const { store } = options;
  const cache = new Map<string, CachedKey>();
  let generation = 0;
  let knownVersion: number | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let refreshing = false;
  const headerHashes = new Map<string, HeaderHash | null>();

  const hashOf = (header: string | undefined): HeaderHash | null => {
    if (header === undefined) return null;
    let known = headerHashes.get(header);
    if (known === undefined) {
      if (headerHashes.size >= HEADER_MEMO_SIZE) headerHashes.clear();
      known = headerHash(header);
      headerHashes.set(header, known);
    }
    return known;
  };

  const load = async (hash: string): Promise<CachedKey | null> => {
    const startedIn = generation;
    const key = await store.findKeyByHash(hash);
    if (!key) return null;
    const entry = cachedKey(key, await store.getAccount(key.accountId));
    if (startedIn === generation) cache.set(hash, entry);
    return entry;
  };

  /** Re-reads every cached key and its account; entries a newer lookup replaced are kept. */
  const revalidate = async (): Promise<void> => {
    const snapshot = [...cache];
    if (snapshot.length === 0) return;
    const [keys, accounts] = await Promise.all([store.listKeys(), store.listAccounts()]);
    const keysByHash = new Map(keys.map((key) => [key.hash, key]));
    const accountsById = new Map(accounts.map((account) => [account.id, account]));
    for (const [hash, entry] of snapshot) {
      if (cache.get(hash) !== entry) continue;
      const key = keysByHash.get(hash);
      if (key) cache.set(hash, cachedKey(key, accountsById.get(key.accountId) ?? null));
      else cache.delete(hash);
    }
  };

  const refreshNow = async (): Promise<void> => {
    const version = await store.version();
    if (version === knownVersion) return;
    generation += 1;
    await revalidate();
    knownVersion = version;
  };

  const tick = async (): Promise<void> => {
    if (refreshing) return;
    refreshing = true;
    try {
      await refreshNow();
    } catch (error) {
      options.onRefreshError?.(error);
    } finally {
      refreshing = false;
    }
  };

  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };

  return {
    async authenticate(authorizationHeader, clientIp, now) {
      const hash = hashOf(authorizationHeader);
      if (hash === null) return invalidKey();
      const entry = cache.get(hash.hex) ?? (await load(hash.hex));
      return entry ? decide(entry, hash.bytes, clientIp, now) : invalidKey();
    },
    authenticateNow(authorizationHeader, clientIp, now) {
      const hash = hashOf(authorizationHeader);
      if (hash === null) return invalidKey();
      const entry = cache.get(hash.hex);
      return entry ? decide(entry, hash.bytes, clientIp, now) : null;
    },
    refreshNow,
    startRefresh(intervalMs = 250) {
      stop();
      void tick();
      timer = setInterval(() => void tick(), intervalMs);
      timer.unref();
    },
    stop,
    cachedKeys: () => cache.size,
  };
}
