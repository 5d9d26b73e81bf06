/**
 * Test fixtures for the HTTP layer: an in-test authenticator over a map of keys, a small
 * catalog per game, an array-backed fetch history and a settable items/all provider, wired
 * into `buildApp` with a manual clock. The lead can swap any part for the real one.
 */
import type { FastifyInstance } from 'fastify';
import { createMemoryRateLimiter } from '../access/memory-rate-limiter.ts';
import type { QuotaLimits, RateLimiter } from '../access/rate-limiter.ts';
import { Book } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { manualClock, type ManualClock } from '../domain/clock.ts';
import type { Game } from '../domain/games.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import { PLAN_QUOTAS, planAllows, type Plan } from '../domain/plans.ts';
import type { FetchRecord } from '../domain/quote.ts';
import { side } from '../pricing/snapshot-fixtures.ts';
import { buildApp, type RouteSet } from './app.ts';
import type {
  AppDeps,
  AuthResult,
  Authenticator,
  FetchHistory,
  ItemsAllProvider,
  PlanGate,
  PreparedPayload,
} from './deps.ts';

export const T0 = Date.parse('2026-11-01T12:00:00Z');

export interface TestKey {
  accountId: string;
  plan: Plan;
  status?: 'active' | 'inactive' | 'revoked';
  limits?: QuotaLimits;
  /** The account's own limit of open price streams. */
  streams?: number;
}

export const KEYS = {
  developer: 'sk_test_developer',
  pro: 'sk_test_pro',
  enterprise: 'sk_test_enterprise',
  inactive: 'sk_test_inactive',
  revoked: 'sk_test_revoked',
  poolA: 'sk_test_pool_a',
  poolB: 'sk_test_pool_b',
} as const;

export const DEFAULT_KEYS: ReadonlyMap<string, TestKey> = new Map<string, TestKey>([
  [KEYS.developer, { accountId: 'acct-dev', plan: 'developer' }],
  [KEYS.pro, { accountId: 'acct-pro', plan: 'pro' }],
  [KEYS.enterprise, { accountId: 'acct-ent', plan: 'enterprise' }],
  [KEYS.inactive, { accountId: 'acct-off', plan: 'pro', status: 'inactive' }],
  [KEYS.revoked, { accountId: 'acct-rev', plan: 'pro', status: 'revoked' }],
  [KEYS.poolA, { accountId: 'acct-pool', plan: 'developer', limits: { perMinute: 3, monthly: 5 } }],
  [KEYS.poolB, { accountId: 'acct-pool', plan: 'developer', limits: { perMinute: 3, monthly: 5 } }],
]);

const SCHEME = /^\s*(apikey|bearer)\s+(\S+)\s*$/i;

/** The answer for `header` among `keys` (what both test authenticators decide). */
function testAuthResult(
  keys: ReadonlyMap<string, TestKey>,
  header: string | undefined,
): AuthResult {
  const invalid = {
    ok: false,
    status: 401,
    code: 'UNAUTHORIZED',
    message: 'API key invalid or inactive',
  } as const;
  const token = header === undefined ? null : (SCHEME.exec(header)?.[2] ?? null);
  const key = token === null ? undefined : keys.get(token);
  if (!key || key.status === 'revoked') return invalid;
  if (key.status === 'inactive') {
    return {
      ok: false,
      status: 403,
      code: 'SUBSCRIPTION_INACTIVE',
      message: 'Subscription is not active',
    };
  }
  return {
    ok: true,
    account: { id: key.accountId, ...(key.streams ? { streamsOverride: key.streams } : {}) },
    plan: key.plan,
    limits: key.limits ?? PLAN_QUOTAS[key.plan],
  };
}

export function testAuthenticator(keys: ReadonlyMap<string, TestKey>): Authenticator {
  return {
    async authenticate(header) {
      return testAuthResult(keys, header);
    },
  };
}

/** The same keys, also answered without waiting (as the real service does for cached keys). */
export function syncTestAuthenticator(keys: ReadonlyMap<string, TestKey>): Authenticator {
  return {
    async authenticate(header) {
      return testAuthResult(keys, header);
    },
    authenticateNow: (header) => testAuthResult(keys, header),
  };
}

export const testPlanGate: PlanGate = (plan, feature) =>
  planAllows(plan, feature)
    ? null
    : {
        status: 403,
        code: 'FEATURE_NOT_AVAILABLE',
        message: `Your current plan (${plan.toUpperCase()}) does not include access to this feature (feature:${feature}).`,
      };

function item(game: Game, id: string, marketHashName: string): CatalogItem {
  return { id, game, marketHashName, slug: id, category: 'skin' };
}

/** A catalog over `items` with exact-name / id lookup and word-prefix search. */
export function testCatalog(game: Game, items: readonly CatalogItem[]): Catalog {
  const words = (text: string) =>
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  return {
    game,
    items,
    rarities: [],
    byName: (name) => items.find((entry) => entry.marketHashName === name),
    byId: (id) => items.find((entry) => entry.id === id),
    resolve: (nameOrId) =>
      items.find((entry) => entry.marketHashName === nameOrId) ??
      items.find((entry) => entry.id === nameOrId),
    search: (query) => {
      const wanted = words(query);
      return items.filter((entry) => {
        const have = words(entry.marketHashName);
        return wanted.every((word) => have.some((candidate) => candidate.startsWith(word)));
      });
    },
  };
}

export const CS2_ITEMS = [
  item('cs2', 'cs2-redline-ft', 'AK-47 | Redline (Field-Tested)'),
  item('cs2', 'cs2-asiimov-ft', 'AWP | Asiimov (Field-Tested)'),
  item('cs2', 'cs2-karambit-doppler-fn', '★ Karambit | Doppler (Factory New)'),
  item('cs2', 'cs2-vulcan-mw', 'AK-47 | Vulcan (Minimal Wear)'),
  item('cs2', 'cs2-slash-sticker', 'Sticker | A/B Test'),
];
export const RUST_ITEMS = [
  item('rust', 'rust-tempered-ak', 'Tempered AK47'),
  item('rust', 'rust-alien-red', 'Alien Red'),
];

export class ArrayFetchHistory implements FetchHistory {
  readonly list: FetchRecord[] = [];
  records(sinceMs: number): readonly FetchRecord[] {
    return this.list.filter((record) => record.startedAt >= sinceMs);
  }
}

export function fetchRecord(
  market: MarketId,
  startedAt: number,
  ok: boolean,
  latencyMs = 500,
  game: Game = 'cs2',
): FetchRecord {
  return {
    market,
    game,
    startedAt,
    fetchedAt: startedAt + Math.floor(latencyMs / 2),
    ingestedAt: ok ? startedAt + latencyMs : null,
    ok,
    errorKind: ok ? null : 'retryable',
    observationCount: ok ? 1 : 0,
    rejectedCount: 0,
    failure: ok ? null : 'http_5xx',
    detail: null,
    unmappedCount: 0,
  };
}

export class SettableItemsAll implements ItemsAllProvider {
  payload: PreparedPayload | null = null;
  current(): PreparedPayload | null {
    return this.payload;
  }
}

export interface Harness {
  app: FastifyInstance;
  clock: ManualClock;
  book: Book;
  history: ArrayFetchHistory;
  itemsAll: SettableItemsAll;
  limiter: RateLimiter;
  deps: AppDeps;
  /** Puts a one-side snapshot for an item into the book. */
  quote(
    kind: 'ask' | 'bid',
    itemId: string,
    market: MarketId,
    prices: number[],
    fetchedAt?: number,
    game?: Game,
  ): void;
}

export async function buildHarness(
  overrides: Partial<AppDeps> = {},
  routeSets: readonly RouteSet[] = [],
): Promise<Harness> {
  const clock = manualClock(T0);
  const book = new Book();
  const history = new ArrayFetchHistory();
  const itemsAll = new SettableItemsAll();
  const limiter = createMemoryRateLimiter();
  const deps: AppDeps = {
    clock,
    catalogs: { cs2: testCatalog('cs2', CS2_ITEMS), rust: testCatalog('rust', RUST_ITEMS) },
    book,
    authenticator: testAuthenticator(DEFAULT_KEYS),
    planGate: testPlanGate,
    limiter,
    healthLimiter: createMemoryRateLimiter(),
    fetchHistory: history,
    marketCadence: () => 60_000,
    itemsAll,
    ...overrides,
  };
  const app = await buildApp(deps, routeSets);
  const quote: Harness['quote'] = (
    kind,
    itemId,
    market,
    prices,
    fetchedAt = clock.now(),
    game = 'cs2',
  ) => {
    book.apply({
      sides: [side(kind, { market, prices, fetchedAt, itemId, game })],
      sales: [],
      listings: [],
    });
  };
  return { app, clock, book, history, itemsAll, limiter, deps, quote };
}

export const auth = (key: string) => ({ authorization: `ApiKey ${key}` });
