/**
 * Why a market fetch (or part of one) failed: a closed set, stored with each fetch record and
 * reported per market by the latency and health routes and by `pricing markets check`. The
 * upstream kinds say what an operator must fix: `dns` (the name does not resolve), `tls` (no
 * trusted TLS session), `blocked` (a bot-protection challenge page instead of the API),
 * `auth` (a credential missing or refused), `http_4xx` / `http_5xx`, `parse` (the body is not
 * what the parser reads).
 */
export const FETCH_FAILURES = [
  'timeout',
  'dns',
  'tls',
  'network',
  'rate_limited',
  'http_5xx',
  'http_4xx',
  'blocked',
  'auth',
  'parse',
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

/** Names stored before the kinds were split (issue 25): read as today's kind. */
const RENAMED: Readonly<Record<string, FetchFailure>> = {
  server_error: 'http_5xx',
  client_error: 'http_4xx',
  bad_body: 'parse',
};

/** A stored kind as today's vocabulary (older names mapped), or null when unknown. */
export function readFetchFailure(value: unknown): FetchFailure | null {
  if (isFetchFailure(value)) return value;
  return typeof value === 'string' ? (RENAMED[value] ?? null) : null;
}

/** What each kind means, for the table in docs/markets.md and the OpenAPI description. */
export const FETCH_FAILURE_MEANINGS: Readonly<Record<FetchFailure, string>> = {
  timeout: 'no complete answer within the request timeout',
  dns: "the market's host name does not resolve",
  tls: 'no trusted TLS session (bad certificate, handshake refused, not TLS)',
  network: 'connection refused or reset',
  rate_limited: 'the market answered 429',
  http_5xx: 'the market answered 5xx (other than a challenge page)',
  http_4xx: 'the market answered 4xx other than 401, 403 and 429',
  blocked:
    'a bot-protection challenge page (e.g. Cloudflare "Just a moment...") instead of the API',
  auth: 'a required credential is not set, or the market answered 401 / 403 or refused it in the body',
  parse: 'an HTML page, truncated or invalid JSON, or a body of the wrong shape',
  too_large: 'the body exceeded the response size cap',
  circuit_open: "the market's circuit breaker is open: no request was sent",
  budget: "the market's request budget was spent: no request was sent",
  no_data: 'the body parsed but every observation in it was rejected',
  store: 'the store commit failed',
  internal: 'a bug on our side (the adapter threw)',
};
