/**
 * Why a market fetch (or part of one) failed: a closed set, stored with each fetch record and
 * reported per market by the latency and health routes.
 */
export const FETCH_FAILURES = [
  'timeout',
  'rate_limited',
  'server_error',
  'client_error',
  'auth',
  'network',
  'bad_body',
  'too_large',
  'circuit_open',
  'budget',
  'no_data',
  'store',
  'internal',
] as const;

export type FetchFailure = (typeof FETCH_FAILURES)[number];

export function isFetchFailure(value: unknown): value is FetchFailure {
  return typeof value === 'string' && (FETCH_FAILURES as readonly string[]).includes(value);
}

/** What each kind means, for the table in docs/markets.md and the OpenAPI description. */
export const FETCH_FAILURE_MEANINGS: Readonly<Record<FetchFailure, string>> = {
  timeout: 'no complete answer within the request timeout',
  rate_limited: 'the market answered 429',
  server_error: 'the market answered 5xx',
  client_error: 'the market answered 4xx other than 401, 403 and 429',
  auth: 'credentials missing, or the market answered 401 / 403',
  network: 'connection refused, reset or unresolvable',
  bad_body: 'an HTML page, truncated or invalid JSON, or a body of the wrong shape',
  too_large: 'the body exceeded the response size cap',
  circuit_open: "the market's circuit breaker is open: no request was sent",
  budget: "the market's request budget was spent: no request was sent",
  no_data: 'the body parsed but every observation in it was rejected',
  store: 'the store commit failed',
  internal: 'a bug on our side (the adapter threw)',
};
