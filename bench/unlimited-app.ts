/**
 * A benchmark's API app: one Enterprise key with no quota worth hitting, in-process limiters,
 * no fetch history and no docs, so a run measures the route and not the gate's refusals.
 */
import { createMemoryRateLimiter } from '../src/access/memory-rate-limiter.ts';
import { buildApp } from '../src/http/app.ts';
import type { App } from '../src/http/app-type.ts';
import type { AppDeps } from '../src/http/deps.ts';
import {
  ArrayFetchHistory,
  SettableItemsAll,
  testAuthenticator,
  testPlanGate,
  type TestKey,
} from '../src/http/test-support.ts';

type Required = Pick<AppDeps, 'clock' | 'catalogs' | 'book'>;

export function unlimitedApp(
  key: string,
  deps: Required & Partial<Omit<AppDeps, keyof Required>>,
): Promise<App> {
  const account: TestKey = {
    accountId: 'bench',
    plan: 'enterprise',
    limits: { perMinute: 1e9, monthly: null },
  };
  return buildApp({
    authenticator: testAuthenticator(new Map([[key, account]])),
    planGate: testPlanGate,
    limiter: createMemoryRateLimiter(),
    healthLimiter: createMemoryRateLimiter(),
    fetchHistory: new ArrayFetchHistory(),
    marketCadence: () => 60_000,
    itemsAll: new SettableItemsAll(),
    docs: false,
    ...deps,
  });
}
