/** Plans, their quotas and which endpoints each plan may call: one data table, read by the plan gate. */
export const PLANS = ['developer', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const PLAN_RANK: Readonly<Record<Plan, number>> = { developer: 0, pro: 1, enterprise: 2 };

export interface PlanQuota {
  perMinute: number;
  /** null: no monthly cap. */
  monthly: number | null;
}

export const PLAN_QUOTAS: Readonly<Record<Plan, PlanQuota>> = {
  developer: { perMinute: 60, monthly: 10_000 },
  pro: { perMinute: 600, monthly: 200_000 },
  enterprise: { perMinute: 3_000, monthly: null },
};

/** Feature names as they appear in 403 messages (`feature:<name>`). */
export type Feature =
  | 'pricing'
  | 'listings'
  | 'historical_data'
  | 'nbbo'
  | 'depth'
  | 'items'
  | 'items_all'
  | 'aggregations'
  | 'liquidity'
  | 'liquidity_bulk'
  | 'recommendations'
  | 'market_analytics'
  | 'schema'
  | 'attribute_prices'
  | 'attribute_history'
  | 'native_market'
  | 'freshness'
  | 'market_latency'
  | 'arbitrage'
  | 'inventory'
  | 'stream'
  | 'alerts';

/**
 * The plan column of the spec's endpoint index. Where the spec says "not shown" the choice is
 * ours and is written in docs/api/conventions.md: items/all Enterprise (bulk whole-catalog read), market
 * latency Developer, native-market buckets Pro, arbitrage Pro.
 */
export const FEATURE_MIN_PLAN: Readonly<Record<Feature, Plan>> = {
  pricing: 'developer',
  listings: 'developer',
  historical_data: 'pro',
  nbbo: 'developer',
  depth: 'developer',
  items: 'developer',
  items_all: 'enterprise',
  aggregations: 'developer',
  liquidity: 'pro',
  liquidity_bulk: 'enterprise',
  recommendations: 'developer',
  market_analytics: 'pro',
  schema: 'developer',
  attribute_prices: 'developer',
  attribute_history: 'pro',
  native_market: 'pro',
  freshness: 'developer',
  market_latency: 'developer',
  arbitrage: 'pro',
  inventory: 'pro',
  stream: 'developer',
  alerts: 'pro',
};

/** Server-Sent Events price streams (docs/api/stream-and-alerts.md): items per stream, open streams per account. */
export interface StreamLimits {
  itemsPerStream: number;
  concurrentStreams: number;
}

export const PLAN_STREAM_LIMITS: Readonly<Record<Plan, StreamLimits>> = {
  developer: { itemsPerStream: 25, concurrentStreams: 1 },
  pro: { itemsPerStream: 100, concurrentStreams: 5 },
  enterprise: { itemsPerStream: 1_000, concurrentStreams: 50 },
};

/** Price alerts with webhooks (docs/api/stream-and-alerts.md): alerts an account may hold. */
export const PLAN_ALERT_LIMITS: Readonly<Record<Plan, number>> = {
  developer: 0,
  pro: 100,
  enterprise: 1_000,
};

export function planAllows(plan: Plan, feature: Feature): boolean {
  return PLAN_RANK[plan] >= PLAN_RANK[FEATURE_MIN_PLAN[feature]];
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}
