/**
 * The refusals access control can produce (401/403), as plain values the HTTP layer renders.
 * Messages are the public service's exact wording (see service-conventions.md).
 */
import { ApiError } from '../domain/errors.ts';
import type { Feature, Plan } from '../domain/plans.ts';

export type AccessFailureCode =
  'UNAUTHORIZED' | 'SUBSCRIPTION_INACTIVE' | 'IP_NOT_ALLOWED' | 'FEATURE_NOT_AVAILABLE';

export interface AccessFailure {
  ok: false;
  status: 401 | 403;
  code: AccessFailureCode;
  message: string;
}

export const INVALID_KEY_MESSAGE = 'API key invalid or inactive';
export const SUBSCRIPTION_INACTIVE_MESSAGE = 'Subscription is not active';
export const IP_NOT_ALLOWED_MESSAGE = "Client IP is not in this key's allow-list";

export function invalidKey(): AccessFailure {
  return { ok: false, status: 401, code: 'UNAUTHORIZED', message: INVALID_KEY_MESSAGE };
}

export function subscriptionInactive(): AccessFailure {
  return {
    ok: false,
    status: 403,
    code: 'SUBSCRIPTION_INACTIVE',
    message: SUBSCRIPTION_INACTIVE_MESSAGE,
  };
}

export function ipNotAllowed(): AccessFailure {
  return { ok: false, status: 403, code: 'IP_NOT_ALLOWED', message: IP_NOT_ALLOWED_MESSAGE };
}

export function featureNotAvailable(plan: Plan, feature: Feature): AccessFailure {
  return {
    ok: false,
    status: 403,
    code: 'FEATURE_NOT_AVAILABLE',
    message: `Your current plan (${plan.toUpperCase()}) does not include access to this feature (feature:${feature}).`,
  };
}

export function toApiError(failure: AccessFailure): ApiError {
  return new ApiError(failure.status, failure.code, failure.message);
}
