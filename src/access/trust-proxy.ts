/**
 * The TRUST_PROXY setting: which peers may name the client in X-Forwarded-For. `false` (the
 * default): none, the client is the socket's peer. A comma-separated list of addresses and
 * CIDR ranges (`127.0.0.1/32,10.0.0.0/8`): walking X-Forwarded-For from the right, each hop
 * sent by a listed address is believed, and the first address not listed is the client, so a
 * direct client's own X-Forwarded-For counts for nothing. `true`: every hop is believed (the
 * leftmost address is the client), which is only safe when nothing but the proxy can reach
 * the port. The client IP feeds the keys' allow-lists and the keyless health limit alike.
 */
import { normaliseRange } from './ip-allow-list.ts';

/** What Fastify's `trustProxy` takes: a boolean or the trusted ranges. */
export type TrustProxy = boolean | string[];

export class TrustProxyError extends Error {}

const EXAMPLE = 'e.g. 127.0.0.1/32,10.0.0.0/8';

export function parseTrustProxy(text: string): TrustProxy {
  const trimmed = text.trim();
  const word = trimmed.toLowerCase();
  if (word === 'true' || word === '1') return true;
  if (word === 'false' || word === '0' || word === '') return false;
  const entries = trimmed.split(',').map((entry) => entry.trim());
  const problems = entries
    .filter((entry) => normaliseRange(entry) === null)
    .map((entry) => (entry === '' ? 'an empty entry' : `"${entry}"`));
  if (problems.length > 0) {
    throw new TrustProxyError(
      `TRUST_PROXY must be true, false or a comma-separated list of proxy addresses or CIDR ` +
        `ranges (${EXAMPLE}); not an address or range: ${problems.join(', ')}`,
    );
  }
  return entries.map((entry) => normaliseRange(entry)!);
}
