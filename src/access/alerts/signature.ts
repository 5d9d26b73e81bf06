/**
 * The webhook signature (docs/api/stream-and-alerts.md): `X-Pricing-Signature: t=<unix seconds>,
 * v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. Signing the timestamp with the body lets a
 * receiver refuse replays older than its tolerance.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

export function signatureHeader(secret: string, unixSeconds: number, rawBody: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** Whether `header` signs `rawBody` with `secret` within `toleranceSeconds` of `nowSeconds`. */
export function verifySignature(
  secret: string,
  header: string,
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = new Map(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isSafeInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = signatureHeader(secret, t, rawBody).split('v1=')[1]!;
  return (
    given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected))
  );
}
