/**
 * The keyless market-health endpoint is limited per client IP, not per account: use a separate
 * memory limiter instance with `healthIpKey(ip)` as the id and `healthIpLimits` (60 a minute, no
 * monthly cap). Health responses send no quota headers (service-conventions.md).
 */
import type { QuotaLimits } from './rate-limiter.ts';
import { canonicalIp } from './ip-allow-list.ts';

export const healthIpLimits: Readonly<QuotaLimits> = { perMinute: 60, monthly: null };

/** `::ffff:1.2.3.4` and `1.2.3.4` are one client. */
export function healthIpKey(clientIp: string): string {
  return `ip:${canonicalIp(clientIp)}`;
}
