/**
 * A transport that notes every exchange of one market (status or failure kind, time taken)
 * on the way through, for `pricing markets check`; the inner transport is shared and closed
 * by its owner.
 */
import type { FetchFailure } from '../../domain/fetch-failure.ts';
import { HttpFailure } from '../../markets/http/market-http.ts';
import type { Transport } from '../../markets/http/undici-transport.ts';

export interface Exchange {
  /** The HTTP status, or null when no answer came back (timeout, DNS, TLS, reset). */
  status: number | null;
  failure: FetchFailure | null;
  ms: number;
}

export function watchedTransport(inner: Transport, seen: Exchange[]): Transport {
  return {
    async attempt(request, headers, signal) {
      const started = performance.now();
      try {
        const raw = await inner.attempt(request, headers, signal);
        seen.push({ status: raw.status, failure: null, ms: performance.now() - started });
        return raw;
      } catch (error) {
        const failure = error instanceof HttpFailure ? error.kind : 'internal';
        seen.push({ status: null, failure, ms: performance.now() - started });
        throw error;
      }
    },
    close: async () => undefined,
  };
}
