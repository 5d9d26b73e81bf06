/**
 * Validation of operator input for the admin operations. A malformed value is an
 * AdminInputError (the CLI's usage error, exit 2); an AdminError is a well-formed request the
 * store's state refuses (exit 1).
 */
import { isPlan } from '../domain/plans.ts';
import type { Plan } from '../domain/plans.ts';
import type { AccountStatus } from './access-store.ts';
import { normaliseRange } from './ip-allow-list.ts';

export class AdminError extends Error {
  override name = 'AdminError';
}

export class AdminInputError extends AdminError {}

export type IntegerInput = number | string | null | undefined;

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const ACCOUNT_STATUSES: readonly AccountStatus[] = ['active', 'inactive', 'expired'];
const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

export function parseAccountName(name: string): string {
  if (!ACCOUNT_NAME.test(name)) {
    throw new AdminInputError(
      `Invalid account name "${name}": use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
  return name;
}

export function parsePlan(plan: string): Plan {
  const lower = plan.toLowerCase();
  if (!isPlan(lower))
    throw new AdminInputError(`Unknown plan "${plan}": use developer, pro or enterprise`);
  return lower;
}

export function parseStatus(status: string): AccountStatus {
  const match = ACCOUNT_STATUSES.find((known) => known === status.toLowerCase());
  if (!match)
    throw new AdminInputError(`Unknown status "${status}": use active, inactive or expired`);
  return match;
}

/** A positive integer, or null for "use the plan's value" (null, or the word `none`). */
export function parseOverride(value: IntegerInput, label: string): number | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value === 'string' && value.trim().toLowerCase() === 'none') return null;
  const number =
    typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < 1) {
    throw new AdminInputError(
      `${label} must be a positive integer (or "none" for the plan's value), got "${value}"`,
    );
  }
  return number;
}

/** An ISO 8601 date (`2026-12-31`, UTC) or date-time with `Z` or an offset, strictly after `now`. */
export function parseExpiry(text: string, now: number): number {
  const ms = ISO_DATE.test(text.trim()) ? Date.parse(text.trim()) : NaN;
  if (Number.isNaN(ms)) {
    throw new AdminInputError(
      `Invalid expiry "${text}": use an ISO 8601 date such as 2026-12-31 or 2026-12-31T12:00:00Z`,
    );
  }
  if (ms <= now) throw new AdminInputError(`Expiry "${text}" is not in the future`);
  return ms;
}

export function parseAllowIps(cidrs: readonly string[]): string[] {
  return cidrs.map((cidr) => {
    const normalised = normaliseRange(cidr);
    if (!normalised)
      throw new AdminInputError(
        `Invalid IP range "${cidr}": use CIDR notation such as 203.0.113.0/24 or 2001:db8::/32`,
      );
    return normalised;
  });
}
