/**
 * The MarketHttp implementation: per upstream channel, every attempt first asks the circuit
 * breaker (or fails with `circuit_open`), then waits for the request budget (or fails with
 * `budget`; a token spent on a request that never reached the upstream is given back), then
 * goes out through the transport with the project's User-Agent, the
 * accepted encodings and any stored validators. Statuses are classified (a challenge page →
 * blocked, 429 → rate_limited, 5xx → http_5xx, 401/403 → auth, other 4xx → http_4xx; see
 * failure-kind.ts); timeouts, DNS and network errors, 5xx, HTML and truncated bodies are
 * retried with jittered backoff, and 429 is retried only when its `Retry-After` is short,
 * which otherwise blocks the channel's budget until then.
 */
import { SECOND, type Clock } from '../../domain/clock.ts';
import type { FetchFailure } from '../../domain/fetch-failure.ts';
import { backoffDelayMs, DEFAULT_RETRY, parseRetryAfter, type RetryPolicy } from './backoff.ts';
import { CircuitBreaker, DEFAULT_BREAKER, type BreakerOptions } from './circuit-breaker.ts';
import { ConditionalCache } from './conditional-cache.ts';
import { decodeBody } from './decode-body.ts';
import { statusKind } from './failure-kind.ts';
import {
  HttpFailure,
  type ChannelOptions,
  type HttpChannel,
  type HttpRequest,
  type HttpResponse,
  type MarketHttp,
} from './market-http.ts';
import { RequestBudget } from './request-budget.ts';
import { createUndiciTransport, type RawResponse, type Transport } from './undici-transport.ts';

export const USER_AGENT =
  'skin-pricing-service/0.1 (self-hosted cross-market price service; polls within published limits)';

export interface HttpClientOptions {
  clock: Clock;
  transport?: Transport;
  retry?: RetryPolicy;
  breaker?: BreakerOptions;
  userAgent?: string;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const RETRYABLE: ReadonlySet<FetchFailure> = new Set([
  'timeout',
  'dns',
  'network',
  'http_5xx',
  'parse',
  'rate_limited',
]);
/** Failures that say nothing about the upstream's health do not trip the breaker. */
const NEUTRAL: ReadonlySet<FetchFailure> = new Set(['rate_limited', 'budget', 'circuit_open']);

export function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** Redirects are not followed; where one points is what an operator needs to set `baseUrl`. */
function redirectNote(raw: RawResponse): string {
  const location = raw.headers.location;
  if (raw.status < 300 || raw.status >= 400 || !location) return '';
  return `, redirected to ${location} (not followed: point the market's baseUrl there if it is the same API)`;
}

function statusFailure(raw: RawResponse, label: string, now: number): HttpFailure {
  const status = raw.status;
  const kind = statusKind(raw);
  if (kind === 'blocked') {
    return new HttpFailure(
      'blocked',
      `${label}: HTTP ${status}, a challenge page (bot protection)`,
      status,
    );
  }
  const said = raw.body.toString('utf8', 0, 200).replace(/\s+/g, ' ').trim();
  const detail = `${label}: HTTP ${status}${redirectNote(raw)}${said ? ` (${said})` : ''}`;
  const retryAfter =
    kind === 'rate_limited' || kind === 'http_5xx'
      ? parseRetryAfter(raw.headers['retry-after'], now)
      : null;
  return new HttpFailure(kind, detail, status, retryAfter);
}

class Channel implements HttpChannel {
  private readonly budget: RequestBudget;
  private readonly breaker: CircuitBreaker;
  private readonly cache = new ConditionalCache();
  private queue: Promise<unknown> = Promise.resolve();
  /** The failure that last counted against the breaker: named while the circuit is open. */
  private lastFailure: HttpFailure | null = null;

  constructor(
    private readonly options: ChannelOptions,
    private readonly client: Required<Omit<HttpClientOptions, 'transport'>> & {
      transport: Transport;
    },
  ) {
    this.budget = new RequestBudget(options.limits);
    this.breaker = new CircuitBreaker(client.breaker);
  }

  async send(request: HttpRequest, signal?: AbortSignal): Promise<HttpResponse> {
    const { retry, clock, random, sleep } = this.client;
    let last: HttpFailure | null = null;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.attempt(request, attempt, signal);
      } catch (error) {
        const failure = error as HttpFailure;
        // The breaker opening between retries says less than the failure that opened it.
        if (failure.kind === 'circuit_open' && last !== null) throw last;
        last = failure;
        const retryAfter = failure.retryAfterMs;
        if (failure.kind === 'rate_limited' && retryAfter !== null) {
          this.budget.block(clock.now() + retryAfter);
        }
        const retryable =
          RETRYABLE.has(failure.kind) &&
          attempt < retry.maxAttempts &&
          !signal?.aborted &&
          (retryAfter === null || retryAfter <= retry.maxRetryAfterMs);
        if (!retryable) throw failure;
        await sleep(backoffDelayMs(attempt, retry, random, retryAfter), signal);
      }
    }
  }

  state() {
    const now = this.client.clock.now();
    return {
      breaker: this.breaker.state(now),
      used: this.budget.usedAt(now),
      blockedUntil: this.budget.blockedAt(now),
    };
  }

  private async attempt(request: HttpRequest, attempt: number, signal?: AbortSignal) {
    const admission = this.breaker.admit(this.client.clock.now());
    if (!admission.allowed) {
      const seconds = Math.ceil((admission.retryAt - this.client.clock.now()) / SECOND);
      const cause = this.lastFailure ? `; last: ${this.lastFailure.message}` : '';
      throw new HttpFailure(
        'circuit_open',
        `${request.label}: circuit open for ${seconds} s more after repeated failures${cause}`,
      );
    }
    let spentAt: number | null = null;
    try {
      spentAt = await this.takeToken(request);
      const response = await this.exchange(request, attempt, signal);
      this.breaker.success();
      return response;
    } catch (error) {
      const failure =
        error instanceof HttpFailure ? error : new HttpFailure('internal', String(error));
      if (spentAt !== null && !failure.reachedUpstream) this.budget.refund(spentAt);
      if (signal?.aborted) this.breaker.release();
      else if (NEUTRAL.has(failure.kind)) this.breaker.release();
      else {
        this.lastFailure = failure;
        this.breaker.failure(this.client.clock.now());
      }
      throw failure;
    }
  }

  /** Waits its turn and for budget (one request at a time); resolves with the spend time. */
  private takeToken(request: HttpRequest): Promise<number> {
    const maxQueueMs = this.options.maxQueueMs ?? 60 * SECOND;
    const turn = this.queue.then(async () => {
      const { clock, sleep } = this.client;
      const deadline = clock.now() + maxQueueMs;
      for (;;) {
        const now = clock.now();
        const wait = this.budget.waitAt(now);
        if (wait === 0) {
          this.budget.spend(now);
          return now;
        }
        if (now + wait > deadline) {
          const seconds = Math.ceil(wait / SECOND);
          if (this.budget.blockedAt(now) !== null) {
            const detail = `${request.label}: the market answered 429; waiting out its Retry-After (${seconds} s more)`;
            throw new HttpFailure('rate_limited', detail, null, wait);
          }
          throw new HttpFailure(
            'budget',
            `${request.label}: request budget spent; next slot in ${seconds} s`,
          );
        }
        await sleep(wait);
      }
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async exchange(request: HttpRequest, attempt: number, signal?: AbortSignal) {
    const { clock, transport, userAgent } = this.client;
    const conditional = request.conditional === true && request.method === 'GET';
    const headers: Record<string, string> = {
      'user-agent': userAgent,
      'accept-encoding': 'br, gzip, deflate',
      accept: request.expect === 'json' ? 'application/json' : '*/*',
      ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(conditional ? this.cache.validators(request.url) : {}),
      ...request.headers,
      ...request.sign?.(clock.now()),
    };
    const raw = await transport.attempt(request, headers, signal);
    const receivedAt = clock.now();
    if (raw.status === 304 && conditional) {
      const cached = this.cache.get(request.url);
      if (cached) {
        return {
          status: 304,
          body: cached.body,
          notModified: true,
          headers: raw.headers,
          attempts: attempt,
          receivedAt,
        };
      }
    }
    if (raw.status < 200 || raw.status >= 300) throw statusFailure(raw, request.label, receivedAt);
    const body = decodeBody(raw, request);
    if (conditional) this.cache.remember(request.url, raw.headers, body);
    return {
      status: raw.status,
      body,
      notModified: false,
      headers: raw.headers,
      attempts: attempt,
      receivedAt,
    };
  }
}

export function createMarketHttp(options: HttpClientOptions): MarketHttp {
  const resolved = {
    clock: options.clock,
    transport: options.transport ?? createUndiciTransport(),
    retry: options.retry ?? DEFAULT_RETRY,
    breaker: options.breaker ?? DEFAULT_BREAKER,
    userAgent: options.userAgent ?? USER_AGENT,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? realSleep,
  };
  const channels = new Map<string, Channel>();
  return {
    channel(name, channelOptions) {
      let channel = channels.get(name);
      if (!channel) channels.set(name, (channel = new Channel(channelOptions, resolved)));
      return channel;
    },
    close: () => resolved.transport.close(),
  };
}
