/**
 * Which failure kind an upstream answer or socket error is. A bot-protection challenge is told
 * apart from the API's own errors (Cloudflare documents `cf-mitigated: challenge` on challenge
 * responses: developers.cloudflare.com/cloudflare-challenges/challenge-types/challenge-pages/detect-response/;
 * its interstitial pages are HTML titled "Just a moment..." and load `/cdn-cgi/challenge-platform/`),
 * and DNS and TLS errors from other socket errors, by the Node / OpenSSL error codes.
 */
import type { FetchFailure } from '../../domain/fetch-failure.ts';

export interface AnswerShape {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: Buffer;
}

const CHALLENGE_MARKERS =
  /just a moment\.\.\.|attention required! \| cloudflare|\/cdn-cgi\/challenge-platform\/|cf_chl_opt|cf-chl-/i;
/** A challenge page is small; its markers sit near the top. */
const CHALLENGE_SCAN_BYTES = 16 * 1024;

function fromCloudflare(headers: Readonly<Record<string, string>>): boolean {
  return /cloudflare/i.test(headers.server ?? '') || headers['cf-ray'] !== undefined;
}

/** A Cloudflare-style challenge instead of the API's answer (any status). */
export function isChallenge(answer: AnswerShape): boolean {
  if ((answer.headers['cf-mitigated'] ?? '').toLowerCase() === 'challenge') return true;
  if (!fromCloudflare(answer.headers)) return false;
  const text = answer.body.toString('utf8', 0, CHALLENGE_SCAN_BYTES);
  return /html/i.test(answer.headers['content-type'] ?? '') || text.trimStart().startsWith('<')
    ? CHALLENGE_MARKERS.test(text)
    : false;
}

/** The kind of a non-2xx answer. */
export function statusKind(answer: AnswerShape): FetchFailure {
  if (isChallenge(answer)) return 'blocked';
  const status = answer.status;
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth';
  if (status >= 500) return 'http_5xx';
  return 'http_4xx';
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA']);
const TLS_CODE = /^ERR_SSL_|^ERR_TLS_|CERT|^SELF_SIGNED|^UNABLE_TO_|^HOSTNAME_MISMATCH$/;

/** `dns`, `tls` or `network` for a socket error code (the error's or its cause's). */
export function socketKind(code: string): 'dns' | 'tls' | 'network' {
  if (DNS_CODES.has(code)) return 'dns';
  if (TLS_CODE.test(code)) return 'tls';
  return 'network';
}
