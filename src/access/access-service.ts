/**
 * Authentication of key-gated requests: Authorization header → key → account → effective plan
 * and quota limits, or a 401/403 refusal. Keys found in the store are cached by hash; the cache
 * is dropped whenever `store.version()` moves (polled on a timer), so a revoke or plan change
 * made by another process takes effect within one refresh interval. Misses are not cached: an
 * unknown well-formed key costs one indexed store lookup, and malformed tokens cost none.
 */
import type { AccessStore, Account, ApiKeyRecord } from './access-store.ts';
import type { QuotaLimits } from './rate-limiter.ts';
import { PLAN_QUOTAS } from '../domain/plans.ts';
import type { Plan } from '../domain/plans.ts';
import { hashApiKey, hashesMatch, hasKeyShape } from './keys.ts';
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
  /** Checks the store version once and drops the cache if it moved. */
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
}

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

/** Allow-lists apply to Enterprise accounts only; an empty list allows any address. */
function ipRefused(entry: CachedKey, account: Account, clientIp: string): boolean {
  if (account.plan !== 'enterprise' || entry.key.allowIps.length === 0) return false;
  return !ipAllowed(entry.allowList, clientIp);
}

function decide(entry: CachedKey, hash: string, clientIp: string, now: number): AuthResult {
  const { key, account } = entry;
  if (!hashesMatch(key.hash, hash) || key.status !== 'active') return invalidKey();
  if (key.expiresAt !== null && key.expiresAt <= now) return invalidKey();
  if (!account) return invalidKey();
  if (account.status !== 'active') return subscriptionInactive();
  if (ipRefused(entry, account, clientIp)) return ipNotAllowed();
  const plan = effectivePlan(account, key);
  return { ok: true, account, key, plan, limits: effectiveLimits(plan, account) };
}

export function createAccessService(options: AccessServiceOptions): AccessService {
  const { store } = options;
  const cache = new Map<string, CachedKey>();
  let generation = 0;
  let knownVersion: number | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let refreshing = false;

  const load = async (hash: string): Promise<CachedKey | null> => {
    const startedIn = generation;
    const key = await store.findKeyByHash(hash);
    if (!key) return null;
    const account = await store.getAccount(key.accountId);
    const entry = { key, account, allowList: parseAllowList(key.allowIps) };
    if (startedIn === generation) cache.set(hash, entry);
    return entry;
  };

  const refreshNow = async (): Promise<void> => {
    const version = await store.version();
    if (version === knownVersion) return;
    generation += 1;
    cache.clear();
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
      const token = parseAuthorization(authorizationHeader);
      if (token === null || !hasKeyShape(token)) return invalidKey();
      const hash = hashApiKey(token);
      const entry = cache.get(hash) ?? (await load(hash));
      return entry ? decide(entry, hash, clientIp, now) : invalidKey();
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
