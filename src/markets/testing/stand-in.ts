/**
 * Loopback stand-ins of real marketplaces for tests and benchmarks: one server per market that
 * answers each connector request at the market's real path with the body of its response
 * fixture (matched by method and path, then by the query parameters the fixture names), and
 * that can be switched to misbehave: 429 with Retry-After, 500, hanging, truncated or HTML
 * bodies, a bot-protection challenge, any status, or nothing at all for an unmatched request
 * (404).
 */
import { startLoopback, type Loopback, type ReceivedRequest, type Reply } from './loopback.ts';
import { servedFixtures, type ResponseFixture } from './fixtures.ts';

export type Misbehaviour =
  | { kind: 'normal' }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'http_5xx' }
  | { kind: 'hang' }
  | { kind: 'truncate' }
  | { kind: 'html' }
  /** A Cloudflare managed challenge, as Cloudflare sends it to a client without a browser. */
  | { kind: 'challenge' }
  | { kind: 'status'; status: number; body: string };

/** The shape of Cloudflare's interstitial: title, `cf-mitigated`, the challenge-platform script. */
export const CHALLENGE_PAGE =
  '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body>' +
  '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>';

export interface StandIn {
  market: string;
  url: string;
  loopback: Loopback;
  /** How every later request is answered. */
  behave(mode: Misbehaviour): void;
  /** Replaces the body served for one fixture file (e.g. with moved prices). */
  override(file: string, body: unknown): void;
  close(): Promise<void>;
}

function queryMatches(fixture: ResponseFixture, request: ReceivedRequest): boolean {
  for (const [key, value] of Object.entries(fixture.request.query ?? {})) {
    const actual = request.url.searchParams.getAll(key);
    const wanted = Array.isArray(value) ? value.map(String) : [String(value)];
    if (actual.join('\u0000') !== wanted.join('\u0000')) return false;
  }
  return true;
}

/** Scalars the fixture's body names must be equal in the request's; lists (titles) vary. */
function subsetMatches(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) return true;
  if (typeof expected !== 'object' || expected === null) return expected === actual;
  if (typeof actual !== 'object' || actual === null) return false;
  const held = actual as Record<string, unknown>;
  return Object.entries(expected).every(([key, value]) => subsetMatches(value, held[key]));
}

function bodyMatches(fixture: ResponseFixture, request: ReceivedRequest): boolean {
  if (fixture.match?.body === undefined) return true;
  try {
    return subsetMatches(fixture.match.body, JSON.parse(request.body));
  } catch {
    return false;
  }
}

function pick(
  fixtures: readonly ResponseFixture[],
  request: ReceivedRequest,
): ResponseFixture | null {
  const onPath = fixtures.filter(
    (fixture) => fixture.request.method === request.method && fixture.request.path === request.path,
  );
  const matches = (fixture: ResponseFixture) =>
    queryMatches(fixture, request) && bodyMatches(fixture, request);
  return onPath.find(matches) ?? null;
}

export async function startStandIn(
  market: string,
  fixtures = servedFixtures(market),
): Promise<StandIn> {
  const loopback = await startLoopback();
  const bodies = new Map(fixtures.map((fixture) => [fixture.file, fixture.response.body]));
  let mode: Misbehaviour = { kind: 'normal' };
  loopback.route('*', (request): Reply => {
    const fixture = pick(fixtures, request);
    if (!fixture) return { kind: 'status', status: 404, body: '{"error":"not found"}' };
    const body = bodies.get(fixture.file);
    switch (mode.kind) {
      case 'rate_limited':
        return {
          kind: 'status',
          status: 429,
          headers: { 'retry-after': String(mode.retryAfterSeconds) },
        };
      case 'http_5xx':
        return { kind: 'status', status: 500, body: 'Internal Server Error' };
      case 'hang':
        return { kind: 'hang' };
      case 'html':
        return { kind: 'html' };
      case 'challenge':
        return {
          kind: 'status',
          status: 403,
          headers: {
            'content-type': 'text/html; charset=UTF-8',
            server: 'cloudflare',
            'cf-mitigated': 'challenge',
          },
          body: CHALLENGE_PAGE,
        };
      case 'status':
        return { kind: 'status', status: mode.status, body: mode.body };
      case 'truncate': {
        const text = JSON.stringify(body);
        return { kind: 'truncate', body: text, keep: Math.floor(text.length / 2) };
      }
      default:
        return typeof body === 'string'
          ? { kind: 'text', body, status: fixture.response.status ?? 200 }
          : {
              kind: 'json',
              body,
              status: fixture.response.status ?? 200,
              headers: fixture.response.headers ?? {},
            };
    }
  });
  return {
    market,
    url: loopback.url,
    loopback,
    behave: (next) => void (mode = next),
    override: (file, body) => void bodies.set(file, body),
    close: () => loopback.close(),
  };
}
