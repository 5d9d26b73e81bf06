/**
 * The outbound HTTP port every live connector (and the FX source) sends through. One channel
 * per upstream holds that upstream's request budget, circuit breaker and conditional-request
 * cache; the transport under it is one maintained client (undici). Failures are `HttpFailure`s
 * carrying a `FetchFailure` kind, never raw socket errors.
 */
import type { FetchFailure } from '../../domain/fetch-failure.ts';

/** A published request limit: at most `requests` in any `windowMs`. */
export interface RequestLimit {
  requests: number;
  windowMs: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Absolute URL, query included. */
  url: string;
  headers?: Readonly<Record<string, string>>;
  /** Sent as is (connectors serialise JSON themselves, so a signature covers the exact bytes). */
  body?: string;
  /** `json` bodies are parsed (an HTML page or invalid JSON is `parse`); `text` is returned. */
  expect: 'json' | 'text';
  timeoutMs?: number;
  maxBytes?: number;
  /** Revalidate with ETag / Last-Modified (GET only): a 304 returns the stored body. */
  conditional?: boolean;
  /** How the request appears in logs and errors: never a secret, never a query string. */
  label: string;
  /** Headers computed at the moment of each attempt (a dated signature stays fresh on retries). */
  sign?: (now: number) => Readonly<Record<string, string>>;
}

export interface HttpResponse {
  status: number;
  body: unknown;
  /** True when the upstream answered 304 and `body` is the stored copy. */
  notModified: boolean;
  headers: Readonly<Record<string, string>>;
  /** Attempts made, retries included. */
  attempts: number;
  receivedAt: number;
}

export class HttpFailure extends Error {
  constructor(
    readonly kind: FetchFailure,
    message: string,
    readonly status: number | null = null,
    /** From `Retry-After`, when the upstream sent one. */
    readonly retryAfterMs: number | null = null,
    /** False when the request never reached the upstream (refused, unresolvable host). */
    readonly reachedUpstream = true,
  ) {
    super(message);
  }
}

export interface ChannelOptions {
  limits: readonly RequestLimit[];
  /** How long a request may wait for budget before failing with `budget` (default 60 s). */
  maxQueueMs?: number;
}

export interface ChannelState {
  breaker: 'closed' | 'open' | 'half_open';
  /** Requests sent in the current window of each limit, in the order of `limits`. */
  used: number[];
  blockedUntil: number | null;
}

export interface HttpChannel {
  send(request: HttpRequest, signal?: AbortSignal): Promise<HttpResponse>;
  state(): ChannelState;
}

export interface MarketHttp {
  /** The channel of one upstream (created on first use with these options). */
  channel(name: string, options: ChannelOptions): HttpChannel;
  close(): Promise<void>;
}
